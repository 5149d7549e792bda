// Small shared pieces: seat colours, durations, the document title.
import { useState } from "preact/hooks";
import { html } from "./html.js";
import { N_, locale, t } from "./i18n.js";

// Distinct on white and for common colour-vision deficiencies (Okabe–Ito).
export const SEAT_COLOURS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#7f7f00", "#000000"];
export const COLOUR_NAMES = [N_("blue"), N_("vermilion"), N_("green"), N_("purple"), N_("orange"), N_("sky"),
  N_("olive"), N_("black")]; // shown as t(COLOUR_NAMES[i])

export const seatColour = (seat) => SEAT_COLOURS[seat % SEAT_COLOURS.length];

// A short duration: "5s", "3 min", "2 h", "4 d" (in another language, Intl's short units: "3 Min.", "2 Std.").
export function ago(seconds) {
  const s = Math.max(0, Math.round(seconds));
  const [n, unit, short] = s < 60 ? [s, "second", "s"] : s < 3600 ? [Math.round(s / 60), "minute", " min"]
    : s < 86400 ? [Math.round(s / 3600), "hour", " h"] : [Math.round(s / 86400), "day", " d"];
  if (locale() === "en") return `${n}${short}`;
  return new Intl.NumberFormat(locale(), { style: "unit", unit, unitDisplay: "short" }).format(n);
}

export const now = () => Date.now() / 1000;

export function until(ts) {
  const left = ts - now();
  return left <= 0 ? t("overdue") : t("in {time}", { time: ago(left) });
}

export { setTitle } from "./waiting.js";

export function ErrorLine({ error }) {
  return error ? html`<p class="error" role="alert">${error}</p>` : null;
}

// A link to hand on (an invitation, a sign-in link): shown whole, selectable, with a Copy button.
export function CopyField({ label, value }) {
  const [copied, setCopied] = useState(false);
  async function copy(event) {
    const input = event.currentTarget.previousElementSibling;
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      input.select(); // no clipboard API here (a page not served over https): the old way
      document.execCommand?.("copy");
    }
    setCopied(true);
  }
  return html`<div class="copy-row">
    <input readonly aria-label=${label} value=${value} onFocus=${(e) => e.target.select()} />
    <button type="button" onClick=${copy} title=${t("Copy: {what}", { what: label })}>${copied ? t("Copied") : t("Copy")
    }</button>
  </div>`;
}

// A game's title in the reader's language (the server's English title is the msgid: "Die Tavernen im Tiefen Thal").
export function gameTitle(types, id) {
  const title = types?.find((g) => g.id === id)?.title;
  return title ? t(title) : id;
}

// "Ana, Ben and Cleo" as the reader's language lists names (Intl.ListFormat).
export function listText(items, type = "conjunction") {
  return new Intl.ListFormat(locale(), { style: "long", type }).format(items.map(String));
}

const STATUSES = { open: N_("open"), active: N_("running"), ended: N_("ended"), scored: N_("scored"),
  expired: N_("expired"), archived: N_("archived") };

// A game's status in words ("running"), any status the table lacks as it is.
export const statusText = (status) => (Object.hasOwn(STATUSES, status) ? t(STATUSES[status]) : status);
