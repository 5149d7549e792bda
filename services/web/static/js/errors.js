// What went wrong, in words a player can act on. The API answers {code, message}; both are written for
// developers (a code, a route, a field name), so neither reaches the page as it is: each code has a sentence
// here, and the server's own detail is added only where it reads as plain words. Pure: no DOM, no imports.

const WORDS = {
  network_error: "The server cannot be reached. Check your connection; the page tries again by itself.",
  signed_out: "This server does not know your sign-in any more (it may have been reset). Pick a name again, or " +
    "open a sign-in link from a device where you are signed in.",
  unauthorized: "Pick a name first (or sign in on the start page): playing needs one.",
  invalid_recovery_code: "That handle and recovery code do not match. Check both and try again.",
  forbidden: "You are not allowed to do that here.",
  not_your_seat: "You hold no seat in this game, so you can watch it but not play.",
  not_found: "That page or game does not exist. The link may be mistyped, or the game was removed.",
  game_not_found: "That game does not exist. The link may be mistyped, or the game was removed.",
  command_not_found: "That move is no longer known to the server. Reload the page and play it again.",
  no_description: "This game has no board description; it is drawn in a simpler way.",
  player_not_found: "Nobody here has that handle. Check the spelling (without the @ is fine).",
  invitation_not_found: "That invitation no longer exists: it was answered or withdrawn.",
  invalid_token: "That link does not work any more. Ask for a new one.",
  push_disabled: "This server sends no push notifications. E-mail may be offered instead.",
  email_disabled: "This server sends no e-mail, so no address can be added.",
  invalid_email: "That e-mail address cannot be used. Check it for typos.",
  invalid_push_endpoint: "This browser's push subscription was refused. Try again, or use e-mail instead.",
  not_your_turn: "It is not your turn any more. The board now shows the game as it stands.",
  stale_version: "The game moved on while you chose. The board is up to date now: choose again.",
  command_id_reused: "That move was already sent. The board now shows the game as it stands.",
  game_not_active: "This game is not running: it has not started yet, or it is over.",
  game_archived: "This game is archived: it can be watched and replayed, no longer played.",
  already_resigned: "You have already resigned this game.",
  too_many_push_subscriptions: "Too many browsers of yours receive push notifications. Turn them off in one first.",
  too_many_mutes: "You have muted as many players as you can. Unmute someone first.",
  too_many_blocks: "You have blocked as many players as you can. Unblock someone in Settings first.",
  invitation_refused: "This player does not take invitations from you.",
  message_not_found: "That message is no longer kept, so it cannot be reported.",
  idempotency_key_reused: "The page sent two different things as one. Reload the page and try again.",
  hints_off: "This game was started without hints: they come in casual games that allow them and in Learn to play.",
  hints_in_rated_game: "Hints are for casual games: tick \"Casual game (not rated)\" to allow them.",
  seat_taken: "Someone else took that seat first. Pick another one.",
  no_open_seat: "This game has no open seat left. Start a game of your own in the lobby.",
  handle_taken: "That handle is taken. Try another one.",
  already_seated: "You already sit in this game.",
  already_invited: "That player is already invited to this game.",
  seat_reserved: "That seat is kept for an invited player.",
  invitation_expired: "That invitation has expired. Ask for a new one.",
  malformed_json: "The page sent something the server could not read. Reload the page and try again.",
  method_not_allowed: "The page asked the server for something it does not do. Reload the page and try again.",
  body_too_large: "That is too long. Shorten it and try again.",
  invalid_request: "The server could not accept this. Check what you entered and try again.",
  invalid_command: "That move is not possible as sent. Reload the page and try again.",
  invalid_options: "These game options do not fit together. Change them and try again.",
  illegal_move: "That move is not allowed now.",
  seed_not_allowed: "This server does not accept a chosen seed.",
  unknown_game: "That game is not offered on this server.",
  rate_limited: "Too many requests from here in a short time. Wait a minute, then try again.",
  too_many_bot_games: "You have many games against bots running. Finish or resign one, then start another.",
  too_many_streams: "Too many game pages are open. Close a few tabs, then reload this one.",
  unavailable: "The server is busy or restarting. Try again in a few seconds.",
  game_not_over: "The coach looks at a game once it is over. Come back when the game has ended.",
  not_analysable: "The coach cannot look at games of this kind yet.",
  no_analysis: "Nobody has asked the coach about this game yet.",
  write_not_durable: "The server could not keep that safely just now. Nothing was changed: try again in a few seconds.",
  client_key_reused: "This sign-up was already sent with other details. Reload the page and sign up again.",
  client_key_used: "This sign-up is already done and its key was changed since. Sign in with your sign-in link.",
  internal_error: "Something went wrong on the server. Try again in a moment; if it keeps happening, tell us.",
};

const FALLBACK = "Something went wrong. Try again in a moment.";

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
    const detail = WITH_DETAIL.has(code) ? plainDetail(err.message) : null;
    return detail ? `${WORDS[code]} (${sentenceCase(detail)})` : WORDS[code];
  }
  if (err?.status >= 500) return WORDS.internal_error;
  if (err?.status === 404) return WORDS.not_found;
  if (err instanceof PlainError) return err.message;
  return FALLBACK;
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
