// The client's translations (issue 38). The English text is the key: `t("Start a game")` is that sentence in the
// reader's language, from the catalogs under /static/i18n/<locale>/<domain>.json (static/i18n/index.json lists
// the locales and the domains; a third language is one more folder and one line there). Plurals follow
// Intl.PluralRules, numbers and dates Intl's formats for the locale. One msgid is one whole sentence with
// {placeholders}: never a sentence glued from translated pieces (word order differs between languages).
//
// Call t() when rendering, not when a module loads (the catalogs arrive after the modules): a table of texts
// made at load time marks its entries with N_("…") (the English text, for the catalog check) and translates
// them where they are shown, t(TABLE[key]).

const STORE = "taproom.locale";
const SOURCE = "en"; // the language of the msgids
const BASE = "/static/i18n";

let current = SOURCE;
let index = { locales: { en: "English" }, domains: [] };
let entries = {}; // msgid → translation (a string, or {one, other, …} for tn) of the current locale
const listeners = new Set();

const hasWindow = typeof window !== "undefined";

function storage() {
  try {
    return hasWindow ? window.localStorage : null;
  } catch {
    return null; // storage blocked (a sandboxed frame): the choice lasts for the page
  }
}

// The best of the offered locales for a list of language tags (navigator.languages): "de-AT" → "de".
export function pickLocale(wanted, offered) {
  for (const tag of wanted || []) {
    const lower = String(tag).toLowerCase();
    const exact = offered.find((code) => code.toLowerCase() === lower);
    if (exact) return exact;
    const base = offered.find((code) => code.toLowerCase() === lower.split("-")[0]);
    if (base) return base;
  }
  return null;
}

function recordMissing(msgid) {
  if (!hasWindow || !window.__I18N_STRICT__ || current === SOURCE) return;
  const missing = (window.__I18N_MISSING__ ||= []);
  if (!missing.includes(msgid)) missing.push(msgid);
}

async function fetchJson(path) {
  const response = await fetch(path, { headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return response.json();
}

async function loadEntries(code) {
  if (code === SOURCE) return {};
  const parts = await Promise.all(index.domains.map((domain) =>
    fetchJson(`${BASE}/${code}/${domain}.json`).catch(() => ({})))); // a missing domain: its English shows
  return Object.assign({}, ...parts);
}

function applyLang() {
  if (typeof document !== "undefined") document.documentElement.lang = current;
}

// Once, before the first render: the locale list, the reader's locale (their choice on this device, else the
// browser's languages, else English) and its catalogs. A catalog that cannot be fetched leaves English.
export async function loadCatalogs() {
  try {
    index = await fetchJson(`${BASE}/index.json`);
  } catch {
    index = { locales: { en: "English" }, domains: [] };
  }
  const offered = Object.keys(index.locales);
  const stored = storage()?.getItem(STORE);
  const browser = hasWindow ? window.navigator?.languages || [window.navigator?.language] : [];
  current = (stored && offered.includes(stored) ? stored : null) || pickLocale(browser, offered) || SOURCE;
  try {
    entries = await loadEntries(current);
  } catch {
    entries = {};
  }
  applyLang();
}

export const locale = () => current;

// The locales offered, {code: name in its own language}, for the language switch.
export const locales = () => ({ ...index.locales });

// Switch language: kept on this device, the catalogs loaded, <html lang> set, then listeners told (the app
// renders again). Resolves once the new texts are in place.
export async function setLocale(code) {
  const offered = Object.keys(index.locales);
  const next = offered.includes(code) ? code : SOURCE;
  storage()?.setItem(STORE, next);
  if (next === current) return;
  let loaded;
  try {
    loaded = await loadEntries(next);
  } catch {
    loaded = {};
  }
  current = next;
  entries = loaded;
  applyLang();
  for (const listener of listeners) listener(current);
}

// Told after each switch of language; returns the function that stops telling.
export function onLocaleChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function formatNumber(n, opts) {
  return new Intl.NumberFormat(current, opts).format(n);
}

// A date (a Date, or milliseconds since the epoch) in the reader's locale; opts as Intl.DateTimeFormat's.
export function formatDate(d, opts = { dateStyle: "medium" }) {
  return new Intl.DateTimeFormat(current, opts).format(d instanceof Date ? d : new Date(d));
}

function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => {
    if (!Object.hasOwn(params, name)) return whole;
    const value = params[name];
    return typeof value === "number" ? formatNumber(value) : String(value ?? "");
  });
}

function lookup(msgid) {
  if (current === SOURCE) return null;
  const entry = Object.hasOwn(entries, msgid) ? entries[msgid] : null;
  if (entry === null || entry === "") recordMissing(msgid);
  return entry || null;
}

// The sentence `msgid` (English) in the reader's language, {placeholders} filled from params.
export function t(msgid, params) {
  const entry = lookup(msgid);
  return fill(typeof entry === "string" ? entry : msgid, params);
}

function pluralText(singular, plural, n) {
  const entry = lookup(singular);
  if (entry && typeof entry === "object") {
    return entry[new Intl.PluralRules(current).select(n)] ?? entry.other ?? plural;
  }
  return new Intl.PluralRules(SOURCE).select(n) === "one" ? singular : plural;
}

// A sentence with a count: the catalog entry under `singular` holds the locale's plural forms
// ({"one": …, "other": …}); `n` is also the placeholder {n} unless params says otherwise.
export function tn(singular, plural, n, params) {
  return fill(pluralText(singular, plural, n), { n, ...params });
}

// The translated text as parts: strings, and the values of the placeholders as given (a vnode stays a vnode).
function parts(text, params) {
  const out = [];
  let last = 0;
  for (const m of text.matchAll(/\{(\w+)\}/g)) {
    if (!Object.hasOwn(params, m[1])) continue;
    out.push(text.slice(last, m.index));
    const value = params[m[1]];
    out.push(typeof value === "number" ? formatNumber(value) : value);
    last = m.index + m[0].length;
  }
  out.push(text.slice(last));
  return out.filter((part) => part !== "" && part !== null && part !== undefined);
}

// A sentence with parts that are not text (a link, a <strong>): the translated sentence as an array of strings
// and the given values, in the translation's order, for a template to render: html`<p>${tx(msgid, {link})}</p>`.
export function tx(msgid, params = {}) {
  const entry = lookup(msgid);
  return parts(typeof entry === "string" ? entry : msgid, params);
}

// tn's sentence as tx's parts: tnx("{n} game played", "{n} games played", 3, { n: html`<strong>3</strong>` }).
export function tnx(singular, plural, n, params = {}) {
  return parts(pluralText(singular, plural, n), { n, ...params });
}

// Marks a text for translation where it is written (a table made at load time); t() translates it when shown.
export const N_ = (msgid) => msgid;
