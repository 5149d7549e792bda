// The Carcassonne board: tiles drawn from the engine's description, figures from the view,
// and every move offered from the legal commands (no rule is re-implemented here).
// Contract: mount(root, ctx) -> { update(state), destroy() } (see boards/registry.js).

import { COLOURS, anchor, drawTile, el, tileSvg, turn } from "./carcassonne-tiles.js";
import { adoptStyle } from "./style.js";

const CELL = 100;
const FALLBACK_COLOURS = ["#d23c3c", "#2f6fd0", "#e3b823", "#2f9e4a", "#222222", "#9b59b6"];
const FIGURE_ORDER = ["follower", "shepherd", "abbot"];

const CSS = `
.carc { display: flex; gap: 12px; width: 100%; height: 100%; min-height: 480px; font: 14px/1.35 system-ui, sans-serif; color: #222; }
.carc-boardwrap { position: relative; flex: 1 1 auto; min-width: 0; min-height: 420px; background: #5b7a3c;
  border-radius: 8px; overflow: hidden; touch-action: none; user-select: none; }
.carc-svg { width: 100%; height: 100%; display: block; cursor: grab; }
.carc-svg.dragging { cursor: grabbing; }
.carc-zoom { position: absolute; right: 8px; top: 8px; display: flex; flex-direction: column; gap: 4px; }
.carc-zoom button { width: 34px; height: 34px; font-size: 18px; border-radius: 6px; border: 1px solid #0004; background: #fffd; cursor: pointer; }
.carc-side { flex: 0 0 290px; display: flex; flex-direction: column; gap: 10px; }
.carc-card { background: #fff; border: 1px solid #0002; border-radius: 8px; padding: 10px; }
.carc-status { font-weight: 600; }
.carc-drawn { display: flex; gap: 10px; align-items: center; }
.carc-drawn svg { border-radius: 4px; box-shadow: 0 1px 3px #0005; flex: none; }
.carc-actions { display: flex; flex-wrap: wrap; gap: 6px; margin-top: 8px; }
.carc-actions button { padding: 7px 11px; border-radius: 6px; border: 1px solid #0003; background: #f4f1ea; cursor: pointer; font: inherit; }
.carc-actions button.primary { background: #2f6fd0; color: #fff; border-color: #1d4f9f; }
.carc-actions button.chosen { outline: 3px solid #f0b400; }
.carc-actions button:disabled { opacity: .45; cursor: default; }
.carc-error { color: #b00020; min-height: 1em; }
.carc-player { display: grid; grid-template-columns: 16px 1fr auto; gap: 2px 8px; align-items: center; padding: 4px 0; border-bottom: 1px solid #0001; }
.carc-player.to-act .carc-name { font-weight: 700; }
.carc-swatch { width: 14px; height: 14px; border-radius: 3px; border: 1px solid #0005; }
.carc-score { font-weight: 700; font-variant-numeric: tabular-nums; }
.carc-supply { grid-column: 2 / 4; font-size: 12px; color: #555; display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
.carc-supply svg { vertical-align: middle; }
.carc-track { width: 100%; height: auto; margin-top: 6px; }
.carc-counts { font-size: 12px; color: #444; }
.carc-sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.carc-log { font-size: 12px; color: #333; max-height: 120px; overflow: auto; }
.carc .target { fill: #fff6; stroke: #fff; stroke-width: 3; stroke-dasharray: 10 6; cursor: pointer; }
.carc .target:hover, .carc .target.selected { fill: #ffe98a99; stroke: #f0b400; }
.carc .preview { opacity: .9; cursor: pointer; }
.carc .preview-frame { fill: none; stroke: #f0b400; stroke-width: 5; pointer-events: none; }
.carc .hotspot { fill: #ffe98acc; stroke: #b07d00; stroke-width: 2.5; cursor: pointer; }
.carc .hotspot:hover { fill: #ffd23c; }
.carc .last-frame { fill: none; stroke: #ffdf40; stroke-width: 4; pointer-events: none; }
/* highlights recolour the shapes (a filter per field wedge would outline each wedge) */
.carc path.feature-hl[data-kind="field"] { fill: #c2ea8a; stroke: #c2ea8a; }
.carc path.feature-hl[data-kind="city"] { fill: #f7e2b4; }
.carc path.feature-hl[data-kind="road"] { stroke: #fff9c9; }
.carc g.feature-hl { filter: drop-shadow(0 0 5px #fff); }
.carc path.scored[data-kind="field"] { fill: #e4ee7c; stroke: #e4ee7c; }
.carc path.scored[data-kind="city"] { fill: #ffd965; }
.carc path.scored[data-kind="road"] { stroke: #ffe066; }
.carc g.scored { filter: drop-shadow(0 0 6px #ffe066); }
.carc .effect-label { font: 700 26px system-ui, sans-serif; fill: #fff; stroke: #000; stroke-width: 4px; paint-order: stroke; pointer-events: none;
  animation: carc-rise 2.4s ease-out forwards; }
.carc .ghost { opacity: .8; animation: carc-fade 2.4s ease-in forwards; pointer-events: none; }
@keyframes carc-rise { from { transform: translateY(0); opacity: 1; } to { transform: translateY(-30px); opacity: .85; } }
@keyframes carc-fade { from { opacity: .85; } to { opacity: 0; } }
/* a narrow board area (a phone, or beside the frame's own column): board first, the cards in a row below */
.carc.narrow { flex-direction: column; min-height: 0; height: auto; }
.carc.narrow .carc-boardwrap { min-height: 320px; height: 62vh; flex: none; }
.carc.narrow .carc-side { flex: none; flex-direction: row; flex-wrap: wrap; }
.carc.narrow .carc-side > .carc-card { flex: 1 1 260px; }
`;

function injectStyle() {
  adoptStyle("carc-style", CSS);
}

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
const sum = (xs) => xs.reduce((a, b) => a + b, 0);

// -- figure shapes (drawn upright, centred on 0 0) -----------------------------------
const MEEPLE = "M0 -15 a5 5 0 1 1 -0.01 0 Z M-4 -6 H4 L12 -1 L10 3 L5 1 L8 12 H2 L0 7 L-2 12 H-8 L-5 1 L-10 3 L-12 -1 Z";
const ABBOT = "M0 -16 a5 5 0 1 1 -0.01 0 Z M-5 -7 H5 L7 -2 L11 13 H-11 L-7 -2 Z";

function figureShape(kind, colour, extra = {}) {
  const g = el("g", { class: "figure", "pointer-events": "none", ...extra });
  const stroke = colour.toLowerCase() === "#222222" || colour === "black" ? "#fff" : "#1a1a1a";
  if (kind === "abbot") {
    g.appendChild(el("path", { d: ABBOT, fill: colour, stroke, "stroke-width": 1.6, "fill-rule": "nonzero" }));
    g.appendChild(el("path", { d: "M-5 -1 H5", stroke, "stroke-width": 1.5 }));
  } else if (kind === "shepherd") {
    g.appendChild(el("path", { d: "M11 12 V-12 a4 4 0 0 1 8 0", fill: "none", stroke: "#6b4b2f", "stroke-width": 2.4 }));
    g.appendChild(el("path", { d: MEEPLE, fill: colour, stroke, "stroke-width": 1.6 }));
    g.appendChild(el("circle", { cx: 0, cy: -10, r: 6.5, fill: "none", stroke: "#fff", "stroke-width": 2 }));
  } else {
    const lying = kind === "farmer";
    g.appendChild(el("path", { d: MEEPLE, fill: colour, stroke, "stroke-width": 1.6,
      transform: lying ? "rotate(-90)" : undefined }));
  }
  return g;
}

function flockBadge(flock) {
  const total = sum(flock);
  return el("g", { class: "flock", "pointer-events": "none", transform: "translate(14 10)" }, [
    el("circle", { r: 9, fill: "#fff", stroke: "#333", "stroke-width": 1.5 }),
    Object.assign(el("text", { "text-anchor": "middle", y: 4.5, "font-size": 13, "font-weight": 700, fill: "#222",
      class: "flock-count" }), { textContent: String(total) }),
  ]);
}

function miniFigure(kind, colour, size = 18) {
  const svg = el("svg", { viewBox: "-14 -22 28 36", width: size, height: size * 36 / 28 });
  svg.appendChild(figureShape(kind, colour));
  return svg;
}

/** One line for a Carcassonne event (the board's log and the frame's move log). */
function describeWith(e, nameOf, t) {
  const who = (seats) => seats.map(nameOf).join(", ");
  switch (e.type) {
    case "TileDrawn": return `${nameOf(e.seat)} ${t("drew a tile")}`;
    case "TilePlaced": return `${nameOf(e.seat)} ${t("placed a tile")} (${e.x}, ${e.y})`;
    case "FollowerPlaced": return `${nameOf(e.seat)} ${t("placed a follower")}`;
    case "ShepherdPlaced": return `${nameOf(e.seat)} ${t("placed the shepherd")}`;
    case "AbbotPlaced": return `${nameOf(e.seat)} ${t("placed the abbot")}`;
    case "FigureSkipped": return `${nameOf(e.seat)} ${t("placed no figure")}`;
    case "FeatureScored":
      return e.winners.length ? `${t(e.kind)}: +${e.points} ${who(e.winners)}` : `${t(e.kind)} ${t("completed")}`;
    case "FlockGathered": return `${t("Flock gathered")}: +${e.points} ${who(e.seats)}`;
    case "FlockScattered": return `${t("A wolf! The flock is scattered")} (${who(e.seats)})`;
    case "AbbotRecalled": return `${t("Abbot recalled")}: +${e.points} ${nameOf(e.seat)}`;
    case "TokenDrawn": return e.token ? `${nameOf(e.seat)}: ${t("sheep")} +${e.token}` : `${nameOf(e.seat)}: ${t("wolf")}`;
    case "TileDiscarded": return `${t("Tile fits nowhere, discarded")}: ${e.tile}`;
    case "TileBuried": return `${nameOf(e.seat)}: ${t("a tile went under the hill")}`;
    case "GameEnded": return t("Game over");
    case "GameStarted": {
      const extras = [e.river && t("the River"), e.hills_and_sheep && t("Hills & Sheep"), e.abbot && t("the Abbot")].filter(Boolean);
      return `${t("The game is set")}: ${e.players} ${t("players")}${extras.length ? `, ${t("with")} ${extras.join(", ")}` : ""}`;
    }
    case "FlockFieldExtended": return `${nameOf(e.seat)}: ${t("the tile extends the shepherd's field: grow or gather")}`;
    default: return null;
  }
}

/** The frame's move log asks the board for words (see js/words.js); null falls back to the generic text. */
export function describe(event, { seats } = {}) {
  const nameOf = (seat) => (seats && seats[seat] && seats[seat].name) || `Seat ${seat + 1}`;
  return describeWith(payloadOf(event), nameOf, (s) => s);
}

// The description never changes while the page lives (the server also sends ETag and max-age).
let descriptionPromise = null;
function loadDescription(ctx) {
  if (!descriptionPromise) {
    descriptionPromise = Promise.resolve(ctx.api.description()).then((d) => {
      if (!d || !d.tiles) throw new Error("no tile description");
      return d;
    });
    descriptionPromise.catch(() => { descriptionPromise = null; });
  }
  return descriptionPromise;
}

export function mount(root, ctx) {
  injectStyle();
  const t = ctx.t || ((s) => s);
  const mySeat = ctx.seat ?? null;
  const seatInfo = (seat) => (ctx.seatInfo || []).find((s) => s.seat === seat) || {};
  const colourOf = (seat) => seatInfo(seat).colour || FALLBACK_COLOURS[seat % FALLBACK_COLOURS.length];
  const nameOf = (seat) => seatInfo(seat).name || `${t("Seat")} ${seat + 1}`;

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
  const vp = { k: 1, tx: 0, ty: 0 };

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
  const side = h("aside", { class: "carc-side" });
  root.append(boardWrap, side);
  const tileNodes = new Map(); // "x,y" -> {g, tile, rotation}

  // -- pan and zoom ------------------------------------------------------------------------
  const applyViewport = () => world.setAttribute("transform", `translate(${vp.tx} ${vp.ty}) scale(${vp.k})`);
  function zoomAt(factor, px, py) {
    const k = Math.min(4, Math.max(0.12, vp.k * factor));
    vp.tx = px - (px - vp.tx) * (k / vp.k);
    vp.ty = py - (py - vp.ty) * (k / vp.k);
    vp.k = k;
    userMoved = true;
    applyViewport();
  }
  function zoomBy(factor) {
    const r = svg.getBoundingClientRect();
    zoomAt(factor, r.width / 2, r.height / 2);
  }
  function fit() {
    if (!view) return;
    const cells = view.board.map((c) => [c.x, c.y]);
    for (const c of layers.targets.querySelectorAll("[data-x]")) cells.push([+c.dataset.x, +c.dataset.y]);
    if (!cells.length) return;
    const xs = cells.map((c) => c[0]);
    const ys = cells.map((c) => -c[1]);
    const minX = Math.min(...xs) * CELL, maxX = (Math.max(...xs) + 1) * CELL;
    const minY = Math.min(...ys) * CELL, maxY = (Math.max(...ys) + 1) * CELL;
    const r = svg.getBoundingClientRect();
    const w = (r.width || 600) - 52, hgt = r.height || 400; // keep the zoom buttons' strip on the right free
    const k = Math.min(1.6, Math.max(0.12, Math.min((w - 20) / (maxX - minX), (hgt - 20) / (maxY - minY))));
    vp.k = k;
    vp.tx = (w - (maxX - minX) * k) / 2 - minX * k;
    vp.ty = (hgt - (maxY - minY) * k) / 2 - minY * k;
    applyViewport();
  }
  const pointers = new Map();
  let drag = null;
  let suppressClick = false;
  function onPointerDown(e) {
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (pointers.size === 1) drag = { x: e.clientX, y: e.clientY, tx: vp.tx, ty: vp.ty, moved: false };
    else if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      drag = { pinch: Math.hypot(a.x - b.x, a.y - b.y), k: vp.k, moved: true };
    }
  }
  function onPointerMove(e) {
    if (!pointers.has(e.pointerId) || !drag) return;
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (pointers.size >= 2 && drag.pinch) {
      const [a, b] = [...pointers.values()];
      const r = svg.getBoundingClientRect();
      const dist = Math.hypot(a.x - b.x, a.y - b.y);
      zoomAt((drag.k * dist) / drag.pinch / vp.k, (a.x + b.x) / 2 - r.left, (a.y + b.y) / 2 - r.top);
      return;
    }
    const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    if (!drag.moved && Math.hypot(dx, dy) < 5) return;
    drag.moved = true;
    svg.classList.add("dragging");
    vp.tx = drag.tx + dx;
    vp.ty = drag.ty + dy;
    userMoved = true;
    applyViewport();
  }
  function onPointerUp(e) {
    if (!pointers.delete(e.pointerId)) return;
    if (drag && drag.moved) suppressClick = true;
    if (!pointers.size) { drag = null; svg.classList.remove("dragging"); return; }
    // one finger of a pinch lifted: the other one pans on from where it is
    const [rest] = pointers.values();
    drag = { x: rest.x, y: rest.y, tx: vp.tx, ty: vp.ty, moved: true };
  }
  function onClickCapture(e) {
    if (suppressClick) { e.stopPropagation(); e.preventDefault(); }
    suppressClick = false;
  }
  function onWheel(e) {
    e.preventDefault();
    const r = svg.getBoundingClientRect();
    zoomAt(Math.exp(-e.deltaY * 0.0015), e.clientX - r.left, e.clientY - r.top);
  }
  svg.addEventListener("pointerdown", onPointerDown);
  window.addEventListener("pointermove", onPointerMove);
  window.addEventListener("pointerup", onPointerUp);
  window.addEventListener("pointercancel", onPointerUp);
  svg.addEventListener("click", onClickCapture, true);
  svg.addEventListener("wheel", onWheel, { passive: false });

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

  async function submit(command) {
    if (busy) return;
    busy = true;
    error = "";
    render();
    try {
      const result = await ctx.api.submit(command);
      if (result && result.status === "rejected") error = result.message || t("The move was refused");
      else { sel = null; panelRotation = null; }
    } catch (err) {
      error = (err && (err.message || err.code)) || String(err);
    } finally {
      busy = false;
      if (!destroyed) render();
    }
  }

  function rotate() {
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
      const g = el("g", { transform: `translate(${px} ${py})`, "data-x": c.x, "data-y": c.y, class: "placed" });
      g.appendChild(drawTile(desc.tiles[c.tile], c.rotation));
      g.appendChild(el("rect", { x: 0, y: 0, width: CELL, height: CELL, fill: "none", stroke: COLOURS.grid, "stroke-width": 1, "pointer-events": "none" }));
      layers.tiles.appendChild(g);
      tileNodes.set(key, { g, tile: c.tile, rotation: c.rotation });
    }
    for (const [key, node] of tileNodes) if (!seen.has(key)) { node.g.remove(); tileNodes.delete(key); }
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
      r.setAttribute("aria-label", `${t("Place the tile at")} (${cell.x}, ${cell.y})`);
      r.addEventListener("click", () => choose(cell));
      r.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); choose(cell); } });
      layers.targets.appendChild(r);
    }
    if (sel && view.tile && view.tile !== "hidden") {
      const [px, py] = at(sel.x, sel.y);
      const g = el("g", { transform: `translate(${px} ${py})`, class: "preview", "data-testid": "carc-preview" });
      g.appendChild(drawTile(desc.tiles[view.tile], sel.rotation));
      g.appendChild(el("rect", { x: 0, y: 0, width: CELL, height: CELL, class: "preview-frame" }));
      g.addEventListener("click", rotate);
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
          "data-figure": c.figure, role: "button", "aria-label": `${t(c.figure)} ${c.feature}` });
        spot.appendChild(el("circle", { r: 11, class: "hotspot" }));
        spot.appendChild(figureShape(c.figure === "follower" && featureKind(x, y, c.feature) === "field" ? "farmer" : c.figure,
          colourOf(mySeat ?? 0), { transform: "scale(0.55)", opacity: 0.85 }));
        spot.setAttribute("tabindex", "0");
        spot.addEventListener("click", () => submit(c));
        spot.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); submit(c); } });
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
    return describeWith(e, nameOf, t);
  }

  function statusText() {
    if (state.status && !["active", "started"].includes(state.status) && view.phase === "over") return t("Game over");
    if (view.phase === "over") return t("Game over");
    const mine = mySeat !== null && view.turn === mySeat;
    if (state.readOnly) return `${t("Viewing the past")} — ${nameOf(view.turn)}`;
    if (!mine) return `${nameOf(view.turn)} ${t("is playing")}`;
    if (view.phase === "place") return t("Your turn: place the tile");
    if (view.phase === "figure") return t("Place a figure or pass");
    if (view.phase === "tend") return t("Your flock's field grew: grow or gather");
    return t("Your turn");
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

  function renderSide() {
    const mine = mySeat !== null && view.turn === mySeat && !state.readOnly;
    const cards = [];
    const turnCard = h("div", { class: "carc-card" }, h("div", { class: "carc-status", "data-testid": "carc-status" }, statusText()));
    // the drawn tile, face up for everyone (only the seat to act gets the placing controls); face down when
    // the view says "hidden" (the DRAWN_TILE_PRIVATE house rule: another seat's draw)
    if (view.phase === "place" && view.tile) {
      const rots = sel ? placementCells().get(cellKey(sel.x, sel.y))?.rotations || [] : anyRotations();
      if (panelRotation === null || !rots.includes(panelRotation)) panelRotation = rots[0] ?? 0;
      const rotation = sel ? sel.rotation : panelRotation;
      const face = view.tile === "hidden"
        ? h("div", {}, faceDown())
        : tileSvg(desc.tiles[view.tile], rotation, 84);
      const info = h("div", {}, view.tile === "hidden" ? t("A tile has been drawn") : desc.tiles[view.tile].name);
      turnCard.append(h("div", { class: "carc-drawn", "data-testid": "carc-drawn" }, face, info));
      if (mine && ofType("PlaceTile").length) {
        turnCard.append(h("div", { class: "carc-actions" },
          h("button", { type: "button", "data-action": "rotate", onclick: rotate, disabled: busy || (sel ? rots.length < 2 : rots.length < 2) }, `⟳ ${t("Rotate")} (R)`),
          h("button", { type: "button", class: "primary", "data-action": "confirm", onclick: confirm, disabled: busy || !sel }, t("Place tile"))),
        h("div", { class: "carc-counts" }, sel ? t("Rotate through the fitting turns, then place.") : t("Choose a highlighted square.")));
      }
    }
    if (mine && view.phase === "figure") {
      const choices = figureChoices();
      const buttons = [];
      for (const kind of FIGURE_ORDER) {
        if (!choices.has(kind)) continue;
        buttons.push(h("button", { type: "button", "data-action": `figure-${kind}`, class: kind === figureKind ? "chosen" : null,
          onclick: () => { figureKind = kind; render(); }, disabled: busy }, miniFigure(kind, colourOf(mySeat), 14), " ", t(kind)));
      }
      if (ofType("RecallAbbot").length) {
        buttons.push(h("button", { type: "button", "data-action": "recall", onclick: () => submit(ofType("RecallAbbot")[0]), disabled: busy }, t("Recall abbot")));
      }
      if (ofType("Pass").length) {
        buttons.push(h("button", { type: "button", "data-action": "pass", onclick: () => submit(ofType("Pass")[0]), disabled: busy }, t("No figure")));
      }
      turnCard.append(h("div", { class: "carc-actions" }, buttons),
        h("div", { class: "carc-counts" }, choices.size ? t("Click a highlighted spot on the new tile.") : ""));
    }
    if (mine && view.phase === "tend") {
      const grow = ofType("TendFlock").find((c) => c.action === "grow");
      const gather = ofType("TendFlock").find((c) => c.action === "gather");
      turnCard.append(h("div", { class: "carc-actions" },
        grow && h("button", { type: "button", "data-action": "grow", onclick: () => submit(grow), disabled: busy }, t("Grow the flock")),
        gather && h("button", { type: "button", class: "primary", "data-action": "gather", onclick: () => submit(gather), disabled: busy }, t("Gather the flock"))));
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
        if (flock) items.push(h("span", {}, `${t("flock")}: ${sum(flock.flock)}`));
      }
      players.append(h("div", { class: `carc-player${view.turn === seat && view.phase !== "over" ? " to-act" : ""}`, "data-seat": seat },
        h("span", { class: "carc-swatch", style: `background:${colourOf(seat)}` }),
        h("span", { class: "carc-name" }, nameOf(seat), seat === mySeat ? ` (${t("you")})` : ""),
        h("span", { class: "carc-score", "data-seat": seat, "data-testid": `carc-score-${seat}` }, String(view.scores[seat])),
        h("span", { class: "carc-supply" }, items)));
    }
    players.append(scoreTrack());
    cards.push(players);

    const counts = [`${t("Tiles left")}: ${view.tiles_left}`];
    if (view.bag) counts.push(`${t("Bag")}: ${sum(Object.values(view.bag))} (${t("wolves")} ${view.bag.wolf})`);
    cards.push(h("div", { class: "carc-card carc-counts", "data-testid": "carc-counts" }, counts.join(" · ")));

    const lines = recent.map(describeEvent).filter(Boolean);
    if (lines.length) cards.push(h("div", { class: "carc-card carc-log", "data-testid": "carc-log" }, lines.map((l) => h("div", {}, l))));
    side.replaceChildren(...cards);
  }

  function faceDown() {
    const s = el("svg", { viewBox: "0 0 100 100", width: 84, height: 84 });
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
    for (const f of view.followers) note(f.x, f.y, `${t("follower of")} ${nameOf(f.seat)} ${t("on the")} ${t(f.kind)}`);
    for (const f of view.abbots || []) note(f.x, f.y, `${t("abbot of")} ${nameOf(f.seat)}`);
    for (const f of view.shepherds || []) note(f.x, f.y, `${t("shepherd of")} ${nameOf(f.seat)}, ${sum(f.flock)} ${t("sheep")}`);
    const items = view.board.map((c, i) => {
      const extra = figuresAt.get(cellKey(c.x, c.y)) || [];
      const last = i === view.board.length - 1 && i > 0 ? ` (${t("last placed")})` : "";
      return h("li", {}, `(${c.x}, ${c.y}): ${desc.tiles[c.tile].name}, ${t("turned")} ${c.rotation * 90}°${last}`
        + (extra.length ? `; ${extra.join("; ")}` : ""));
    });
    const open = (view.features || []).filter((f) => f.figures.length && !f.complete)
      .map((f) => h("li", {}, `${t(f.kind)} ${t("of")} ${f.tiles} ${t("tiles")}: ${f.points} ${t("points now")} ${t("for")} ${f.leaders.map(nameOf).join(", ")}`));
    spoken.replaceChildren(h("p", {}, `${view.board.length} ${t("tiles on the table")}`), h("ul", {}, items),
      open.length ? h("p", {}, t("Features figures could still score")) : null, open.length ? h("ul", {}, open) : null);
  }

  function render() {
    if (!desc || !state || destroyed) return;
    view = gameView(state.view);
    if (!view || !view.board) return;
    drawTiles();
    drawTargets();
    drawFigures();
    drawEffects();
    renderSide();
    describeBoard();
    if (!userMoved) fit();
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
    side.replaceChildren(h("div", { class: "carc-card carc-error" }, `${t("Could not load the tile descriptions")}: ${err && err.message ? err.message : err}`));
  });

  return {
    update,
    destroy() {
      destroyed = true;
      window.removeEventListener("keydown", onKey);
      window.removeEventListener("pointermove", onPointerMove);
      window.removeEventListener("pointerup", onPointerUp);
      window.removeEventListener("pointercancel", onPointerUp);
      if (resizeObserver) resizeObserver.disconnect();
      root.replaceChildren();
      root.classList.remove("carc", "narrow");
    },
  };
}
