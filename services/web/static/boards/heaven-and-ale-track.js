// The Heaven & Ale main track, in two shapes drawn by the same space-drawing code:
// * the ring (9 x 7 cells, the printed board's shape) with the starting area and barrels in its centre, where
//   the board is wide enough;
// * on a phone, a compact grid of 7 x 4 cells in track order (every space in view, no sideways scrolling),
//   with the starting spaces and barrels drawn apart (centreMarkup) at a size a finger can use.
// Every space, starting space and barrel goal says what it is and what it does now (tooltip.js, tip-keys.js).

import { tipAttr } from "./tip-keys.js";
import { SPACE_LABEL, esc, plural, priceWords, tileSvg, tileWords } from "./heaven-and-ale-draw.js";

const SPACE_FILL = { resource: "#f6efe0", monk: "#ece6f5", barrel: "#f3e3cf" };
const SLOT_TITLE = { first: "First player", resource: "+2 resource", ducats: "+2 ducats", brewmaster: "+1 brewmaster" };
const RING = { C: 88 };
const COMPACT = { cols: 7, w: 56, h: 66 };

// t = { desc, moves: {space: command index}, slotCmds: [[command, index]], pending, chosenSlot, recent,
//       colourOf(seat), nameOf(seat) }
export function trackMarkup(v, t, wide) {
  return wide ? ringSvg(v, t) : compactSvgs(v, t);
}

// 28 spaces round a 9 x 7 ring, clockwise from the starting area at the top left.
function ringCell(i) {
  if (i <= 8) return [i, 0];
  if (i <= 13) return [8, i - 8];
  if (i <= 22) return [8 - (i - 14), 6];
  return [0, 6 - (i - 22)];
}

function ringSvg(v, t) {
  const { C } = RING;
  const parts = [];
  v.track.forEach((sp, i) => {
    const [cx, cy] = ringCell(i);
    parts.push(space(v, t, i, cx * C, cy * C, C, C, false));
  });
  parts.push(`<rect x="${C + 4}" y="${C + 4}" width="${7 * C - 8}" height="${5 * C - 8}" rx="10" fill="#fbf8f1" stroke="#d9ccb3"/>`);
  parts.push(centre(v, t, { x0: C + 8, y0: C + 8, slotCols: 4, slotW: 146, barrelCols: 2, colW: 302 }).markup);
  return `<svg class="ha-track" viewBox="0 0 ${9 * C} ${7 * C}" role="group" aria-label="Main track" data-tip-group>${parts.join("")}</svg>`;
}

function compactSvgs(v, t) {
  const { cols, w, h } = COMPACT;
  const rows = Math.ceil(v.track.length / cols);
  const cells = v.track.map((sp, i) => space(v, t, i, (i % cols) * w, Math.floor(i / cols) * h, w, h, true));
  return `<svg class="ha-track compact" viewBox="0 0 ${cols * w} ${rows * h}" role="group" aria-label="Main track" data-tip-group>${cells.join("")}</svg>`;
}

// On a phone the starting area and the barrels are drawn apart from the compact track (under the player's
// garden, which matters more during a turn), at a size a finger can use.
export function centreMarkup(v, t) {
  const width = COMPACT.cols * COMPACT.w;
  const mid = centre(v, t, { x0: 4, y0: 4, slotCols: 2, slotW: width / 2 - 8, barrelCols: 1, colW: width - 8 });
  return `<svg class="ha-track compact" viewBox="0 0 ${width} ${mid.height}" role="group" aria-label="Starting area and barrels" data-tip-group>${mid.markup}</svg>`;
}

function spaceHint(v, t, i, target) {
  const sp = v.track[i];
  const d = t.desc.track.spaces[i];
  if (i === 0) return tipAttr("Space 0 · Starting area", "Each round begins here: take one of the four starting spaces (in the centre, or below the track on a phone).");
  const lines = [d.text];
  if (sp.tiles?.length) lines.push(`On offer: ${sp.tiles.map((tile) => `${tileWords(tile)} (${priceWords(sp.prices?.[tile])})`).join("; ")}`);
  else if (sp.kind === "resource" || sp.kind === "monk") lines.push("No tile left here.");
  if (sp.discs) lines.push(`${plural(sp.discs, "disc")} left here`);
  if (sp.kegs || sp.bales) lines.push(`Goods: ${[sp.kegs && plural(sp.kegs, "keg"), sp.bales && plural(sp.bales, "bale")].filter(Boolean).join(" and ")}`);
  if (v.carter_die?.space === i) lines.push(`The carter die (${v.carter_die.value}) is here.`);
  const here = v.boards.filter((b) => b.figure === i).map((b) => t.nameOf(b.seat));
  if (here.length) lines.push(`Here: ${here.join(", ")}`);
  if (target) lines.push("Highlighted: you can move your figure here.");
  return tipAttr(`Space ${i} · ${SPACE_LABEL[sp.kind]}${d.monk_cost ? ` (monk cost ${d.monk_cost})` : ""}`, ...lines);
}

// One track space at (x, y), w x h: its number and kind, the tiles and discs on it, goods, the carter die, figures.
function space(v, t, i, x, y, w, h, compact) {
  const sp = v.track[i];
  const target = i in t.moves && !t.pending;
  const current = v.current_space === i && v.turn !== null;
  const d = t.desc.track.spaces[i];
  const hint = spaceHint(v, t, i, target);
  if (i === 0) {
    return `<g data-space="0"${hint}><rect x="${x + 2}" y="${y + 2}" width="${w - 4}" height="${h - 4}" rx="6" fill="#fbf8f1" stroke="#8a7a60"/>
      <text x="${x + 5}" y="${y + 13}" font-size="${compact ? 10 : 11}" fill="#6b5a3e">0</text>
      <text x="${x + w / 2}" y="${y + h / 2 + 4}" text-anchor="middle" font-size="${compact ? 10 : 12}" font-weight="700">Start</text></g>`;
  }
  const fill = SPACE_FILL[sp.kind] || "#e9f1f7";
  const k = compact ? { r: 8, dx: 17, dy: 16, tx: 10, ty: 28, font: 7.5 } : { r: 12, dx: 26, dy: 24, tx: 18, ty: 38, font: 11 };
  const tiles = (sp.tiles || []).map((tile, n) => tileSvg(tile, x + k.tx + (n % 3) * k.dx, y + k.ty + Math.floor(n / 3) * k.dy, k.r)).join("");
  const figures = v.boards.filter((b) => b.figure === i).map((b) => b.seat);
  const label = compact ? (sp.kind === "monk" ? `monk ${d.monk_cost}` : { resource: "tiles", barrel: "barrel", ABC: "ABC" }[sp.kind] || sp.kind)
    : `${SPACE_LABEL[sp.kind]}${d.monk_cost ? ` ${d.monk_cost}` : ""}`;
  const attrs = target ? `class="target" data-cmd="${t.moves[i]}" data-kind="move" role="button" tabindex="0" aria-label="Move to space ${i}: ${esc(SPACE_LABEL[sp.kind])}"` : "";
  return `<g ${attrs} data-space="${i}"${hint}>
    <rect class="hit" x="${x + 2}" y="${y + 2}" width="${w - 4}" height="${h - 4}" rx="6" fill="${fill}" stroke="${current ? "#e0006a" : "#8a7a60"}" stroke-width="${current ? 3 : 1}"/>
    <text x="${x + 5}" y="${y + (compact ? 13 : 15)}" font-size="${compact ? 9 : 11}" fill="#6b5a3e">${i}</text>
    <text x="${x + w - 5}" y="${y + (compact ? 13 : 15)}" font-size="${k.font}" text-anchor="end" font-weight="600" fill="#3b2f1c">${esc(label)}</text>
    ${t.recent.spaces.has(i) && !current ? `<rect x="${x + 5}" y="${y + 5}" width="${w - 10}" height="${h - 10}" rx="5" fill="none" stroke="#2e86c1" stroke-width="2" stroke-dasharray="5 3"/>` : ""}
    ${tiles}${compact ? compactExtras(v, t, sp, i, x, y, w, h, figures) : ringExtras(v, t, sp, i, x, y, figures)}</g>`;
}

function ringExtras(v, t, sp, i, x, y, figures) {
  const discs = sp.discs ? `<circle cx="${x + 70}" cy="${y + 38}" r="11" fill="#7b3fa0" stroke="#fff"/><text x="${x + 70}" y="${y + 42}" text-anchor="middle" font-size="12" fill="#fff" font-weight="700">${sp.discs}</text>` : "";
  const goods = v.kegs_and_more && (sp.kegs || sp.bales) ? `<text x="${x + 5}" y="${y + 80}" font-size="11" fill="#5a3410">${sp.kegs ? `${sp.kegs} keg${sp.kegs > 1 ? "s" : ""}` : ""}${sp.kegs && sp.bales ? " · " : ""}${sp.bales ? `${sp.bales} bale${sp.bales > 1 ? "s" : ""}` : ""}</text>` : "";
  const die = v.carter_die && v.carter_die.space === i ? `<g><rect x="${x + 58}" y="${y + 54}" width="22" height="22" rx="4" fill="#fff" stroke="#222" stroke-width="1.5"/><text x="${x + 69}" y="${y + 70}" text-anchor="middle" font-size="14" font-weight="700">${v.carter_die.value}</text></g>` : "";
  const figs = figures.map((s, k) => pawn(x + 14 + k * 16, y + 70, t.colourOf(s))).join("");
  return `${discs}${goods}${die}${figs}`;
}

function compactExtras(v, t, sp, i, x, y, w, h, figures) {
  const base = y + h - 10;
  const figs = figures.map((s, k) => `<circle cx="${x + 9 + k * 11}" cy="${base}" r="5" fill="${t.colourOf(s)}" stroke="#000"/>`).join("");
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
function centre(v, t, L) {
  const { desc } = t;
  const out = [`<text x="${L.x0 + 4}" y="${L.y0 + 14}" font-size="13" font-weight="700">Starting area (space 0)</text>`];
  const slotH = 56, gap = 6;
  desc.track.starting_spaces.forEach((slot, k) => {
    const x = L.x0 + 4 + (k % L.slotCols) * (L.slotW + gap), y = L.y0 + 22 + Math.floor(k / L.slotCols) * (slotH + gap);
    out.push(startingSpace(v, t, slot, x, y, L.slotW, slotH));
  });
  const slotRows = Math.ceil(desc.track.starting_spaces.length / L.slotCols);
  const by = L.y0 + 22 + slotRows * (slotH + gap) + 18;
  out.push(`<text x="${L.x0 + 4}" y="${by}" font-size="13" font-weight="700">Barrel goals (large ${desc.barrels.large_vp} VP, small ${desc.barrels.small_vp} VP)</text>`);
  v.barrels.forEach((b, k) => {
    const x = L.x0 + 4 + (k % L.barrelCols) * L.colW, y = by + 8 + Math.floor(k / L.barrelCols) * 30;
    out.push(barrel(t, b, x, y, L.colW - 8));
  });
  const iy = by + 8 + Math.ceil(v.barrels.length / L.barrelCols) * 30 + 14;
  const info = [`Round ${v.round} of ${v.rounds} · face-down tiles: ${Object.entries(v.resource_piles_by_back).map(([back, n]) => `${n} (${back})`).join(" + ")}`,
    `Monk piles to come: ${v.monk_piles_left} · discs in reserve: ${v.disc_reserve}`,
    v.kegs_and_more ? `Kegs ${v.keg_reserve} and bales ${v.bale_reserve} in reserve` : ""].filter(Boolean);
  info.forEach((line, k) => out.push(`<text x="${L.x0 + 4}" y="${iy + k * 16}" font-size="12" fill="#444">${esc(line)}</text>`));
  return { markup: out.join(""), height: iy + info.length * 16 + 4 };
}

function startingSpace(v, t, slot, x, y, w, h) {
  const who = v.starting_spaces[slot.name];
  const cmds = t.slotCmds.filter(([c]) => c.slot === slot.name);
  let attrs = "";
  if (cmds.length && !t.pending) {
    attrs = cmds.length === 1 ? `class="target" data-cmd="${cmds[0][1]}"` : `class="target" data-pick-slot="${slot.name}"`;
    attrs += ` tabindex="0" role="button" data-kind="slot" aria-label="Starting space ${slot.name}: ${esc(slot.text)}"`;
  }
  const taken = who !== null && who !== undefined ? `Taken by ${t.nameOf(who)}.` : "Free.";
  const hint = tipAttr(`Starting space: ${SLOT_TITLE[slot.name] || slot.name}`, slot.text, taken,
    cmds.length ? (cmds.length > 1 ? "Highlighted: take it, then choose the colour." : "Highlighted: take it.") : "");
  const chosen = t.chosenSlot === slot.name;
  const room = Math.floor((w - 12) / 5.2); // characters of the 10-unit text that fit
  return `<g ${attrs} data-slot="${slot.name}"${hint}><rect class="hit" x="${x}" y="${y}" width="${w}" height="${h}" rx="6" fill="${chosen ? "#ffe9b3" : "#fff"}" stroke="#8a7a60"/>
    <text x="${x + 6}" y="${y + 16}" font-size="12" font-weight="700">${esc(SLOT_TITLE[slot.name] || slot.name)}</text>
    <text x="${x + 6}" y="${y + 31}" font-size="10" fill="#555">${esc(slot.text.length > room ? slot.text.slice(0, room - 1) + "…" : slot.text)}</text>
    ${who !== null && who !== undefined ? pawn(x + w - 16, y + h - 10, t.colourOf(who)) : ""}</g>`;
}

function barrel(t, b, x, y, w) {
  const owner = (s, big) => s === null || s === undefined
    ? `<circle cx="${x + (big ? 12 : 34)}" cy="${y + 12}" r="${big ? 9 : 7}" fill="none" stroke="#b58b4c" stroke-dasharray="2 2"/>`
    : `<circle cx="${x + (big ? 12 : 34)}" cy="${y + 12}" r="${big ? 9 : 7}" fill="${t.colourOf(s)}" stroke="#000"/>`;
  const holder = (s) => (s === null || s === undefined ? "still free" : `taken by ${t.nameOf(s)}`);
  const hint = tipAttr(`Barrel goal: ${b.text}`, `Large barrel (${t.desc.barrels.large_vp} VP): ${holder(b.large)}`,
    `Small barrel (${t.desc.barrels.small_vp} VP): ${holder(b.small)}`, "Claimed on a barrel space by whoever has reached the goal.");
  return `<g data-goal="${b.goal}"${hint}><rect x="${x}" y="${y}" width="${w}" height="26" fill="transparent"/>${owner(b.large, true)}${owner(b.small, false)}<text x="${x + 48}" y="${y + 16}" font-size="11.5">${esc(b.text)}</text></g>`;
}
