// The public HTTP API, as any third-party client would use it. Tokens live in localStorage.
import { friendlyError } from "./errors.js";
import { locale } from "./i18n.js";

const TOKEN = "taproom.token";
const NAME = "taproom.name";
const PLAYER = "taproom.player";
const SEATS = "taproom.seatTokens";
const signInListeners = new Set();

export const auth = {
  token: () => localStorage.getItem(TOKEN),
  name: () => localStorage.getItem(NAME),
  playerId: () => localStorage.getItem(PLAYER),
  signIn(token, name, playerId) {
    localStorage.setItem(TOKEN, token);
    if (name) localStorage.setItem(NAME, name);
    if (playerId) localStorage.setItem(PLAYER, playerId);
    for (const listener of signInListeners) listener(token);
  },
  // Told on each sign-in (a new name, a sign-in link, a recovery): the language setting is applied then.
  onSignIn(listener) {
    signInListeners.add(listener);
  },
  signOut() {
    for (const key of [TOKEN, NAME, PLAYER, SEATS]) localStorage.removeItem(key);
  },
  seatTokens: () => JSON.parse(localStorage.getItem(SEATS) || "{}"),
  setSeatToken(gameId, token) {
    const all = auth.seatTokens();
    all[gameId] = token;
    localStorage.setItem(SEATS, JSON.stringify(all));
  },
  // A seat token (an invited seat opened by link) acts for its game; otherwise the player token.
  tokenFor: (gameId) => auth.seatTokens()[gameId] || auth.token(),
};

let forgotten = null; // the token a 401 made this browser forget

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

// Writes the server makes safe to send again (docs/internals.md, "Acknowledged writes"): each carries an
// Idempotency-Key, and after a 503 (a write the server could not make durable, or a busy server) or a lost
// connection it is sent again with the same key and body, so a retry answers the first try's outcome instead of
// writing twice (a game's creation and a recovery code's spending too: their key names the game, or seals the
// answer). Taking a seat is not sent again by itself (a guest's second try would find its seat taken, by itself):
// the page says what happened instead.
const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const NOT_RETRIED = [/^\/games\/[^/]+\/join$/];
export const WRITE_TRIES = 4;
export const retrying = {
  // how long to wait before try `n` (1, 2, …): the server's Retry-After when it gave one, else 0.5 s, 1 s, 2 s
  delay: (n, retryAfter) => (retryAfter > 0 ? Math.min(retryAfter, 2) * 1000 : 500 * 2 ** (n - 1)),
  sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
};

export function newKey() {
  return crypto.randomUUID();
}

const worthRetrying = (err) => err.status === 0 || err.status === 503;

export async function api(method, path, { body, token } = {}) {
  if (!WRITES.has(method) || NOT_RETRIED.some((p) => p.test(path))) return once(method, path, { body, token });
  const key = newKey(); // one key for every try of this write
  // a registration carries its client key in the body: every try of it answers the same player
  if (method === "POST" && path === "/players" && body && !body.client_key) body = { ...body, client_key: key };
  for (let n = 1; ; n++) {
    try {
      return await once(method, path, { body, token, key });
    } catch (err) {
      if (!worthRetrying(err) || n >= WRITE_TRIES) throw err;
      await retrying.sleep(retrying.delay(n, err.retryAfter));
    }
  }
}

async function once(method, path, { body, token, key }) {
  // the server words its messages in the page's language (its codes stay English identifiers)
  const headers = { Accept: "application/json", "Accept-Language": locale() };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  if (key) headers["Idempotency-Key"] = key;
  let response;
  const early = window.__prefetched?.[path]; // started by index.html while the modules loaded
  try {
    if (method === "GET" && early && early.token === (token || null)) {
      delete window.__prefetched[path];
      response = await early.response;
    } else {
      response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    }
  } catch (err) {
    throw new ApiError(0, "network_error", "The server cannot be reached. Check your connection.");
  }
  const type = response.headers.get("content-type") || "";
  const data = type.includes("json") ? await response.json() : await response.text();
  if (!response.ok) {
    if (response.status === 401 && token && (token === auth.token() || token === forgotten)) {
      forgotten = token; // a request still in flight with it gets the same answer
      // the server no longer knows this token (an embedded server restarted empty, or it was revoked):
      // keeping it would fail every request, so forget it and say why
      auth.signOut();
      throw new ApiError(401, "signed_out", "the token is unknown to this server");
    }
    const error = new ApiError(response.status, data.code || "http_error", data.message || String(data).slice(0, 200));
    error.retryAfter = Number(response.headers.get("retry-after")) || 0;
    throw error;
  }
  return data;
}

export const get = (path, token) => api("GET", path, { token });

// The games this server offers ({id, title, summary, options, …}): asked once per page load, shared by every page.
let typesAsked = null;
export function gameTypes() {
  typesAsked ??= get("/games/types").catch((err) => {
    typesAsked = null; // a failed ask is asked again next time
    throw err;
  });
  return typesAsked;
}
export const post = (path, body, token) => api("POST", path, { body, token });
export const put = (path, body, token) => api("PUT", path, { body, token });
export const del = (path, token) => api("DELETE", path, { token });

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Submit a command for the caller's seat; a 202 (still queued) is polled until accepted or refused.
export async function submitCommand(gameId, command, token) {
  const commandId = crypto.randomUUID();
  const result = await post(`/games/${gameId}/commands`, { command_id: commandId, ...command }, token);
  if (result.status !== "queued") return result;
  for (let wait = 100; ; wait = Math.min(wait * 2, 2000)) {
    await sleep(wait);
    const polled = await get(`/games/${gameId}/commands/${commandId}`, token);
    if (polled.status !== "queued") return polled;
  }
}

// What the page says about an error: words and what to do, never the API's code, message or a route.
export const errorText = friendlyError;
