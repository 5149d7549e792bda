// Carcassonne tiles as SVG, drawn only from the engine's description
// (GET /games/types/carcassonne/description): which edges a city or road touches,
// which half-edges a field touches, pennants, hills, vineyards, gardens, river.
// A tile is a 100 x 100 square, north up; rotation r turns it r quarter turns clockwise.

export const NS = "http://www.w3.org/2000/svg";
export const SIZE = 100;
const EDGES = ["N", "E", "S", "W"];
const HALVES = ["NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR"];
// Perimeter points clockwise from the north-west corner: half-edge i runs from P[i] to P[i + 1].
const P = [[0, 0], [50, 0], [100, 0], [100, 50], [100, 100], [50, 100], [0, 100], [0, 50]];
const C = [50, 50];
const EDGE_MID = [[50, 0], [100, 50], [50, 100], [0, 50]];
const EDGE_ANCHOR = [[50, 14], [86, 50], [50, 86], [14, 50]];

export const COLOURS = {
  field: "#93c060", fieldEdge: "#7fae4f", city: "#e1c48f", cityShade: "#d2ad6c", wall: "#8c6a43",
  road: "#f6f1e4", roadEdge: "#a0937a", river: "#4d93d6", riverEdge: "#2f6fae", monastery: "#c0563f",
  monasteryWall: "#f2e2c4", garden: "#4f8f3a", hill: "#b7a36b", vine: "#6b3f8f", pennant: "#2f5fae",
  hedge: "#5e8a3a", grid: "rgba(0,0,0,0.18)",
};

export function el(tag, attrs = {}, children = []) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) node.setAttribute(k, v);
  for (const child of children) if (child) node.appendChild(child);
  return node;
}

/** A point of the tile in rotation 0, turned ``r`` quarter turns clockwise about the centre. */
export function turn([x, y], r) {
  for (let i = 0; i < ((r % 4) + 4) % 4; i++) [x, y] = [SIZE - y, x];
  return [x, y];
}

const fmt = ([x, y]) => `${+x.toFixed(2)} ${+y.toFixed(2)}`;
const add = (a, b) => [a[0] + b[0], a[1] + b[1]];
const sub = (a, b) => [a[0] - b[0], a[1] - b[1]];
const mul = (a, k) => [a[0] * k, a[1] * k];
const avg = (pts) => mul(pts.reduce(add, [0, 0]), 1 / pts.length);
const edgeIndex = (e) => EDGES.indexOf(e);

/** The half-edges a city holds: both halves of its own edges, and of a shared edge the half beside its own. */
function cityHalves(f) {
  const own = f.edges.map(edgeIndex);
  const halves = new Set(own.flatMap((e) => [2 * e, 2 * e + 1]));
  for (const s of (f.shared_edges || []).map(edgeIndex)) {
    if (own.includes((s + 1) % 4)) halves.add(2 * s + 1);
    else halves.add(2 * s);
  }
  return halves;
}

/** Runs of consecutive half-edges (clockwise, cyclic) as [first, last] pairs. */
function runs(halves) {
  if (halves.size === 8) return [[0, 7]];
  const out = [];
  for (let h = 0; h < 8; h++) {
    if (!halves.has(h) || halves.has((h + 7) % 8)) continue;
    let end = h;
    while (halves.has((end + 1) % 8)) end = (end + 1) % 8;
    out.push([h, end]);
  }
  return out;
}

function runPoints([first, last]) {
  const pts = [P[first]];
  for (let h = first; ; h = (h + 1) % 8) {
    pts.push(P[(h + 1) % 8]);
    if (h === last) break;
  }
  return pts;
}

/** The inner boundary between two perimeter points: bows towards the centre, or away from a corner city. */
function innerControl(from, to, run) {
  const mid = mul(add(from, to), 0.5);
  const towards = sub(C, mid);
  if (Math.hypot(...towards) < 1) return add(C, mul(sub(C, avg(run)), 0.7));
  return add(mid, mul(towards, 1.2));
}

/** Path of a city (``d``) and of its walls (the inner boundary only; the tile's own edge has none). */
export function cityGeometry(f) {
  const rs = runs(cityHalves(f));
  if (rs.length === 1 && rs[0][0] === 0 && rs[0][1] === 7) {
    return { d: "M0 0 H100 V100 H0 Z", walls: "" };
  }
  let d = "";
  let walls = "";
  rs.forEach((run, i) => {
    const pts = runPoints(run);
    d += (i === 0 ? `M${fmt(pts[0])}` : "") + pts.slice(1).map((p) => ` L${fmt(p)}`).join("");
    const next = runPoints(rs[(i + 1) % rs.length])[0];
    const end = pts[pts.length - 1];
    const ctrl = innerControl(end, next, pts);
    d += ` Q${fmt(ctrl)} ${fmt(next)}`;
    walls += `M${fmt(end)} Q${fmt(ctrl)} ${fmt(next)} `;
  });
  return { d: d + " Z", walls: walls.trim() };
}

/** Where a road or river runs: edge to edge (straight or curved), or from an edge to near the centre. */
export function linePath(edges, reach = 0.24) {
  const es = edges.map(edgeIndex);
  if (es.length === 2) {
    const [a, b] = es.map((e) => EDGE_MID[e]);
    if ((es[0] + 2) % 4 === es[1]) return `M${fmt(a)} L${fmt(b)}`;
    const ctrl = add(C, mul(sub(avg([a, b]), C), 0.4));
    return `M${fmt(a)} Q${fmt(ctrl)} ${fmt(b)}`;
  }
  const e = EDGE_MID[es[0]];
  return `M${fmt(e)} L${fmt(add(C, mul(sub(e, C), reach)))}`;
}

/** Where a figure stands on feature ``f`` of a tile in rotation 0 (turn it with :func:`turn`). */
export function anchor(tile, f) {
  if (f.kind === "city") return avg(f.edges.map((e) => EDGE_ANCHOR[edgeIndex(e)]));
  if (f.kind === "road") {
    const es = f.edges.map(edgeIndex);
    if (es.length === 1) return add(C, mul(sub(EDGE_MID[es[0]], C), 0.55));
    if ((es[0] + 2) % 4 === es[1]) return tile.features.some((g) => g.kind === "monastery") ? [50, 62] : [...C];
    const [a, b] = es.map((e) => EDGE_MID[e]);
    const ctrl = add(C, mul(sub(avg([a, b]), C), 0.4));
    return add(add(mul(a, 0.25), mul(ctrl, 0.5)), mul(b, 0.25));
  }
  if (f.kind === "field") {
    // clear of the monastery or garden drawn on the same tile
    const busy = tile.features.filter((g) => g.kind === "monastery" || g.kind === "garden")
      .map((g) => [anchor(tile, g), g.kind === "garden" ? 14 : 19]);
    const free = (p) => busy.every(([b, r]) => Math.hypot(p[0] - b[0], p[1] - b[1]) >= r);
    return fieldSpots(tile, f).find(free) || fieldSpots(tile, f)[0];
  }
  if (f.kind === "garden") return centreFree(tile) ? [...C] : fieldSpot(tile, 0, 0.5);
  return centre(tile);
}

/** Places a field's figure may stand, best first: the middle of its longest stretch of border, well inside
 * (near a corner when the stretch centres on one, since curves pass inside it), then each half-edge's middle. */
function fieldSpots(tile, f) {
  const lined = new Set([...tile.features.filter((g) => g.kind === "road").flatMap((g) => g.edges), ...tile.river]);
  const halfSpot = (h) => { const mid = avg([P[h], P[(h + 1) % 8]]); return add(mid, mul(sub(C, mid), 0.4)); };
  const stretches = runs(new Set(f.halves.map((x) => HALVES.indexOf(x))))
    .map(([a, b]) => { const hs = []; for (let h = a; ; h = (h + 1) % 8) { hs.push(h); if (h === b) break; } return hs; })
    .sort((x, y) => y.length - x.length);
  const longest = stretches[0];
  const h = longest[Math.floor(longest.length / 2)];
  const spots = [];
  if (longest.length % 2) spots.push(halfSpot(h));
  else if (h % 2 === 0) spots.push(add(P[h], mul(sub(C, P[h]), 0.22)));
  else if (!lined.has(EDGES[(h - 1) / 2])) spots.push(add(P[h], mul(sub(C, P[h]), 0.4)));
  else spots.push(halfSpot(h));
  for (const run of stretches) {
    for (let i = 1; i < run.length; i++) if (run[i] % 2 === 0) spots.push(add(P[run[i]], mul(sub(C, P[run[i]]), 0.22)));
    for (const x of run) spots.push(halfSpot(x));
  }
  return spots;
}

/** The monastery sits in the middle, or beside a river that runs through it (away from its road). */
function centre(tile) {
  if (tile.river.length === 2) {
    const road = tile.features.find((f) => f.kind === "road");
    const away = road ? (edgeIndex(road.edges[0]) + 2) % 4 : 0;
    return add(C, mul(sub(EDGE_MID[away], C), 0.4));
  }
  return [...C];
}

const deadEnds = (tile) => tile.features.filter((f) => f.kind === "road" && f.edges.length === 1);
const straight = (edges) => edges.length === 2 && (edgeIndex(edges[0]) + 2) % 4 === edgeIndex(edges[1]);

/** Nothing runs through or ends in the middle of the tile. */
function centreFree(tile) {
  if (tile.hill || tile.river.length === 1 || straight(tile.river) || deadEnds(tile).length) return false;
  if (tile.features.some((f) => f.kind === "monastery" || (f.kind === "road" && straight(f.edges)))) return false;
  return !tile.features.some((f) => f.kind === "city" && f.edges.length >= 2);
}

/** A quiet spot of field: inside the first edge that is field on both halves (for hills, vineyards, gardens). */
function fieldSpot(tile, nth = 0, inset = 0.36) {
  const quiet = [0, 1, 2, 3].filter((e) => tile.edges[e] === "F");
  if (!quiet.length) return [...C];
  const e = quiet[Math.min(nth, quiet.length - 1)];
  return add(EDGE_MID[e], mul(sub(C, EDGE_MID[e]), inset));
}

function monasteryShape(at, feature) {
  const [x, y] = at;
  return el("g", { "data-kind": "monastery", "data-feature": feature, class: "feature" }, [
    el("rect", { x: x - 13, y: y - 9, width: 26, height: 20, rx: 2, fill: COLOURS.monasteryWall, stroke: "#7d6547", "stroke-width": 1.2 }),
    el("path", { d: `M${x - 15} ${y - 8} L${x} ${y - 19} L${x + 15} ${y - 8} Z`, fill: COLOURS.monastery, stroke: "#7d3a2a", "stroke-width": 1 }),
    el("rect", { x: x - 3, y: y + 1, width: 6, height: 10, fill: "#6b4b2f" }),
    el("path", { d: `M${x} ${y - 27} V${y - 19} M${x - 3} ${y - 24} H${x + 3}`, stroke: "#5a3b26", "stroke-width": 1.4, "pointer-events": "none" }),
  ]);
}

function gardenShape(at, feature) {
  const [x, y] = at;
  const bushes = [[-6, -4], [5, -5], [0, 3], [-5, 6], [6, 5]].map(([dx, dy]) =>
    el("circle", { cx: x + dx, cy: y + dy, r: 4.5, fill: COLOURS.garden, stroke: "#2f5f22", "stroke-width": 0.8 }));
  return el("g", { "data-kind": "garden", "data-feature": feature, class: "feature" }, [
    el("circle", { cx: x, cy: y, r: 12.5, fill: "#b9d98f", stroke: "#6f9a4a", "stroke-width": 1 }), ...bushes,
  ]);
}

function pennantShape([x, y]) {
  return el("path", {
    d: `M${x - 6} ${y - 7} H${x + 6} V${y + 1} L${x} ${y + 8} L${x - 6} ${y + 1} Z`,
    fill: COLOURS.pennant, stroke: "#fff", "stroke-width": 1.2, "pointer-events": "none", class: "pennant",
  });
}

function hillShape([x, y]) {
  return el("g", { "pointer-events": "none", class: "hill" }, [
    el("ellipse", { cx: x, cy: y + 2, rx: 17, ry: 11, fill: COLOURS.hill, stroke: "#8a7644", "stroke-width": 1.2 }),
    el("ellipse", { cx: x - 5, cy: y - 2, rx: 7, ry: 3.5, fill: "#cdbb82" }),
  ]);
}

/** Hills sit where dead-end roads stop, else on a quiet spot of field. */
function hillSpot(tile) {
  return deadEnds(tile).length ? [...C] : fieldSpot(tile);
}

function vineyardShape([x, y]) {
  const rows = [-6, 0, 6].map((dy) => el("path", {
    d: `M${x - 10} ${y + dy} H${x + 10}`, stroke: COLOURS.vine, "stroke-width": 3, "stroke-dasharray": "3 2",
  }));
  return el("g", { "pointer-events": "none", class: "vineyard" }, [
    el("rect", { x: x - 13, y: y - 10, width: 26, height: 20, rx: 4, fill: "#c9b2d8", opacity: 0.9 }), ...rows,
  ]);
}

/** Fences between two different fields that meet with nothing else between them (a split field). */
function hedges(tile) {
  const fieldAt = new Array(8).fill(null);
  for (const f of tile.features) if (f.kind === "field") for (const h of f.halves) fieldAt[HALVES.indexOf(h)] = f.id;
  const lined = new Set([...tile.features.filter((f) => f.kind === "road").flatMap((f) => f.edges), ...tile.river]);
  const out = [];
  for (let k = 0; k < 8; k++) {
    const before = fieldAt[(k + 7) % 8];
    const after = fieldAt[k];
    if (!before || !after || before === after) continue;
    if (k % 2 === 1 && lined.has(EDGES[(k - 1) / 2])) continue;
    out.push(el("path", { d: `M${fmt(P[k])} L${fmt(add(P[k], mul(sub(C, P[k]), 0.72)))}`, stroke: COLOURS.hedge,
      "stroke-width": 3, "stroke-linecap": "round", "pointer-events": "none", class: "hedge" }));
  }
  return out;
}

/**
 * One tile type in rotation ``rotation`` as an SVG group in tile units (0..100).
 * Every feature's shape carries ``data-kind`` and ``data-feature`` (its engine id), so a click or a
 * test can tell what lies under a point; decorations ignore the pointer.
 */
export function drawTile(tile, rotation = 0) {
  const g = el("g", { class: "tile", "data-tile": tile.id, "data-rotation": rotation });
  const body = el("g", { transform: `rotate(${90 * rotation} 50 50)` });
  g.appendChild(body);
  body.appendChild(el("rect", { x: 0, y: 0, width: 100, height: 100, fill: COLOURS.field }));
  for (const f of tile.features.filter((x) => x.kind === "field")) {
    const d = f.halves.map((h) => {
      const i = HALVES.indexOf(h);
      return `M${fmt(P[i])} L${fmt(P[(i + 1) % 8])} L50 50 Z`;
    }).join(" ");
    body.appendChild(el("path", { d, fill: COLOURS.field, stroke: COLOURS.field, "stroke-width": 1,
      "data-kind": "field", "data-feature": f.id, class: "feature" }));
  }
  for (const h of hedges(tile)) body.appendChild(h);
  if (tile.river.length) {
    const d = linePath(tile.river);
    body.appendChild(el("path", { d, stroke: COLOURS.riverEdge, "stroke-width": 19, fill: "none", "pointer-events": "none" }));
    body.appendChild(el("path", { d, stroke: COLOURS.river, "stroke-width": 15, fill: "none", "data-kind": "river",
      "data-feature": "river", class: "river" }));
    if (tile.river.length === 1) {
      body.appendChild(el("circle", { cx: 50, cy: 50, r: 16, fill: COLOURS.river, stroke: COLOURS.riverEdge,
        "stroke-width": 2, "data-kind": "river", "data-feature": "river", class: "river" }));
    }
  }
  const roads = tile.features.filter((f) => f.kind === "road");
  const ends = deadEnds(tile);
  // a lone dead end on a tile with a city runs on into that city
  const intoCity = ends.length === 1 && !tile.hill && !tile.features.some((f) => f.kind === "monastery")
    && tile.features.some((f) => f.kind === "city");
  for (const f of roads) {
    const d = linePath(f.edges, intoCity ? -0.3 : 0.24);
    body.appendChild(el("path", { d, stroke: COLOURS.roadEdge, "stroke-width": 13, fill: "none", "pointer-events": "none" }));
    body.appendChild(el("path", { d, stroke: COLOURS.road, "stroke-width": 10, fill: "none", "stroke-linecap": "butt",
      "data-kind": "road", "data-feature": f.id, class: "feature" }));
  }
  if (ends.length >= 3) {  // a crossroads where three or four roads end
    body.appendChild(el("rect", { x: 40, y: 40, width: 20, height: 20, rx: 3, fill: "#b9825a", stroke: "#6d4a2f",
      "stroke-width": 1.5, "pointer-events": "none", class: "crossing" }));
  }
  for (const f of tile.features.filter((x) => x.kind === "city")) {
    const { d, walls } = cityGeometry(f);
    body.appendChild(el("path", { d, fill: COLOURS.city, "data-kind": "city", "data-feature": f.id, class: "feature" }));
    if (walls) body.appendChild(el("path", { d: walls, fill: "none", stroke: COLOURS.wall, "stroke-width": 3.5,
      "stroke-linecap": "round", "pointer-events": "none", class: "wall" }));
  }
  // decorations stay upright (drawn outside the rotated body at turned positions)
  const top = el("g", { class: "decor" });
  g.appendChild(top);
  for (const f of tile.features) {
    const at = turn(anchor(tile, f), rotation);
    if (f.kind === "monastery") top.appendChild(monasteryShape(at, f.id));
    if (f.kind === "garden") top.appendChild(gardenShape(at, f.id));
    if (f.kind === "city" && f.pennants) top.appendChild(pennantShape(add(at, [12, 8])));
  }
  if (tile.hill) top.insertBefore(hillShape(turn(hillSpot(tile), rotation)), top.firstChild);
  if (tile.vineyard) top.appendChild(vineyardShape(turn(fieldSpot(tile), rotation)));
  return g;
}

/** A standalone SVG of one tile (panels, tests). */
export function tileSvg(tile, rotation = 0, px = 96) {
  const svg = el("svg", { viewBox: "0 0 100 100", width: px, height: px, class: "carc-tile-svg" });
  svg.appendChild(drawTile(tile, rotation));
  svg.appendChild(el("rect", { x: 0.5, y: 0.5, width: 99, height: 99, fill: "none", stroke: COLOURS.grid, "pointer-events": "none" }));
  return svg;
}

export { EDGES, HALVES };
