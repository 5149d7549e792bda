// The Carcassonne board: tiles drawn from the engine's description, figures from the view,
// and every move offered from the legal commands (no rule is re-implemented here).
// Contract: mount(root, ctx) -> { update(state), destroy() } (see boards/registry.js).

import { COLOURS, anchor, drawTile, el, tileSvg, turn } from "./carcassonne-tiles.js";
import { attachTips } from "./tooltip.js";
import { panZoom } from "./carcassonne-viewport.js";
import { injectStyle } from "./carcassonne-style.js";
import { figureShape, flockBadge, miniFigure } from "./carcassonne-figures.js";
import { ROLE, completionWords, eventWords, featureAt, figureName, kindOfFeature, kindName, placeWords, roleName, spotWords,
  tileWords } from "./carcassonne-words.js";
import { t, tn } from "../js/i18n.js";
import { seatName } from "../js/words.js";

const CELL = 100;
const FALLBACK_COLOURS = ["#d23c3c", "#2f6fd0", "#e3b823", "#2f9e4a", "#222222", "#9b59b6"];
const FIGURE_ORDER = ["follower", "shepherd", "abbot"];

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const child of children.flat()) if (child !== null && child !== undefined) node.append(child);
  return node;
}

/** The game's own view, whether the frame hands over the read model ({..., board: view}) or the view. */
function gameView(view) {
  if (view && view.board && !Array.isArray(view.board) && typeof view.board === "object") return view.board;
  return view || null;
}

const payloadOf = (e) => (e && e.payload ? { type: e.type, ...e.payload } : e);
const cellKey = (x, y) => `${x},${y}`;
const capital = (text) => (text ? text[0].toUpperCase() + text.slice(1) : text);
const SPOT_RADIUS = 11; // a figure spot's circle, in tile units (a tile is 100)
const TOUCH_TARGET = 48; // CSS px: above WCAG 2.5.5's 44 x 44, with room for a drawn outline
const coarse = typeof matchMedia === "function" && matchMedia("(pointer: coarse)").matches;
const sum = (xs) => xs.reduce((a, b) => a + b, 0);


/** The frame's move log asks the board for words (see js/words.js); null falls back to the generic text. */
export function describe(event, { seats } = {}) {
  const nameOf = (seat) => seatName(seats, seat);
  return eventWords(payloadOf(event), nameOf, knownTiles);
}

// The tiles' names come with the description: the frame words the log again once a board has loaded it.
let knownTiles = null;
let wordsLearned = () => {};
export const wordsReady = new Promise((resolve) => { wordsLearned = resolve; });

// The description never changes while the page lives (the server also sends ETag and max-age).
let descriptionPromise = null;
function loadDescription(ctx) {
  if (!descriptionPromise) {
    descriptionPromise = Promise.resolve(ctx.api.description()).then((d) => {
      if (!d || !d.tiles) throw new Error("no tile description");
      knownTiles = d.tiles;
      wordsLearned();
      return d;
    });
    descriptionPromise.catch(() => { descriptionPromise = null; });
  }
  return descriptionPromise;
}

export function mount(root, ctx) {
  injectStyle();
  const mySeat = ctx.seat ?? null;
  const seatInfo = (seat) => (ctx.seatInfo || []).find((s) => s.seat === seat) || {};
  const colourOf = (seat) => seatInfo(seat).colour || FALLBACK_COLOURS[seat % FALLBACK_COLOURS.length];
  const nameOf = (seat) => seatInfo(seat).name || t("Seat {n}", { n: seat + 1 });

  let desc = null;
  let state = null;
  let view = null;
  let prevView = null;
  let destroyed = false;
  let busy = false;
  let error = "";
  let sel = null; // {x, y, rotation} of the chosen placement
  let panelRotation = null;
  let figureKind = "follower";
  let userMoved = false;
  let fittedFor = null; // "board", or the new tile whose figure spots the view was zoomed onto

  // -- skeleton ------------------------------------------------------------------------
  root.innerHTML = "";
  root.classList.add("carc");
  const svg = el("svg", { class: "carc-svg", "data-testid": "carc-board" });
  const world = el("g", { class: "world" });
  const layers = {};
  for (const name of ["tiles", "marks", "targets", "preview", "figures", "hotspots", "effects"]) {
    layers[name] = el("g", { class: `layer-${name}` });
    world.appendChild(layers[name]);
  }
  svg.appendChild(world);
  const zoom = h("div", { class: "carc-zoom" },
    h("button", { type: "button", title: t("Zoom in"), "data-action": "zoom-in", onclick: () => zoomBy(1.25) }, "+"),
    h("button", { type: "button", title: t("Zoom out"), "data-action": "zoom-out", onclick: () => zoomBy(0.8) }, "−"),
    h("button", { type: "button", title: t("Show the whole board"), "data-action": "fit", onclick: () => { userMoved = false; fit(); } }, "⤢"));
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", t("Carcassonne board"));
  const spoken = h("div", { class: "carc-sr", "data-testid": "carc-described" });
  const boardWrap = h("div", { class: "carc-boardwrap" }, svg, zoom, spoken);
  const tips = attachTips(boardWrap);
  const side = h("aside", { class: "carc-side" });
  root.append(boardWrap, side);
  const tileNodes = new Map(); // "x,y" -> {g, tile, rotation}

  // -- pan and zoom ------------------------------------------------------------------------
  const viewport = panZoom(svg, world, { coarse, onUserMove: () => { userMoved = true; } });
  const zoomBy = viewport.zoomBy;
  // What the board shows by itself (until the player pans or zooms): the whole table and every candidate
  // square; on a touch screen never so small that a square is under TOUCH_TARGET px (then centred on the
  // squares). For the figure step it zooms onto the new tile, so each spot is a finger-sized target.
  function fit() {
    if (!view) return;
    if (hasSpots()) return focusNewTile();
    const cells = view.board.map((c) => [c.x, c.y]);
    const squares = [...layers.targets.querySelectorAll("[data-x]")].map((c) => [+c.dataset.x, +c.dataset.y]);
    cells.push(...squares);
    if (!cells.length) return;
    const box = cellBox(cells);
    const { w, h: hgt } = viewport.visibleArea();
    const k = Math.min(1.6, Math.max(0.12, Math.min((w - 20) / box.w, (hgt - 20) / box.h)));
    const least = coarse && squares.length ? TOUCH_TARGET / (CELL - 8) : 0;
    viewport.show(k < least ? cellBox(squares) : box, Math.max(k, least));
  }
  const hasSpots = () => !!view.last_placed && figureChoices().size > 0;
  function focusNewTile() {
    const { w, h: hgt } = viewport.visibleArea();
    const least = (coarse ? TOUCH_TARGET : 28) / (2 * SPOT_RADIUS);
    // a phone shows the new tile and a little around it; a laptop keeps its neighbours in view
    const k = Math.max(least, Math.min(w, hgt) / (CELL * (coarse ? 1.5 : 3)));
    viewport.show(cellBox([[view.last_placed.x, view.last_placed.y]]), k);
  }
  function cellBox(cells) {
    const xs = cells.map((c) => c[0] * CELL);
    const ys = cells.map((c) => -c[1] * CELL);
    const x = Math.min(...xs), y = Math.min(...ys);
    return { x, y, w: Math.max(...xs) + CELL - x, h: Math.max(...ys) + CELL - y };
  }

  // -- what the legal commands offer ---------------------------------------------------
  const legal = () => (state && !state.readOnly ? state.legal || [] : []);
  const ofType = (type) => legal().filter((c) => c.type === type);
  function placementCells() {
    const cells = new Map();
    for (const c of ofType("PlaceTile")) {
      const key = cellKey(c.x, c.y);
      if (!cells.has(key)) cells.set(key, { x: c.x, y: c.y, rotations: [] });
      cells.get(key).rotations.push(c.rotation);
    }
    for (const cell of cells.values()) cell.rotations.sort((a, b) => a - b);
    return cells;
  }
  const anyRotations = () => [...new Set(ofType("PlaceTile").map((c) => c.rotation))].sort((a, b) => a - b);
  function figureChoices() {
    const byKind = new Map();
    for (const c of ofType("PlaceFigure")) {
      if (!byKind.has(c.figure)) byKind.set(c.figure, []);
      byKind.get(c.figure).push(c);
    }
    return byKind;
  }

  // While the frame holds a move for Confirm (move confirmation on), the board shows it as chosen: the tile
  // stays at its square; a figure stands on its spot. Taken back, the board is as before the choice.
  let staging = null;
  async function submit(command) {
    if (busy) return;
    busy = true;
    error = "";
    staging = command;
    render();
    try {
      const result = await ctx.api.submit(command);
      if (result && result.status === "rejected") error = result.message || t("The move was refused");
      else { sel = null; panelRotation = null; }
    } catch (err) {
      if (err?.code !== "cancelled") error = (err && (err.message || err.code)) || String(err);
    } finally {
      busy = false;
      staging = null;
      if (!destroyed) render();
    }
  }

  function rotate() {
    if (busy) return; // a move on its way (or waiting for Confirm) is not changed under it
    const cells = placementCells();
    if (sel) {
      const rots = cells.get(cellKey(sel.x, sel.y))?.rotations || [];
      if (rots.length) sel.rotation = rots[(rots.indexOf(sel.rotation) + 1) % rots.length];
    } else {
      const rots = anyRotations();
      if (rots.length) panelRotation = rots[(rots.indexOf(panelRotation) + 1) % rots.length];
    }
    render();
  }
  function choose(cell) {
    if (busy) return;
    const rots = cell.rotations;
    const wanted = sel ? sel.rotation : panelRotation;
    sel = { x: cell.x, y: cell.y, rotation: rots.includes(wanted) ? wanted : rots[0] };
    render();
  }
  function confirm() {
    if (sel) submit({ type: "PlaceTile", x: sel.x, y: sel.y, rotation: sel.rotation });
  }
  function onKey(e) {
    if (e.target && /INPUT|TEXTAREA|SELECT/.test(e.target.tagName)) return;
    if (!ofType("PlaceTile").length) return;
    if (e.key === "r" || e.key === "R") { e.preventDefault(); rotate(); }
    else if (e.key === "Enter" && sel) { e.preventDefault(); confirm(); }
    else if (e.key === "Escape") { sel = null; render(); }
  }
  window.addEventListener("keydown", onKey);

  // -- drawing --------------------------------------------------------------------------
  const at = (x, y) => [x * CELL, -y * CELL];
  function featureOf(tileId, local) {
    return desc.tiles[tileId].features.find((f) => f.id === local);
  }
  function tileAt(x, y) {
    return view.board.find((c) => c.x === x && c.y === y);
  }
  function figurePoint(x, y, local) {
    const cell = tileAt(x, y);
    if (!cell) return null;
    const tile = desc.tiles[cell.tile];
    const f = featureOf(cell.tile, local);
    const [ax, ay] = turn(anchor(tile, f), cell.rotation);
    const [bx, by] = at(x, y);
    return [bx + ax, by + ay];
  }

  function drawTiles() {
    const seen = new Set();
    for (const c of view.board) {
      const key = cellKey(c.x, c.y);
      seen.add(key);
      const old = tileNodes.get(key);
      if (old && old.tile === c.tile && old.rotation === c.rotation) continue;
      if (old) old.g.remove();
      const [px, py] = at(c.x, c.y);
      const g = el("g", { transform: `translate(${px} ${py})`, "data-x": c.x, "data-y": c.y, class: "placed",
        tabindex: 0, role: "img" });
      g.appendChild(drawTile(desc.tiles[c.tile], c.rotation));
      g.appendChild(el("rect", { x: 0, y: 0, width: CELL, height: CELL, fill: "none", stroke: COLOURS.grid, "stroke-width": 1, "pointer-events": "none" }));
      layers.tiles.appendChild(g);
      tileNodes.set(key, { g, tile: c.tile, rotation: c.rotation });
    }
    for (const [key, node] of tileNodes) if (!seen.has(key)) { node.g.remove(); tileNodes.delete(key); }
    const figures = figuresByCell();
    for (const c of view.board) {
      const tile = capital(tileWords(desc.tiles[c.tile]));
      const words = c.x === 0 && c.y === 0 ? t("{tile}, the start tile", { tile })
        : t("{tile}, {place}", { tile, place: placeWords(c.x, c.y) });
      const on = figures.get(cellKey(c.x, c.y));
      const text = on ? [words, ...on].join("; ") : words;
      const g = tileNodes.get(cellKey(c.x, c.y)).g;
      g.setAttribute("data-tip", text);
      g.setAttribute("aria-label", text);
    }
    for (const node of layers.tiles.querySelectorAll(".feature-hl, .scored")) node.classList.remove("feature-hl", "scored");
    layers.marks.replaceChildren();
    const last = view.board[view.board.length - 1];
    if (last && view.board.length > 1) {
      const [px, py] = at(last.x, last.y);
      layers.marks.appendChild(el("rect", { x: px + 2, y: py + 2, width: CELL - 4, height: CELL - 4, class: "last-frame", "data-last": "1" }));
    }
  }

  function drawFigures() {
    layers.figures.replaceChildren();
    const put = (x, y, local, node) => {
      const p = figurePoint(x, y, local);
      if (!p) return;
      node.setAttribute("transform", `translate(${p[0]} ${p[1]})`);
      layers.figures.appendChild(node);
    };
    for (const f of view.followers) {
      put(f.x, f.y, f.feature, figureShape(f.kind === "field" ? "farmer" : "follower", colourOf(f.seat),
        { "data-seat": f.seat, "data-figure": "follower" }));
    }
    for (const f of view.abbots || []) {
      put(f.x, f.y, f.feature, figureShape("abbot", colourOf(f.seat), { "data-seat": f.seat, "data-figure": "abbot" }));
    }
    for (const f of view.shepherds || []) {
      const g = figureShape("shepherd", colourOf(f.seat), { "data-seat": f.seat, "data-figure": "shepherd" });
      g.appendChild(flockBadge(f.flock));
      put(f.x, f.y, f.feature, g);
    }
  }

  function highlightParts(parts, cls) {
    for (const [x, y, local] of parts) {
      const node = tileNodes.get(cellKey(x, y));
      if (!node) continue;
      for (const shape of node.g.querySelectorAll(`[data-feature="${local}"]`)) shape.classList.add(cls);
    }
  }

  function drawTargets() {
    layers.targets.replaceChildren();
    layers.preview.replaceChildren();
    layers.hotspots.replaceChildren();
    const cells = placementCells();
    if (sel && !cells.has(cellKey(sel.x, sel.y))) sel = null;
    for (const cell of cells.values()) {
      const [px, py] = at(cell.x, cell.y);
      const selected = sel && sel.x === cell.x && sel.y === cell.y;
      const r = el("rect", { x: px + 4, y: py + 4, width: CELL - 8, height: CELL - 8, rx: 6,
        class: `target carc-target${selected ? " selected" : ""}`, "data-x": cell.x, "data-y": cell.y,
        "data-rotations": cell.rotations.join(" ") });
      r.setAttribute("role", "button");
      r.setAttribute("tabindex", "0");
      const turns = cell.rotations.length;
      const closing = (view.completions || []).filter((c) => c.x === cell.x && c.y === cell.y);
      const p = { place: placeWords(cell.x, cell.y), turns };
      let tip = selected ? tn("Free square {place} — the tile goes here; Place tile to play it (fits one way)",
        "Free square {place} — the tile goes here; Place tile to play it (fits {turns} ways)", turns, p)
        : tn("Free square {place} — place the tile here (fits one way)",
          "Free square {place} — place the tile here (fits {turns} ways)", turns, p);
      if (closing.length) {
        const completes = completionWords(closing[0].completes, nameOf, mySeat);
        tip = closing.length < turns ? t("{tip}; turned the right way it {completes}", { tip, completes })
          : t("{tip}; it {completes}", { tip, completes });
      }
      if (closing.length) r.classList.add("completes");
      r.setAttribute("aria-label", tip);
      r.setAttribute("data-tip", tip);
      r.addEventListener("click", () => choose(cell));
      r.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); e.stopPropagation(); choose(cell); } });
      layers.targets.appendChild(r);
    }
    if (sel && view.tile && view.tile !== "hidden") {
      const [px, py] = at(sel.x, sel.y);
      const g = el("g", { transform: `translate(${px} ${py})`, class: "preview", "data-testid": "carc-preview" });
      g.appendChild(drawTile(desc.tiles[view.tile], sel.rotation));
      g.appendChild(el("rect", { x: 0, y: 0, width: CELL, height: CELL, class: "preview-frame" }));
      g.addEventListener("click", rotate);
      const turns = placementCells().get(cellKey(sel.x, sel.y))?.rotations.length || 1;
      const p = { tile: capital(tileWords(desc.tiles[view.tile])), place: placeWords(sel.x, sel.y) };
      g.setAttribute("data-tip", turns > 1 ? t("{tile}, your tile {place} — tap it to turn it", p)
        : t("{tile}, your tile {place}", p));
      layers.preview.appendChild(g);
    }
    const choices = figureChoices();
    if (choices.size && view.last_placed) {
      if (!choices.has(figureKind)) figureKind = FIGURE_ORDER.find((k) => choices.has(k));
      const { x, y } = view.last_placed;
      highlightParts(choices.get(figureKind).map((c) => [x, y, c.feature]), "feature-hl");
      for (const c of choices.get(figureKind)) {
        const p = figurePoint(x, y, c.feature);
        const spot = el("g", { transform: `translate(${p[0]} ${p[1]})`, class: "carc-hotspot", "data-feature": c.feature,
          "data-figure": c.figure, role: "button" });
        const kind = featureKind(x, y, c.feature) || kindOfFeature(c.feature);
        const tip = capital(spotWords(c.figure, kind, featureAt(view, x, y, c.feature)));
        spot.setAttribute("aria-label", tip);
        spot.setAttribute("data-tip", tip);
        if (staging && staging.feature === c.feature && staging.figure === c.figure) spot.classList.add("staged");
        spot.appendChild(el("circle", { r: SPOT_RADIUS, class: "hotspot" }));
        spot.appendChild(figureShape(c.figure === "follower" && featureKind(x, y, c.feature) === "field" ? "farmer" : c.figure,
          colourOf(mySeat ?? 0), { transform: "scale(0.55)", opacity: 0.85 }));
        spot.setAttribute("tabindex", "0");
        spot.addEventListener("click", () => submit(c));
        spot.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); e.stopPropagation(); submit(c); } });
        layers.hotspots.appendChild(spot);
      }
    }
    if (ofType("TendFlock").length && mySeat !== null) {
      const field = (view.features || []).find((f) => (f.shepherds || []).includes(mySeat));
      if (field) highlightParts(field.parts, "feature-hl");
    }
  }
  function featureKind(x, y, local) {
    const cell = tileAt(x, y);
    return cell ? featureOf(cell.tile, local)?.kind : null;
  }

  // Scoring as it happens: the feature lights up, the points rise, the figures fade home. The frame's
  // lastEvents grows over the session, so only events newer than the ones already shown start effects.
  let shownEvents = null;
  let recent = [];
  let scoredParts = [];
  function takeNewEvents() {
    const all = (state.lastEvents || []).filter((e) => e && (e.version === undefined || e.version <= state.version));
    const versions = all.map((e) => e.version ?? 0);
    const newest = versions.length ? Math.max(...versions) : 0;
    if (shownEvents === null) { shownEvents = newest; return false; }
    const fresh = all.filter((e) => (e.version ?? 0) > shownEvents);
    if (!fresh.length || state.readOnly) return false;
    shownEvents = newest;
    recent = fresh.map(payloadOf);
    return true;
  }
  function drawEffects() {
    if (!takeNewEvents()) {
      highlightParts(scoredParts, "scored");
      return;
    }
    layers.effects.replaceChildren();
    scoredParts = [];
    const features = [...(view.features || []), ...((prevView && prevView.features) || [])];
    const findParts = (x, y, local) => {
      const hit = features.find((f) => f.parts.some((p) => p[0] === x && p[1] === y && p[2] === local));
      return hit ? hit.parts : [[x, y, local]];
    };
    const label = (x, y, local, text, seats) => {
      const p = figurePoint(x, y, local);
      if (!p) return;
      const node = el("text", { x: p[0], y: p[1] - 14, "text-anchor": "middle", class: "effect-label",
        style: `fill:${seats.length === 1 ? colourOf(seats[0]) : "#fff"}` });
      node.textContent = text;
      layers.effects.appendChild(node);
    };
    for (const e of recent) {
      if (e.type === "FeatureScored") {
        scoredParts.push(...findParts(e.x, e.y, e.feature));
        if (e.winners.length && e.points) label(e.x, e.y, e.feature, `+${e.points}`, e.winners);
        for (const [seat, x, y, local] of [...(e.returned || []), ...(e.abbots || [])]) {
          const p = figurePoint(x, y, local);
          if (!p) continue;
          layers.effects.appendChild(figureShape("follower", colourOf(seat), { class: "ghost", transform: `translate(${p[0]} ${p[1]})` }));
        }
      } else if (e.type === "AbbotRecalled") {
        scoredParts.push([e.x, e.y, e.feature]);
        label(e.x, e.y, e.feature, `+${e.points}`, [e.seat]);
      }
    }
    highlightParts(scoredParts, "scored");
  }

  function describeEvent(e) {
    return eventWords(e, nameOf, desc && desc.tiles);
  }

  function statusText() {
    if (state.status && !["active", "started"].includes(state.status) && view.phase === "over") return t("Game over");
    if (view.phase === "over") return t("Game over");
    const mine = mySeat !== null && view.turn === mySeat;
    if (state.readOnly) return t("Viewing the past — {name}", { name: nameOf(view.turn) });
    if (!mine) return t("{name} is playing", { name: nameOf(view.turn) });
    if (view.phase === "place") return t("Your turn: place the tile");
    if (view.phase === "figure") return t("Place a figure or pass");
    if (view.phase === "tend") return t("Your flock's field grew: grow or gather");
    return t("Your turn");
  }

  // "Ann's knight on the city": one follower, in words
  function figureOn(f) {
    const p = { name: nameOf(f.seat) };
    return {
      city: () => t("{name}'s knight in the city", p), road: () => t("{name}'s thief on the road", p),
      monastery: () => t("{name}'s monk in the monastery", p), field: () => t("{name}'s farmer in the field", p),
    }[f.kind]?.() ?? t("{name}'s follower", p);
  }

  // "Your knight goes in the city": a staged figure, in words
  function stagedFigure(role, kind) {
    if (role === "shepherd") return t("Your shepherd goes in the field");
    if (role === "abbot") return kind === "garden" ? t("Your abbot goes in the garden") : t("Your abbot goes in the monastery");
    return {
      knight: () => t("Your knight goes in the city"), thief: () => t("Your thief goes on the road"),
      monk: () => t("Your monk goes in the monastery"), farmer: () => t("Your farmer goes in the field"),
    }[role]?.() ?? t("Your {figure} goes on the {kind}", { figure: roleName(role), kind: kindName(kind) });
  }

  // "Ann's knight in the city" for each figure, by the cell it stands on (a placed tile's tip).
  function figuresByCell() {
    const out = new Map();
    const note = (f, what) => {
      const key = cellKey(f.x, f.y);
      out.set(key, [...(out.get(key) || []), what]);
    };
    for (const f of view.followers) note(f, figureOn(f));
    for (const f of view.abbots || []) note(f, t("{name}'s abbot", { name: nameOf(f.seat) }));
    for (const f of view.shepherds || []) {
      note(f, tn("{name}'s shepherd (one sheep)", "{name}'s shepherd ({n} sheep)", sum(f.flock), { name: nameOf(f.seat) }));
    }
    return out;
  }

  // What placing the drawn tile at (x, y) turned so completes (the seat placing it gets this in its view).
  function completesAt(x, y, rotation) {
    const hit = (view.completions || []).find((c) => c.x === x && c.y === y && c.rotation === rotation);
    return hit ? hit.completes : null;
  }

  // The move waiting for Confirm (move confirmation on), in words.
  function stagedText(c) {
    if (c.type === "PlaceTile") return t("The tile goes {place}", { place: placeWords(c.x, c.y) });
    if (c.type === "PlaceFigure") {
      const last = view.last_placed; // gone once the move is in and the next tile drawn
      const kind = (last && featureKind(last.x, last.y, c.feature)) || kindOfFeature(c.feature);
      return stagedFigure(c.figure === "follower" ? ROLE[kind] || "follower" : c.figure, kind);
    }
    if (c.type === "Pass") return t("No figure this turn");
    if (c.type === "RecallAbbot") return t("Your abbot comes home");
    if (c.type === "TendFlock") return c.action === "gather" ? t("Gather the flock") : t("Grow the flock");
    return "";
  }

  // The bar's prompt: what to do now, and what the highlighted choices do.
  function promptText() {
    const mine = mySeat !== null && view.turn === mySeat && !state.readOnly && legal().length;
    if (!mine) return statusText();
    if (view.phase === "place") {
      if (!sel) return t("Your turn: choose a highlighted square for the tile.");
      const turns = placementCells().get(cellKey(sel.x, sel.y))?.rotations.length || 1;
      const outcome = completesAt(sel.x, sel.y, sel.rotation);
      const p = { place: placeWords(sel.x, sel.y), completes: outcome ? completionWords(outcome, nameOf, mySeat) : "" };
      if (turns > 1) {
        return outcome ? t("The tile goes {place} and {completes}. Rotate to another fitting side, or place the tile.", p)
          : t("The tile goes {place}. Rotate to another fitting side, or place the tile.", p);
      }
      return outcome ? t("The tile goes {place} and {completes}. Place the tile.", p)
        : t("The tile goes {place}. Place the tile.", p);
    }
    if (view.phase === "figure") {
      const choices = figureChoices();
      if (!choices.size) return t("No figure fits the new tile: choose No figure to end your turn.");
      if (figureKind === "shepherd") return t("Place your shepherd on a highlighted spot of the new tile, or choose No figure.");
      if (figureKind === "abbot") return t("Place your abbot on a highlighted spot of the new tile, or choose No figure.");
      return t("Place a follower on a highlighted spot of the new tile, or choose No figure.");
    }
    if (view.phase === "tend") return t("Your tile made your shepherd's field bigger: grow the flock (draw a token; a wolf scatters it) or gather it (score its sheep).");
    return statusText();
  }

  function scoreTrack() {
    // 50 spaces in two rows, like the box's track; a marker per player, laps shown as +50
    const track = el("svg", { viewBox: "0 0 252 46", class: "carc-track" });
    for (let i = 0; i < 50; i++) {
      const x = 1 + (i % 25) * 10, y = i < 25 ? 1 : 24;
      track.appendChild(el("rect", { x, y, width: 10, height: 21, fill: i % 5 === 0 ? "#efe3c4" : "#fbf6ea", stroke: "#c9b98f", "stroke-width": 0.6 }));
    }
    view.scores.forEach((score, seat) => {
      const i = score % 50;
      const x = 6 + (i % 25) * 10, y = (i < 25 ? 1 : 24) + 4 + (seat % 3) * 6;
      track.appendChild(el("circle", { cx: x + (seat > 2 ? 2 : 0), cy: y, r: 3.2, fill: colourOf(seat), stroke: "#000", "stroke-width": 0.6 }));
    });
    return track;
  }

  // The turn's buttons: in the frame's action bar when it has one (always in view), else in the turn card.
  function turnActions() {
    const mine = mySeat !== null && view.turn === mySeat && !state.readOnly;
    if (!mine) return [];
    const out = [];
    if (view.phase === "place" && view.tile && ofType("PlaceTile").length) {
      const rots = sel ? placementCells().get(cellKey(sel.x, sel.y))?.rotations || [] : anyRotations();
      out.push({ id: "rotate", label: `⟳ ${t("Rotate")}`, title: t("Turn the tile to its next fitting side (R)"),
        onClick: rotate, disabled: busy || rots.length < 2 });
      out.push({ id: "confirm", label: t("Place tile"), primary: true, onClick: confirm, disabled: busy || !sel });
    }
    if (view.phase === "figure") {
      const choices = figureChoices();
      if (choices.size > 1) {
        for (const kind of FIGURE_ORDER) {
          if (!choices.has(kind)) continue;
          out.push({ id: `figure-${kind}`, label: figureName(kind), chosen: kind === figureKind,
            title: { follower: t("Show the spots for your follower"), shepherd: t("Show the spots for your shepherd"),
              abbot: t("Show the spots for your abbot") }[kind],
            onClick: () => { figureKind = kind; render(); }, disabled: busy });
        }
      } else if (choices.size === 1) {
        const [kind] = choices.keys();
        figureKind = kind;
      }
      const recall = ofType("RecallAbbot")[0];
      if (recall) out.push({ id: "recall", label: t("Recall abbot"), onClick: () => submit(recall), disabled: busy });
      const pass = ofType("Pass")[0];
      if (pass) out.push({ id: "pass", label: t("No figure"), onClick: () => submit(pass), disabled: busy });
    }
    if (view.phase === "tend") {
      const grow = ofType("TendFlock").find((c) => c.action === "grow");
      const gather = ofType("TendFlock").find((c) => c.action === "gather");
      if (grow) out.push({ id: "grow", label: t("Grow the flock"), onClick: () => submit(grow), disabled: busy });
      if (gather) out.push({ id: "gather", label: t("Gather the flock"), primary: true, onClick: () => submit(gather), disabled: busy });
    }
    return out;
  }
  const actionButton = (a) => h("button", { type: "button", "data-action": a.id, title: a.title,
    class: a.primary ? "primary" : a.chosen ? "chosen" : null, onclick: a.onClick, disabled: a.disabled }, a.label);

  function drawnTileFace(px) {
    if (view.tile === "hidden") return faceDown(px);
    const rots = sel ? placementCells().get(cellKey(sel.x, sel.y))?.rotations || [] : anyRotations();
    if (panelRotation === null || !rots.includes(panelRotation)) panelRotation = rots[0] ?? 0;
    return tileSvg(desc.tiles[view.tile], sel ? sel.rotation : panelRotation, px);
  }

  function renderSide() {
    const actions = turnActions();
    const cards = [];
    const turnCard = h("div", { class: "carc-card" }, h("div", { class: "carc-status", "data-testid": "carc-status" }, statusText()));
    // the drawn tile, face up for everyone (only the seat to act gets the placing controls); face down when
    // the view says "hidden" (the DRAWN_TILE_PRIVATE house rule: another seat's draw)
    const drawing = view.phase === "place" && view.tile;
    if (drawing) {
      const info = h("div", {}, view.tile === "hidden" ? t("A tile has been drawn") : capital(tileWords(desc.tiles[view.tile])));
      turnCard.append(h("div", { class: "carc-drawn", "data-testid": "carc-drawn" }, drawnTileFace(84), info));
    }
    if (ctx.bar) {
      ctx.bar.set({ prompt: promptText(), stagedPrompt: staging ? stagedText(staging) : null,
        preview: drawing ? drawnTileFace(56) : null, actions });
    } else if (actions.length) {
      turnCard.append(h("div", { class: "carc-actions" }, actions.map(actionButton)),
        h("div", { class: "carc-counts" }, promptText()));
    }
    turnCard.append(h("div", { class: "carc-error", role: "alert", "data-testid": "carc-error" }, error));
    cards.push(turnCard);

    const players = h("div", { class: "carc-card", "data-testid": "carc-players" });
    for (let seat = 0; seat < view.players; seat++) {
      const supply = view.supply[seat];
      const flock = (view.shepherds || []).find((s) => s.seat === seat);
      const items = [h("span", { title: t("Followers in supply") }, miniFigure("follower", colourOf(seat)), ` ${supply.followers}/${supply.followers_total}`)];
      if (view.options.abbot) items.push(h("span", { title: t("Abbot"), style: supply.abbot ? "" : "opacity:.3" }, miniFigure("abbot", colourOf(seat))));
      if (view.options.hills_and_sheep) {
        items.push(h("span", { title: t("Shepherd"), style: supply.shepherd ? "" : "opacity:.3" }, miniFigure("shepherd", colourOf(seat))));
        if (flock) items.push(h("span", {}, t("flock: {n}", { n: sum(flock.flock) })));
      }
      players.append(h("div", { class: `carc-player${view.turn === seat && view.phase !== "over" ? " to-act" : ""}`, "data-seat": seat },
        h("span", { class: "carc-swatch", style: `background:${colourOf(seat)}` }),
        h("span", { class: "carc-name" }, seat === mySeat ? t("{name} (you)", { name: nameOf(seat) }) : nameOf(seat)),
        h("span", { class: "carc-score", "data-seat": seat, "data-testid": `carc-score-${seat}` }, String(view.scores[seat])),
        h("span", { class: "carc-supply" }, items)));
    }
    players.append(scoreTrack());
    cards.push(players);

    const counts = [t("Tiles left: {n}", { n: view.tiles_left })];
    if (view.bag) counts.push(t("Bag: {n} (wolves {wolves})", { n: sum(Object.values(view.bag)), wolves: view.bag.wolf }));
    cards.push(h("div", { class: "carc-card carc-counts", "data-testid": "carc-counts" }, counts.join(" · ")));

    const lines = recent.map(describeEvent).filter(Boolean);
    if (lines.length) cards.push(h("div", { class: "carc-card carc-log", "data-testid": "carc-log" }, lines.map((l) => h("div", {}, l))));
    side.replaceChildren(...cards);
  }

  function faceDown(px = 84) {
    const s = el("svg", { viewBox: "0 0 100 100", width: px, height: px });
    s.appendChild(el("rect", { x: 1, y: 1, width: 98, height: 98, rx: 6, fill: "#6d5a3f", stroke: "#3e3222", "stroke-width": 2 }));
    const q = el("text", { x: 50, y: 64, "text-anchor": "middle", "font-size": 44, fill: "#e8d9b5", "font-weight": 700 });
    q.textContent = "?";
    s.appendChild(q);
    return s;
  }

  // What the board shows, in words, for screen readers (the SVG itself is one image to them).
  function describeBoard() {
    const figuresAt = new Map();
    const note = (x, y, text) => figuresAt.set(cellKey(x, y), [...(figuresAt.get(cellKey(x, y)) || []), text]);
    for (const f of view.followers) note(f.x, f.y, figureOn(f));
    for (const f of view.abbots || []) note(f.x, f.y, t("{name}'s abbot", { name: nameOf(f.seat) }));
    for (const f of view.shepherds || []) {
      note(f.x, f.y, tn("{name}'s shepherd (one sheep)", "{name}'s shepherd ({n} sheep)", sum(f.flock), { name: nameOf(f.seat) }));
    }
    const items = view.board.map((c, i) => {
      const extra = figuresAt.get(cellKey(c.x, c.y)) || [];
      const p = { x: c.x, y: c.y, tile: tileWords(desc.tiles[c.tile]), deg: c.rotation * 90 };
      const line = i === view.board.length - 1 && i > 0 ? t("({x}, {y}): {tile}, turned {deg}° (last placed)", p)
        : t("({x}, {y}): {tile}, turned {deg}°", p);
      return h("li", {}, [line, ...extra].join("; "));
    });
    const open = (view.features || []).filter((f) => f.figures.length && !f.complete)
      .map((f) => h("li", {}, tn("{kind} of {tiles} tiles: one point now for {who}", "{kind} of {tiles} tiles: {n} points now for {who}",
        f.points, { kind: capital(kindName(f.kind)), tiles: f.tiles, who: f.leaders.map(nameOf).join(", ") })));
    spoken.replaceChildren(h("p", {}, tn("One tile on the table", "{n} tiles on the table", view.board.length)), h("ul", {}, items),
      open.length ? h("p", {}, t("Features figures could still score")) : null, open.length ? h("ul", {}, open) : null);
  }

  function render() {
    if (!desc || !state || destroyed) return;
    view = gameView(state.view);
    if (!view || !view.board) return;
    const focused = focusKey();
    drawTiles();
    drawTargets();
    drawFigures();
    drawEffects();
    renderSide();
    describeBoard();
    const mode = hasSpots() ? `spots ${view.last_placed.x},${view.last_placed.y}` : "board";
    if (mode !== fittedFor) { userMoved = false; fittedFor = mode; } // a new step starts from its own view
    if (!userMoved) fit();
    refocus(focused);
    tips.refresh();
  }

  // Targets are drawn afresh on every change: a keyboard player's focus moves to the same square or spot.
  function focusKey() {
    const a = document.activeElement;
    if (!a || !svg.contains(a)) return null;
    if (a.classList.contains("carc-target")) return `.carc-target[data-x="${a.dataset.x}"][data-y="${a.dataset.y}"]`;
    if (a.classList.contains("carc-hotspot")) return `.carc-hotspot[data-feature="${a.dataset.feature}"]`;
    return null;
  }
  function refocus(selector) {
    if (!selector || (document.activeElement && svg.contains(document.activeElement))) return;
    const again = svg.querySelector(selector);
    if (again) again.focus({ preventScroll: true });
  }

  function update(next) {
    if (state && next && state.version !== next.version) prevView = view;
    if (state && next && (state.version !== next.version || state.head !== next.head)) error = "";
    state = next;
    render();
  }

  const NARROW = 900;
  root.classList.toggle("narrow", root.clientWidth < NARROW);
  let resizeObserver = null;
  if (typeof ResizeObserver !== "undefined") {
    resizeObserver = new ResizeObserver(() => {
      root.classList.toggle("narrow", root.clientWidth < NARROW);
      if (!userMoved) fit();
    });
    resizeObserver.observe(root);
  }

  loadDescription(ctx).then((d) => {
    desc = d;
    render();
  }).catch((err) => {
    side.replaceChildren(h("div", { class: "carc-card carc-error" },
      t("Could not load the tile descriptions: {error}", { error: err && err.message ? err.message : err })));
  });

  return {
    update,
    destroy() {
      destroyed = true;
      tips.destroy();
      window.removeEventListener("keydown", onKey);
      viewport.destroy();
      if (resizeObserver) resizeObserver.disconnect();
      root.replaceChildren();
      root.classList.remove("carc", "narrow");
    },
  };
}
