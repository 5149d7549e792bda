// Temporary i18n shim (i18n-games), written to /work/helpers/i18n-spec.md until i18n-frame's machinery lands.
const KEY = "taproom.locale";
let current = "en";
let catalog = {};
let index = null;

const base = () => new URL("../i18n/", import.meta.url);

function pick() {
  const stored = localStorage.getItem(KEY);
  if (stored) return stored;
  const langs = navigator.languages || [navigator.language || "en"];
  return langs.map((l) => l.slice(0, 2)).find((l) => l === "de" || l === "en") || "en";
}

export const locale = () => current;

function fill(text, params = {}) {
  return text.replace(/\{(\w+)\}/g, (m, k) => {
    if (!(k in params)) return m;
    const v = params[k];
    return typeof v === "number" ? new Intl.NumberFormat(current).format(v) : String(v);
  });
}

function missing(msgid) {
  if (current === "en" || !window.__I18N_STRICT__) return;
  (window.__I18N_MISSING__ ||= []).includes(msgid) || window.__I18N_MISSING__.push(msgid);
}

export function t(msgid, params) {
  const entry = catalog[msgid];
  if (typeof entry === "string") return fill(entry, params);
  missing(msgid);
  return fill(msgid, params);
}

export function tn(singular, plural, n, params = {}) {
  const entry = catalog[singular];
  const all = { n, ...params };
  if (entry && typeof entry === "object") {
    const form = new Intl.PluralRules(current).select(n);
    return fill(entry[form] ?? entry.other, all);
  }
  missing(singular);
  return fill(n === 1 ? singular : plural, all);
}

export async function loadCatalogs() {
  current = pick();
  document.documentElement.lang = current;
  catalog = {};
  if (current === "en") return;
  index ||= await fetch(new URL("index.json", base())).then((r) => r.json());
  const parts = await Promise.all(index.domains.map((d) => fetch(new URL(`${current}/${d}.json`, base()))
    .then((r) => (r.ok ? r.json() : {})).catch(() => ({}))));
  catalog = Object.assign({}, ...parts);
}

export async function setLocale(code) {
  localStorage.setItem(KEY, code);
  await loadCatalogs();
}

export const formatNumber = (n) => new Intl.NumberFormat(current).format(n);
export const formatDate = (d, opts) => new Intl.DateTimeFormat(current, opts).format(d);
