// Errors in words: every code the API documents has a sentence, and no sentence shows a code or a route.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { PlainError, friendlyError, isTransient, plainDetail, retryDelay } from "../static/js/errors.js";

const DEVELOPER_WORDS = /\b[a-z]+_[a-z_]+\b|(^|\s|\()\/[a-z]+|\b(GET|POST|PUT|DELETE)\b/;

// The codes of the API's error table (services/adapters/api/errors.py), read from its source.
const source = readFileSync(new URL("../../adapters/api/errors.py", import.meta.url), "utf8");
const table = source.slice(source.indexOf("STATUS_BY_CODE"), source.indexOf("}", source.indexOf("STATUS_BY_CODE")));
const CODES = [...table.matchAll(/"([a-z_]+)": (\d{3})/g)].map((m) => ({ code: m[1], status: Number(m[2]) }));

test("the API's table of codes is found", () => {
  assert.ok(CODES.length > 30, `only ${CODES.length} codes read`);
});

test("every code reads as words, with no code, route or verb in them", () => {
  for (const { code, status } of CODES) {
    const text = friendlyError({ status, code, message: `refused (${code}) at POST /games/x/commands` });
    assert.doesNotMatch(text, DEVELOPER_WORDS, `${code}: ${text}`);
    assert.notEqual(text, friendlyError({ status: 0, code: "no-such-code" }), `${code} has no sentence of its own`);
  }
});

test("the newcomer's dead end of old is a way on", () => {
  const text = friendlyError({ status: 401, code: "unauthorized",
    message: "games with bots need a player token (POST /players)" });
  assert.match(text, /Pick a name/);
  assert.doesNotMatch(text, /POST|players\)|unauthorized/);
});

test("a refusal's own words are added only when they are plain", () => {
  assert.equal(friendlyError({ status: 422, code: "illegal_move", message: "the tile does not fit there." }),
    "That move is not allowed now. (The tile does not fit there)");
  assert.equal(friendlyError({ status: 422, code: "illegal_move", message: "amount not in legal_amounts" }),
    "That move is not allowed now.");
  assert.equal(plainDetail("see POST /games/{id}/commands"), null);
  assert.equal(plainDetail("Seat 2 is taken"), "Seat 2 is taken");
});

test("unknown codes and failures fall back to words", () => {
  assert.match(friendlyError({ status: 502, code: "bad_gateway" }), /server/);
  assert.match(friendlyError(new TypeError("x is undefined")), /Something went wrong/);
  assert.equal(friendlyError(new PlainError("Seat 2: whose handle?")), "Seat 2: whose handle?");
});

test("a failed load waits longer each time, up to a minute", () => {
  assert.deepEqual([0, 1, 2, 3, 4, 5, 6, 9].map(retryDelay), [2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000]);
});

test("only a busy server or a lost network is worth trying again by itself", () => {
  assert.equal(isTransient({ status: 0, code: "network_error" }), true);
  assert.equal(isTransient({ status: 503, code: "unavailable" }), true);
  assert.equal(isTransient({ status: 429, code: "rate_limited" }), true);
  assert.equal(isTransient({ status: 404, code: "game_not_found" }), false);
  assert.equal(isTransient({ status: 403, code: "not_your_seat" }), false);
});
