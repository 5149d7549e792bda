"""The sentence beside each API error code, in the caller's language (issue 38).

The codes stay English identifiers; a caller whose language is not English (``Accept-Language``, else the
player's setting) reads the ``message`` in their language: this sentence, as the web client words the code
(``services/web/static/js/errors.js`` keeps the same English). An English caller keeps the server's own
detailed message. Translations: ``services/locale/<locale>/LC_MESSAGES/messages.po``.
"""

from __future__ import annotations


def N_(message: str) -> str:  # gettext's name: pybabel extract finds the sentences by it
    return message


SENTENCES: dict[str, str] = {
    "network_error": N_("The server cannot be reached. Check your connection; the page tries again by itself."),
    "signed_out": N_("This server does not know your sign-in any more (it may have been reset). Pick "
                     "a name again, or open a sign-in link from a device where you are signed in."),
    "unauthorized": N_("Pick a name first (or sign in on the start page): playing needs one."),
    "invalid_recovery_code": N_("That handle and recovery code do not match. Check both and try again."),
    "forbidden": N_("You are not allowed to do that here."),
    "not_your_seat": N_("You hold no seat in this game, so you can watch it but not play."),
    "not_found": N_("That page or game does not exist. The link may be mistyped, or the game was removed."),
    "game_not_found": N_("That game does not exist. The link may be mistyped, or the game was removed."),
    "command_not_found": N_("That move is no longer known to the server. Reload the page and play it again."),
    "no_description": N_("This game has no board description; it is drawn in a simpler way."),
    "player_not_found": N_("Nobody here has that handle. Check the spelling (without the @ is fine)."),
    "invitation_not_found": N_("That invitation no longer exists: it was answered or withdrawn."),
    "invalid_token": N_("That link does not work any more. Ask for a new one."),
    "push_disabled": N_("This server sends no push notifications. E-mail may be offered instead."),
    "email_disabled": N_("This server sends no e-mail, so no address can be added."),
    "invalid_email": N_("That e-mail address cannot be used. Check it for typos."),
    "invalid_push_endpoint": N_("This browser's push subscription was refused. Try again, or use e-mail instead."),
    "not_your_turn": N_("It is not your turn any more. The board now shows the game as it stands."),
    "stale_version": N_("The game moved on while you chose. The board is up to date now: choose again."),
    "command_id_reused": N_("That move was already sent. The board now shows the game as it stands."),
    "game_not_active": N_("This game is not running: it has not started yet, or it is over."),
    "game_archived": N_("This game is archived: it can be watched and replayed, no longer played."),
    "already_resigned": N_("You have already resigned this game."),
    "too_many_push_subscriptions": N_("Too many browsers of yours receive push "
                                      "notifications. Turn them off in one first."),
    "too_many_mutes": N_("You have muted as many players as you can. Unmute someone first."),
    "hints_off": N_("This game was started without hints: they come in "
                    "casual games that allow them and in Learn to play."),
    "hints_in_rated_game": N_("Hints are for casual games: tick \"Casual game (not rated)\" to allow them."),
    "seat_taken": N_("Someone else took that seat first. Pick another one."),
    "no_open_seat": N_("This game has no open seat left. Start a game of your own in the lobby."),
    "handle_taken": N_("That handle is taken. Try another one."),
    "already_seated": N_("You already sit in this game."),
    "already_invited": N_("That player is already invited to this game."),
    "seat_reserved": N_("That seat is kept for an invited player."),
    "invitation_expired": N_("That invitation has expired. Ask for a new one."),
    "malformed_json": N_("The page sent something the server could not read. Reload the page and try again."),
    "method_not_allowed": N_("The page asked the server for something it does not do. Reload the page and try again."),
    "body_too_large": N_("That is too long. Shorten it and try again."),
    "invalid_request": N_("The server could not accept this. Check what you entered and try again."),
    "invalid_command": N_("That move is not possible as sent. Reload the page and try again."),
    "invalid_options": N_("These game options do not fit together. Change them and try again."),
    "illegal_move": N_("That move is not allowed now."),
    "seed_not_allowed": N_("This server does not accept a chosen seed."),
    "unknown_game": N_("That game is not offered on this server."),
    "rate_limited": N_("Too many requests from here in a short time. Wait a minute, then try again."),
    "too_many_bot_games": N_("You have many games against bots running. Finish or resign one, then start another."),
    "too_many_streams": N_("Too many game pages are open. Close a few tabs, then reload this one."),
    "unavailable": N_("The server is busy or restarting. Try again in a few seconds."),
    "game_not_over": N_("The coach looks at a game once it is over. Come back when the game has ended."),
    "not_analysable": N_("The coach cannot look at games of this kind yet."),
    "no_analysis": N_("Nobody has asked the coach about this game yet."),
    "write_not_durable": N_("The server could not keep that safely just now. "
                            "Nothing was changed: try again in a few seconds."),
    "client_key_reused": N_("This sign-up was already sent with other details. Reload the page and sign up again."),
    "client_key_used": N_("This sign-up is already done and its key "
                          "was changed since. Sign in with your sign-in link."),
    "internal_error": N_("Something went wrong on the server. Try again in a moment; if it keeps happening, tell us."),
    "too_many_blocks": N_("You have blocked as many players as you can. Unblock someone in Settings first."),
    "invitation_refused": N_("This player does not take invitations from you."),
    "cannot_follow_self": N_("That is your own handle: follow someone else."),
    "too_many_follows": N_("You follow as many players as you can. Unfollow someone first."),
    "not_following": N_("You do not follow that player."),
    "nothing_to_undo": N_("There is nothing of yours to take back now: a tile or card was drawn, dice were rolled, "
                          "your turn is over, or another player moved since."),
    "reliability_too_low": N_("This game admits only players who usually finish their games, and your reliability "
                              "is below what its creator asked for. Finish the games you start and it rises again."),
    "message_not_found": N_("That message is no longer kept, so it cannot be reported."),
    "idempotency_key_reused": N_("The page sent two different things as one. Reload the page and try again."),
    "http_error": N_("Something went wrong. Try again in a moment."),
}
