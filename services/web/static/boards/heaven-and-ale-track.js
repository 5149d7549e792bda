// The Heaven & Ale main track, in two shapes drawn by the same space-drawing code:
// * the ring (9 x 7 cells, the printed board's shape) with the starting area and barrels in its centre, where
//   the board is wide enough;
// * on a phone, a compact grid of 7 x 4 cells in track order (every space in view, no sideways scrolling),
//   with the starting spaces and barrels drawn apart (centreMarkup) at a size a finger can use.
// Every space, starting space and barrel goal says what it is and what it does now (tooltip.js, tip-keys.js).

import { tipAttr } from "./tip-keys.js";
import { esc, priceWords, tileSvg, tileWords } from "./heaven-and-ale-draw.js";
import { bales, kegs, slotTitle, spaceLabel } from "./heaven-and-ale-words.js";
import { t, tn } from "../js/i18n.js";

const SPACE_FILL = { resource: "#f6efe0", monk: "#ece6f5", barrel: "#f3e3cf" };
const RING = { C: 88 };
const COMPACT = { cols: 7, w: 56, h: 66 };

// tk = { desc, moves: {space: command index}, slotCmds: [[command, index]], pending, chosenSlot, recent,
//       colourOf(seat), nameOf(seat) }
export function trackMarkup(v, tk, wide) {
  return wide ? ringSvg(v, tk) : compactSvgs(v, tk);
}

// 28 spaces round a 9 x 7 ring, clockwise from the starting area at the top left.
function ringCell(i) {
  if (i <= 8) return [i, 0];
  if (i <= 13) return [8, i - 8];
  if (i <= 22) return [8 - (i - 14), 6];
  return [0, 6 - (i - 22)];
}

function ringSvg(v, tk) {
  const { C } = RING;
  const parts = [];
  v.track.forEach((sp, i) => {
    const [cx, cy] = ringCell(i);
    parts.push(space(v, tk, i, cx * C, cy * C, C, C, false));
  });
  parts.push(`<rect x="${C + 4}" y="${C + 4}" width="${7 * C - 8}" height="${5 * C - 8}" rx="10" fill="#fbf8f1" stroke="#d9ccb3"/>`);
  parts.push(centre(v, tk, { x0: C + 8, y0: C + 8, slotCols: 4, slotW: 146, barrelCols: 2, colW: 302 }).markup);
  return `<svg class="ha-track" viewBox="0 0 ${9 * C} ${7 * C}" role="group" aria-label="${esc(t("Main track"))}" data-tip-group>${parts.join("")}</svg>`;
}

function compactSvgs(v, tk) {
  const { cols, w, h } = COMPACT;
  const rows = Math.ceil(v.track.length / cols);
  const cells = v.track.map((sp, i) => space(v, tk, i, (i % cols) * w, Math.floor(i / cols) * h, w, h, true));
  return `<svg class="ha-track compact" viewBox="0 0 ${cols * w} ${rows * h}" role="group" aria-label="${esc(t("Main track"))}" data-tip-group>${cells.join("")}</svg>`;
}

// On a phone the starting area and the barrels are drawn apart from the compact track (under the player's
// garden, which matters more during a turn), at a size a finger can use.
export function centreMarkup(v, tk) {
  const width = COMPACT.cols * COMPACT.w;
  const mid = centre(v, tk, { x0: 4, y0: 4, slotCols: 2, slotW: width / 2 - 8, barrelCols: 1, colW: width - 8 });
  return `<svg class="ha-track compact" viewBox="0 0 ${width} ${mid.height}" role="group" aria-label="${esc(t("Starting area and barrels"))}" data-tip-group>${mid.markup}</svg>`;
}

function spaceHint(v, tk, i, target) {
  const sp = v.track[i];
  const d = tk.desc.track.spaces[i];
  if (i === 0) {
    return tipAttr(t("Space 0 · Starting area"),
      t("Each round begins here: take one of the four starting spaces (in the centre, or below the track on a phone)."));
  }
  const lines = [d.text];
  if (sp.tiles?.length) {
    const offer = sp.tiles.map((tile) => `${tileWords(tile)} (${priceWords(sp.prices?.[tile])})`).join("; ");
    lines.push(t("On offer: {tiles}", { tiles: offer }));
  } else if (sp.kind === "resource" || sp.kind === "monk") lines.push(t("No tile left here."));
  if (sp.discs) lines.push(tn("One disc left here", "{n} discs left here", sp.discs));
  if (sp.kegs || sp.bales) {
    const goods = [sp.kegs && kegs(sp.kegs), sp.bales && bales(sp.bales)].filter(Boolean);
    lines.push(goods.length === 2 ? t("Goods: {kegs} and {bales}", { kegs: goods[0], bales: goods[1] }) : t("Goods: {what}", { what: goods[0] }));
  }
  if (v.carter_die?.space === i) lines.push(t("The carter die ({value}) is here.", { value: v.carter_die.value }));
  const here = v.boards.filter((b) => b.figure === i).map((b) => tk.nameOf(b.seat));
  if (here.length) lines.push(t("Here: {names}", { names: here.join(", ") }));
  if (target) lines.push(t("Highlighted: you can move your figure here."));
  const q = { n: i, kind: spaceLabel(sp.kind), cost: d.monk_cost };
  return tipAttr(d.monk_cost ? t("Space {n} · {kind} (monk cost {cost})", q) : t("Space {n} · {kind}", q), ...lines);
}

// One track space at (x, y), w x h: its number and kind, the tiles and discs on it, goods, the carter die, figures.
function space(v, tk, i, x, y, w, h, compact) {
  const sp = v.track[i];
  const target = i in tk.moves && !tk.pending;
  const current = v.current_space === i && v.turn !== null;
  const d = tk.desc.track.spaces[i];
  const hint = spaceHint(v, tk, i, target);
  if (i === 0) {
    return `<g data-space="0"${hint}><rect x="${x + 2}" y="${y + 2}" width="${w - 4}" height="${h - 4}" rx="6" fill="#fbf8f1" stroke="#8a7a60"/>
      <text x="${x + 5}" y="${y + 13}" font-size="${compact ? 10 : 11}" fill="#6b5a3e">0</text>
      <text x="${x + w / 2}" y="${y + h / 2 + 4}" text-anchor="middle" font-size="${compact ? 10 : 12}" font-weight="700">${esc(t("Start"))}</text></g>`;
  }
  const fill = SPACE_FILL[sp.kind] || "#e9f1f7";
  const k = compact ? { r: 8, dx: 17, dy: 16, tx: 10, ty: 28, font: 7.5 } : { r: 12, dx: 26, dy: 24, tx: 18, ty: 38, font: 11 };
  const tiles = (sp.tiles || []).map((tile, n) => tileSvg(tile, x + k.tx + (n % 3) * k.dx, y + k.ty + Math.floor(n / 3) * k.dy, k.r)).join("");
  const figures = v.boards.filter((b) => b.figure === i).map((b) => b.seat);
  const short = { resource: () => t("tiles"), barrel: () => t("barrel"), ABC: () => "ABC" };
  const label = compact ? (sp.kind === "monk" ? t("monk {n}", { n: d.monk_cost }) : short[sp.kind]?.() || sp.kind)
    : `${spaceLabel(sp.kind)}${d.monk_cost ? ` ${d.monk_cost}` : ""}`;
  const move = t("Move to space {n}: {kind}", { n: i, kind: spaceLabel(sp.kind) });
  const attrs = target ? `class="target" data-cmd="${tk.moves[i]}" data-kind="move" role="button" tabindex="0" aria-label="${esc(move)}"` : "";
  return `<g ${attrs} data-space="${i}"${hint}>
    <rect class="hit" x="${x + 2}" y="${y + 2}" width="${w - 4}" height="${h - 4}" rx="6" fill="${fill}" stroke="${current ? "#e0006a" : "#8a7a60"}" stroke-width="${current ? 3 : 1}"/>
    <text x="${x + 5}" y="${y + (compact ? 13 : 15)}" font-size="${compact ? 9 : 11}" fill="#6b5a3e">${i}</text>
    <text x="${x + w - 5}" y="${y + (compact ? 13 : 15)}" font-size="${k.font}" text-anchor="end" font-weight="600" fill="#3b2f1c">${esc(label)}</text>
    ${tk.recent.spaces.has(i) && !current ? `<rect x="${x + 5}" y="${y + 5}" width="${w - 10}" height="${h - 10}" rx="5" fill="none" stroke="#2e86c1" stroke-width="2" stroke-dasharray="5 3"/>` : ""}
    ${tiles}${compact ? compactExtras(v, tk, sp, i, x, y, w, h, figures) : ringExtras(v, tk, sp, i, x, y, figures)}</g>`;
}

function ringExtras(v, tk, sp, i, x, y, figures) {
  const discs = sp.discs ? `<circle cx="${x + 70}" cy="${y + 38}" r="11" fill="#7b3fa0" stroke="#fff"/><text x="${x + 70}" y="${y + 42}" text-anchor="middle" font-size="12" fill="#fff" font-weight="700">${sp.discs}</text>` : "";
  const goods = v.kegs_and_more && (sp.kegs || sp.bales) ? `<text x="${x + 5}" y="${y + 80}" font-size="11" fill="#5a3410">${esc([sp.kegs && kegs(sp.kegs), sp.bales && bales(sp.bales)].filter(Boolean).join(" · "))}</text>` : "";
  const die = v.carter_die && v.carter_die.space === i ? `<g><rect x="${x + 58}" y="${y + 54}" width="22" height="22" rx="4" fill="#fff" stroke="#222" stroke-width="1.5"/><text x="${x + 69}" y="${y + 70}" text-anchor="middle" font-size="14" font-weight="700">${v.carter_die.value}</text></g>` : "";
  const figs = figures.map((s, k) => pawn(x + 14 + k * 16, y + 70, tk.colourOf(s))).join("");
  return `${discs}${goods}${die}${figs}`;
}

function compactExtras(v, tk, sp, i, x, y, w, h, figures) {
  const base = y + h - 10;
  const figs = figures.map((s, k) => `<circle cx="${x + 9 + k * 11}" cy="${base}" r="5" fill="${tk.colourOf(s)}" stroke="#000"/>`).join("");
  const discs = sp.discs ? `<circle cx="${x + w - 11}" cy="${base}" r="7" fill="#7b3fa0" stroke="#fff"/><text x="${x + w - 11}" y="${base + 3.5}" text-anchor="middle" font-size="9.5" fill="#fff" font-weight="700">${sp.discs}</text>` : "";
  const goods = v.kegs_and_more && (sp.kegs || sp.bales) ? `<text x="${x + w - 20}" y="${base + 3.5}" font-size="8.5" text-anchor="end" fill="#5a3410">${sp.kegs ? `${sp.kegs}k` : ""}${sp.bales ? `${sp.bales}b` : ""}</text>` : "";
  const die = v.carter_die && v.carter_die.space === i ? `<g><rect x="${x + w - 20}" y="${y + 17}" width="15" height="15" rx="3" fill="#fff" stroke="#222"/><text x="${x + w - 12.5}" y="${y + 28.5}" text-anchor="middle" font-size="10.5" font-weight="700">${v.carter_die.value}</text></g>` : "";
  return `${figs}${discs}${goods}${die}`;
}

function pawn(x, y, colour) {
  return `<g><circle cx="${x}" cy="${y - 10}" r="5.5" fill="${colour}" stroke="#000" stroke-width="1"/><path d="M${x - 7} ${y + 6} Q${x} ${y - 12} ${x + 7} ${y + 6} Z" fill="${colour}" stroke="#000" stroke-width="1"/></g>`;
}

// The starting area's four starting spaces, the barrel goals and the supply, from (x0, y0): returns its
// markup and the height it took.
function centre(v, tk, L) {
  const { desc } = tk;
  const out = [`<text x="${L.x0 + 4}" y="${L.y0 + 14}" font-size="13" font-weight="700">${esc(t("Starting area (space 0)"))}</text>`];
  const slotH = 56, gap = 6;
  desc.track.starting_spaces.forEach((slot, k) => {
    const x = L.x0 + 4 + (k % L.slotCols) * (L.slotW + gap), y = L.y0 + 22 + Math.floor(k / L.slotCols) * (slotH + gap);
    out.push(startingSpace(v, tk, slot, x, y, L.slotW, slotH));
  });
  const slotRows = Math.ceil(desc.track.starting_spaces.length / L.slotCols);
  const by = L.y0 + 22 + slotRows * (slotH + gap) + 18;
  out.push(`<text x="${L.x0 + 4}" y="${by}" font-size="13" font-weight="700">${esc(t("Barrel goals (large {large} VP, small {small} VP)",
    { large: desc.barrels.large_vp, small: desc.barrels.small_vp }))}</text>`);
  v.barrels.forEach((b, k) => {
    const x = L.x0 + 4 + (k % L.barrelCols) * L.colW, y = by + 8 + Math.floor(k / L.barrelCols) * 30;
    out.push(barrel(tk, b, x, y, L.colW - 8));
  });
  const iy = by + 8 + Math.ceil(v.barrels.length / L.barrelCols) * 30 + 14;
  const piles = Object.entries(v.resource_piles_by_back).map(([back, n]) => `${n} (${back})`).join(" + ");
  const info = [t("Round {round} of {rounds} · face-down tiles: {piles}", { round: v.round, rounds: v.rounds, piles }),
    t("Monk piles to come: {monks} · discs in reserve: {discs}", { monks: v.monk_piles_left, discs: v.disc_reserve }),
    v.kegs_and_more ? t("Kegs {kegs} and bales {bales} in reserve", { kegs: v.keg_reserve, bales: v.bale_reserve }) : ""]
    .filter(Boolean);
  info.forEach((line, k) => out.push(`<text x="${L.x0 + 4}" y="${iy + k * 16}" font-size="12" fill="#444">${esc(line)}</text>`));
  return { markup: out.join(""), height: iy + info.length * 16 + 4 };
}

function startingSpace(v, tk, slot, x, y, w, h) {
  const who = v.starting_spaces[slot.name];
  const cmds = tk.slotCmds.filter(([c]) => c.slot === slot.name);
  let attrs = "";
  if (cmds.length && !tk.pending) {
    attrs = cmds.length === 1 ? `class="target" data-cmd="${cmds[0][1]}"` : `class="target" data-pick-slot="${slot.name}"`;
    const label = t("Starting space {name}: {text}", { name: slotTitle(slot.name), text: slot.text });
    attrs += ` tabindex="0" role="button" data-kind="slot" aria-label="${esc(label)}"`;
  }
  const taken = who !== null && who !== undefined ? t("Taken by {name}.", { name: tk.nameOf(who) }) : t("Free.");
  const hint = tipAttr(t("Starting space: {name}", { name: slotTitle(slot.name) }), slot.text, taken,
    cmds.length ? (cmds.length > 1 ? t("Highlighted: take it, then choose the colour.") : t("Highlighted: take it.")) : "");
  const chosen = tk.chosenSlot === slot.name;
  const room = Math.floor((w - 12) / 5.2); // characters of the 10-unit text that fit
  return `<g ${attrs} data-slot="${slot.name}"${hint}><rect class="hit" x="${x}" y="${y}" width="${w}" height="${h}" rx="6" fill="${chosen ? "#ffe9b3" : "#fff"}" stroke="#8a7a60"/>
    <text x="${x + 6}" y="${y + 16}" font-size="12" font-weight="700">${esc(slotTitle(slot.name))}</text>
    <text x="${x + 6}" y="${y + 31}" font-size="10" fill="#555">${esc(slot.text.length > room ? slot.text.slice(0, room - 1) + "…" : slot.text)}</text>
    ${who !== null && who !== undefined ? pawn(x + w - 16, y + h - 10, tk.colourOf(who)) : ""}</g>`;
}

function barrel(tk, b, x, y, w) {
  const owner = (s, big) => s === null || s === undefined
    ? `<circle cx="${x + (big ? 12 : 34)}" cy="${y + 12}" r="${big ? 9 : 7}" fill="none" stroke="#b58b4c" stroke-dasharray="2 2"/>`
    : `<circle cx="${x + (big ? 12 : 34)}" cy="${y + 12}" r="${big ? 9 : 7}" fill="${tk.colourOf(s)}" stroke="#000"/>`;
  const free = (s) => s === null || s === undefined;
  const text = t(b.text);
  const q = { large: tk.desc.barrels.large_vp, small: tk.desc.barrels.small_vp };
  const hint = tipAttr(t("Barrel goal: {goal}", { goal: text }),
    free(b.large) ? t("Large barrel ({large} VP): still free", q) : t("Large barrel ({large} VP): taken by {name}", { ...q, name: tk.nameOf(b.large) }),
    free(b.small) ? t("Small barrel ({small} VP): still free", q) : t("Small barrel ({small} VP): taken by {name}", { ...q, name: tk.nameOf(b.small) }),
    t("Claimed on a barrel space by whoever has reached the goal."));
  return `<g data-goal="${b.goal}"${hint}><rect x="${x}" y="${y}" width="${w}" height="26" fill="transparent"/>${owner(b.large, true)}${owner(b.small, false)}<text x="${x + 48}" y="${y + 16}" font-size="11.5">${esc(text)}</text></g>`;
}
