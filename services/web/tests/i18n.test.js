// The translation module on its own (node's test runner, a stand-in fetch and window): the browser's language
// picks the catalog, placeholders are filled with the locale's numbers, plurals follow Intl.PluralRules, a
// sentence without a translation reads in English and is recorded for the tests, and a switch persists.
import { test } from "node:test";
import assert from "node:assert/strict";

const stored = new Map();
globalThis.window = {
  __I18N_STRICT__: true,
  navigator: { languages: ["de-AT", "en"] },
  localStorage: { getItem: (k) => stored.get(k) ?? null, setItem: (k, v) => stored.set(k, String(v)) },
};
const FILES = {
  "/static/i18n/index.json": { locales: { en: "English", de: "Deutsch" }, domains: ["frame", "game"] },
  "/static/i18n/de/frame.json": {
    "Welcome, {name}": "Willkommen, {name}",
    "{n} game waiting for you": { one: "{n} Partie wartet auf dich", other: "{n} Partien warten auf dich" },
    "Your score is {points}.": "Du hast {points} Punkte.",
    "Read the {rules} first.": "Lies zuerst die {rules}.",
  },
  // a domain that is not there yet: its sentences read in English, nothing breaks
};
globalThis.fetch = async (path) => ({
  ok: path in FILES, status: path in FILES ? 200 : 404, json: async () => FILES[path],
});

const i18n = await import("../static/js/i18n.js");
await i18n.loadCatalogs();

test("the browser's languages choose the catalog (de-AT is served by de)", () => {
  assert.equal(i18n.locale(), "de");
  assert.deepEqual(i18n.locales(), { en: "English", de: "Deutsch" });
  assert.equal(i18n.pickLocale(["fr-FR", "de-CH"], ["en", "de"]), "de");
  assert.equal(i18n.pickLocale(["fr"], ["en", "de"]), null);
});

test("placeholders, the locale's numbers and plural forms", () => {
  assert.equal(i18n.t("Welcome, {name}", { name: "Anke" }), "Willkommen, Anke");
  assert.equal(i18n.t("Your score is {points}.", { points: 1234.5 }), "Du hast 1.234,5 Punkte.");
  assert.equal(i18n.tn("{n} game waiting for you", "{n} games waiting for you", 1), "1 Partie wartet auf dich");
  assert.equal(i18n.tn("{n} game waiting for you", "{n} games waiting for you", 3), "3 Partien warten auf dich");
  assert.equal(i18n.formatNumber(0.5, { style: "percent" }), "50\u00a0%"); // a no-break space, as German writes it
  assert.match(i18n.formatDate(Date.UTC(2026, 2, 12, 12), { dateStyle: "long", timeZone: "UTC" }), /12\. März 2026/);
});

test("a sentence with a link keeps the link where the translation puts it", () => {
  const link = { tag: "a" };
  assert.deepEqual(i18n.tx("Read the {rules} first.", { rules: link }), ["Lies zuerst die ", link, "."]);
  const strong = { tag: "strong" };
  assert.deepEqual(i18n.tnx("{n} game waiting for you", "{n} games waiting for you", 2, { n: strong }),
    [strong, " Partien warten auf dich"]);
});

test("a missing sentence reads in English and is recorded", () => {
  assert.equal(i18n.t("Nobody translated {this}", { this: "me" }), "Nobody translated me");
  assert.equal(i18n.tn("{n} apple", "{n} apples", 2), "2 apples");
  assert.deepEqual(window.__I18N_MISSING__, ["Nobody translated {this}", "{n} apple"]);
});

test("a switch persists and English needs no catalog", async () => {
  const told = [];
  const stop = i18n.onLocaleChange((code) => told.push(code));
  await i18n.setLocale("en");
  assert.equal(stored.get("taproom.locale"), "en");
  assert.equal(i18n.t("Welcome, {name}", { name: "Ann" }), "Welcome, Ann");
  assert.equal(i18n.tn("{n} game waiting for you", "{n} games waiting for you", 1), "1 game waiting for you");
  await i18n.setLocale("xx"); // not offered: English
  assert.equal(i18n.locale(), "en");
  await i18n.setLocale("de");
  assert.equal(i18n.t("Welcome, {name}", { name: "Ann" }), "Willkommen, Ann");
  stop();
  assert.deepEqual(told, ["en", "de"]);
});
