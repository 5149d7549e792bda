// What went wrong, in words a player can act on. The API answers {code, message}; both are written for
// developers (a code, a route, a field name), so neither reaches the page as it is: each code has a sentence
// here, and the server's own detail is added only where it reads as plain words. Pure: no DOM; the sentences are
// translated when shown (i18n.js), and the server's detail is added only to English ones (the server words its
// messages in the reader's language as one sentence per code, which the page already says).
import { N_, locale, t } from "./i18n.js";

const WORDS = {
  network_error: N_("The server cannot be reached. Check your connection; the page tries again by itself."),
  signed_out: N_("This server does not know your sign-in any more (it may have been reset). Pick a name again, or " +
    "open a sign-in link from a device where you are signed in."),
  unauthorized: N_("Pick a name first (or sign in on the start page): playing needs one."),
  invalid_recovery_code: N_("That handle and recovery code do not match. Check both and try again."),
  forbidden: N_("You are not allowed to do that here."),
  not_your_seat: N_("You hold no seat in this game, so you can watch it but not play."),
  not_found: N_("That page or game does not exist. The link may be mistyped, or the game was removed."),
  game_not_found: N_("That game does not exist. The link may be mistyped, or the game was removed."),
  command_not_found: N_("That move is no longer known to the server. Reload the page and play it again."),
  no_description: N_("This game has no board description; it is drawn in a simpler way."),
  player_not_found: N_("Nobody here has that handle. Check the spelling (without the @ is fine)."),
  invitation_not_found: N_("That invitation no longer exists: it was answered or withdrawn."),
  invalid_token: N_("That link does not work any more. Ask for a new one."),
  push_disabled: N_("This server sends no push notifications. E-mail may be offered instead."),
  email_disabled: N_("This server sends no e-mail, so no address can be added."),
  invalid_email: N_("That e-mail address cannot be used. Check it for typos."),
  invalid_push_endpoint: N_("This browser's push subscription was refused. Try again, or use e-mail instead."),
  not_your_turn: N_("It is not your turn any more. The board now shows the game as it stands."),
  stale_version: N_("The game moved on while you chose. The board is up to date now: choose again."),
  command_id_reused: N_("That move was already sent. The board now shows the game as it stands."),
  game_not_active: N_("This game is not running: it has not started yet, or it is over."),
  game_archived: N_("This game is archived: it can be watched and replayed, no longer played."),
  already_resigned: N_("You have already resigned this game."),
  too_many_push_subscriptions: N_("Too many browsers of yours receive push notifications. Turn them off in one first."),
  too_many_mutes: N_("You have muted as many players as you can. Unmute someone first."),
  too_many_blocks: N_("You have blocked as many players as you can. Unblock someone in Settings first."),
  invitation_refused: N_("This player does not take invitations from you."),
  message_not_found: N_("That message is no longer kept, so it cannot be reported."),
  idempotency_key_reused: N_("The page sent two different things as one. Reload the page and try again."),
  hints_off: N_("This game was started without hints: they come in casual games that allow them and in Learn to play."),
  hints_in_rated_game: N_("Hints are for casual games: tick \"Casual game (not rated)\" to allow them."),
  seat_taken: N_("Someone else took that seat first. Pick another one."),
  no_open_seat: N_("This game has no open seat left. Start a game of your own in the lobby."),
  handle_taken: N_("That handle is taken. Try another one."),
  already_seated: N_("You already sit in this game."),
  already_invited: N_("That player is already invited to this game."),
  seat_reserved: N_("That seat is kept for an invited player."),
  invitation_expired: N_("That invitation has expired. Ask for a new one."),
  malformed_json: N_("The page sent something the server could not read. Reload the page and try again."),
  method_not_allowed: N_("The page asked the server for something it does not do. Reload the page and try again."),
  body_too_large: N_("That is too long. Shorten it and try again."),
  invalid_request: N_("The server could not accept this. Check what you entered and try again."),
  invalid_command: N_("That move is not possible as sent. Reload the page and try again."),
  invalid_options: N_("These game options do not fit together. Change them and try again."),
  illegal_move: N_("That move is not allowed now."),
  seed_not_allowed: N_("This server does not accept a chosen seed."),
  unknown_game: N_("That game is not offered on this server."),
  rate_limited: N_("Too many requests from here in a short time. Wait a minute, then try again."),
  too_many_bot_games: N_("You have many games against bots running. Finish or resign one, then start another."),
  too_many_streams: N_("Too many game pages are open. Close a few tabs, then reload this one."),
  unavailable: N_("The server is busy or restarting. Try again in a few seconds."),
  game_not_over: N_("The coach looks at a game once it is over. Come back when the game has ended."),
  not_analysable: N_("The coach cannot look at games of this kind yet."),
  no_analysis: N_("Nobody has asked the coach about this game yet."),
  write_not_durable: N_("The server could not keep that safely just now. Nothing was changed: try again in a few " +
    "seconds."),
  client_key_reused: N_("This sign-up was already sent with other details. Reload the page and sign up again."),
  client_key_used: N_("This sign-up is already done and its key was changed since. Sign in with your sign-in link."),
  internal_error: N_("Something went wrong on the server. Try again in a moment; if it keeps happening, tell us."),
};

const FALLBACK = N_("Something went wrong. Try again in a moment.");

// An error the client itself words for players (a form's own check): its message is shown as it is.
export class PlainError extends Error {}

// Codes whose server message may add something useful (why a move or an option was refused), if it is plain.
const WITH_DETAIL = new Set(["illegal_move", "invalid_options", "invalid_request", "invalid_command", "invalid_email"]);

// A detail is shown only when it reads as words: no route, no HTTP verb, no identifier_with_underscores,
// no parenthesised code, and short.
export function plainDetail(message) {
  if (typeof message !== "string") return null;
  const text = message.trim();
  if (!text || text.length > 160) return null;
  if (/(^|[\s(])\/[a-z]/i.test(text)) return null; // a route such as /players
  if (/\b(GET|POST|PUT|DELETE|PATCH|HTTP)\b/.test(text)) return null;
  if (/[A-Za-z0-9]_[A-Za-z0-9]/.test(text)) return null; // snake_case names and codes
  if (/[{}<>[\]`]|\.py\b|\.js\b/.test(text)) return null;
  return text;
}

// The sentence for an error: `err` is an ApiError-like {status, code, message}, or any thrown value.
export function friendlyError(err) {
  const code = err?.code;
  if (code && Object.hasOwn(WORDS, code)) {
    const detail = WITH_DETAIL.has(code) && locale() === "en" ? plainDetail(err.message) : null;
    return detail ? t("{sentence} ({detail})", { sentence: t(WORDS[code]), detail: sentenceCase(detail) })
      : t(WORDS[code]);
  }
  if (err?.status >= 500) return t(WORDS.internal_error);
  if (err?.status === 404) return t(WORDS.not_found);
  if (err instanceof PlainError) return err.message;
  return t(FALLBACK);
}

function sentenceCase(text) {
  return text.charAt(0).toUpperCase() + text.slice(1).replace(/\.$/, "");
}

// A page that failed to load tries again after 2, 4, 8 … seconds, at most a minute.
export function retryDelay(attempt) {
  return Math.min(60, 2 ** Math.max(1, attempt + 1)) * 1000;
}

// Errors worth trying again by themselves (the network, a busy or restarting server), as opposed to
// answers that will not change (a game that does not exist).
export function isTransient(err) {
  return !err?.status || err.status >= 500 || err.status === 429;
}
