// Small pieces the Heaven & Ale board modules share: colours, words and the hexagonal tile drawing.
import { formatNumber, t } from "../js/i18n.js";

export const RES_COLOUR = { wood: "#8d5a2b", yeast: "#efe2b0", hops: "#6aa84f", water: "#3d85c6", barley: "#e0a92a" };
const RES_TEXT = { wood: "#fff", yeast: "#3b3020", hops: "#fff", water: "#fff", barley: "#3b3020" };
export const MONK_COLOUR = "#4a3b63";

export const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
export const fmt = (x) => formatNumber(Number.isInteger(x) ? x : Math.round(x * 10) / 10);

/** "hops-3" -> "hops tile, fertility 3"; "monk-2" -> "monk tile (type 2)". */
export function tileWords(name) {
  const [kind, n] = String(name).split("-");
  if (kind === "monk") return t("monk tile (type {n})", { n });
  const names = { wood: () => t("wood tile, fertility {n}", { n }), yeast: () => t("yeast tile, fertility {n}", { n }),
    hops: () => t("hops tile, fertility {n}", { n }), water: () => t("water tile, fertility {n}", { n }),
    barley: () => t("barley tile, fertility {n}", { n }) };
  return names[kind]?.() ?? `${kind}-${n}`;
}

/** A tile's price from the view's track (the engine's number): "shady 3 · sunny 6 ducats". */
export function priceWords(price) {
  return price ? t("shady {shady} · sunny {sunny} ducats", price) : "";
}

export function hexPoints(cx, cy, r) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = Math.PI / 180 * (60 * i - 30);
    pts.push(`${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`);
  }
  return pts.join(" ");
}

export function tileSvg(name, cx, cy, r) {
  const [kind, n] = name.split("-");
  const monk = kind === "monk";
  const fill = monk ? MONK_COLOUR : RES_COLOUR[kind];
  const ink = monk ? "#fff" : RES_TEXT[kind];
  return `<polygon points="${hexPoints(cx, cy, r)}" fill="${fill}" stroke="#0008" stroke-width="1"/>
    <text x="${cx}" y="${cy + r * 0.36}" text-anchor="middle" font-size="${r * (monk ? 0.8 : 1.05)}" font-weight="700" fill="${ink}">${monk ? `M${n}` : n}</text>`;
}

export function tileChip(name) {
  return `<svg width="30" height="30" viewBox="0 0 30 30" aria-hidden="true" style="vertical-align:middle">${tileSvg(name, 15, 15, 14)}</svg>`;
}
