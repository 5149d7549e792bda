// Small shared pieces: seat colours, durations, the document title.
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

export function setTitle(text, turns = 0) {
  document.title = `${turns ? `(${turns}) ` : ""}${text} — Taproom`;
}

export function ErrorLine({ error }) {
  return error ? html`<p class="error" role="alert">${error}</p>` : null;
}

export const gameTitle = (types, id) => types?.find((t) => t.id === id)?.title || id;
