// The client's writes: each try of one write carries the same Idempotency-Key, and a 503 or a lost connection
// is tried again with it (a registration with the same client_key), so the server answers the first try's
// outcome instead of writing twice; answers that will not change are not tried again.
import { test, beforeEach } from "node:test";
import assert from "node:assert/strict";

globalThis.window = {};
const store = new Map();
globalThis.localStorage = {
  getItem: (k) => (store.has(k) ? store.get(k) : null),
  setItem: (k, v) => store.set(k, String(v)),
  removeItem: (k) => store.delete(k),
};
const { api, post, put, del, get, retrying, WRITE_TRIES } = await import("../static/js/api.js");

let sent;
let answers;
const waits = [];
retrying.sleep = async (ms) => { waits.push(ms); };

function answer(status, body, headers = {}) {
  return { status, ok: status >= 200 && status < 300,
    headers: { get: (h) => ({ "content-type": "application/json", ...headers })[h.toLowerCase()] ?? null },
    json: async () => body, text: async () => JSON.stringify(body) };
}

globalThis.fetch = async (path, init) => {
  sent.push({ path, method: init.method, headers: init.headers, body: init.body && JSON.parse(init.body) });
  const next = answers.shift();
  if (next === "offline") throw new TypeError("Failed to fetch");
  return next;
};

beforeEach(() => {
  sent = [];
  waits.length = 0;
});

test("a chat message refused with 503 is sent again with the same key and body", async () => {
  answers = [answer(503, { code: "write_not_durable", message: "no replica" }, { "retry-after": "1" }),
    "offline", answer(201, { id: "1-0", text: "hello" })];
  const said = await post("/games/g1/chat", { text: "hello" }, "tok");
  assert.equal(said.id, "1-0");
  assert.equal(sent.length, 3);
  const keys = sent.map((s) => s.headers["Idempotency-Key"]);
  assert.ok(keys[0] && keys[0].length >= 16 && /^[A-Za-z0-9_-]+$/.test(keys[0]), keys[0]);
  assert.deepEqual(new Set(keys).size, 1, "every try carries the first try's key");
  assert.deepEqual(sent.map((s) => s.body), [{ text: "hello" }, { text: "hello" }, { text: "hello" }]);
  assert.deepEqual(waits, [1000, 1000], "Retry-After, then the back-off");
});

test("two writes have two keys", async () => {
  answers = [answer(201, {}), answer(200, {})];
  await post("/games/g1/invitations", { handle: "bob" }, "tok");
  await put("/players/me/notification-settings", { email: "off" }, "tok");
  assert.notEqual(sent[0].headers["Idempotency-Key"], sent[1].headers["Idempotency-Key"]);
});

test("a registration sends a client key, the same one on its retry", async () => {
  answers = ["offline", answer(201, { player_id: "p", token: "t" })];
  await post("/players", { name: "Ann" });
  assert.equal(sent.length, 2);
  assert.ok(sent[0].body.client_key && sent[0].body.client_key.length >= 16);
  assert.equal(sent[0].body.client_key, sent[1].body.client_key);
  assert.equal(sent[0].body.name, "Ann");
});

test("a write gives up after its tries and says why", async () => {
  answers = Array.from({ length: WRITE_TRIES }, () => answer(503, { code: "write_not_durable", message: "x" }));
  await assert.rejects(del("/players/me/blocks/p2", "tok"), (err) => err.code === "write_not_durable");
  assert.equal(sent.length, WRITE_TRIES);
  assert.equal(new Set(sent.map((s) => s.headers["Idempotency-Key"])).size, 1);
});

test("answers that will not change are not tried again", async () => {
  answers = [answer(409, { code: "too_many_blocks", message: "x" })];
  await assert.rejects(post("/players/me/blocks", { player_id: "p" }, "tok"), (err) => err.code === "too_many_blocks");
  assert.equal(sent.length, 1);
});

test("reads carry no key; taking a seat is not sent again by itself", async () => {
  answers = [answer(200, {}), answer(503, { code: "write_not_durable", message: "x" })];
  await get("/games/g1", "tok");
  assert.equal(sent[0].headers["Idempotency-Key"], undefined);
  await assert.rejects(api("POST", "/games/g1/join", { body: {}, token: "tok" }));
  assert.equal(sent.length, 2);
});

test("a game's creation and a recovery are sent again under their one key", async () => {
  const refused = () => answer(503, { code: "write_not_durable", message: "x" });
  answers = [refused(), answer(201, { game_id: "g1" }), refused(), answer(200, { token: "t" })];
  assert.equal((await post("/games", { game: "counter" }, "tok")).game_id, "g1");
  assert.equal((await post("/players/recover", { handle: "ann", recovery_code: "c" })).token, "t");
  assert.equal(sent.length, 4);
  assert.equal(sent[0].headers["Idempotency-Key"], sent[1].headers["Idempotency-Key"]);
  assert.equal(sent[2].headers["Idempotency-Key"], sent[3].headers["Idempotency-Key"]);
  assert.notEqual(sent[0].headers["Idempotency-Key"], sent[2].headers["Idempotency-Key"]);
});
