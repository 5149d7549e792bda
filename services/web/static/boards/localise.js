// A board's description in the page's language: the engine writes its words (card names, tile labels, goal
// texts) in English, and each is a catalog entry of the game's domain (static/i18n/<locale>/<game>.json).
import { t } from "../js/i18n.js";

/** A deep copy of ``value`` with every string (or list of strings) under one of ``keys`` passed through t(). */
export function localise(value, keys) {
  if (Array.isArray(value)) return value.map((v) => localise(v, keys));
  if (!value || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => {
    if (keys.includes(k) && typeof v === "string") return [k, t(v)];
    if (keys.includes(k) && Array.isArray(v) && v.every((x) => typeof x === "string")) return [k, v.map((x) => t(x))];
    return [k, localise(v, keys)];
  }));
}
