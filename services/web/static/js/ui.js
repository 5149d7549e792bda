// Small shared pieces: seat colours, durations, the document title.
import { useState } from "preact/hooks";
import { html } from "./html.js";

// Distinct on white and for common colour-vision deficiencies (Okabe–Ito).
export const SEAT_COLOURS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#7f7f00", "#000000"];
export const COLOUR_NAMES = ["blue", "vermilion", "green", "purple", "orange", "sky", "olive", "black"];

export const seatColour = (seat) => SEAT_COLOURS[seat % SEAT_COLOURS.length];

export function ago(seconds) {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.round(s / 60)} min`;
  if (s < 86400) return `${Math.round(s / 3600)} h`;
  return `${Math.round(s / 86400)} d`;
}

export const now = () => Date.now() / 1000;

export function until(ts) {
  const left = ts - now();
  return left <= 0 ? "overdue" : `in ${ago(left)}`;
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
    <button type="button" onClick=${copy} title=${`Copy ${label.toLowerCase()}`}>${copied ? "Copied" : "Copy"}</button>
  </div>`;
}

export const gameTitle = (types, id) => types?.find((t) => t.id === id)?.title || id;

// What a game is played for, as badges: "unrated", "reliability 90%+" (the lobby and the game page).
export function GameFlags({ meta }) {
  const unrated = meta.rated === false;
  const min = meta.min_reliability;
  if (!unrated && (min === undefined || min === null)) return null;
  return html`<span class="flags">${unrated ? html` <span class="badge unrated" title="changes nobody's rating"
      >unrated</span>` : null}${min !== undefined && min !== null ? html` <span class="badge"
      title="only players who finish their games take a seat">reliability ${min}%+</span>` : null}</span>`;
}
