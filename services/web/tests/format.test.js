import { test } from "node:test";
import assert from "node:assert/strict";
import { PROVISIONAL_GAMES, displayRating, isProvisional, ratingText, titleText } from "../static/js/format.js";

test("a newcomer starts at 1000 and a first loss never shows a negative number", () => {
  assert.equal(displayRating(0), 1000);
  assert.equal(displayRating(-3.2), 872);
  assert.equal(displayRating(-40), 0);
  assert.equal(ratingText(-3.2, 1), "872?");
});

test("a rating is provisional until enough rated games", () => {
  assert.equal(isProvisional(PROVISIONAL_GAMES - 1), true);
  assert.equal(isProvisional(PROVISIONAL_GAMES), false);
  assert.equal(isProvisional(undefined), true);
  assert.equal(ratingText(20.5, PROVISIONAL_GAMES), "1820");
  assert.equal(ratingText(null, 3), "–");
});

test("the tab title counts the games waiting", () => {
  assert.equal(titleText("Lobby", 2), "(2) Lobby — Taproom");
  assert.equal(titleText("Lobby", 0), "Lobby — Taproom");
});
