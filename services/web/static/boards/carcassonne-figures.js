// Carcassonne's figures as SVG: follower (standing, or lying as a farmer), shepherd with its crook and flock
// count, abbot; and a small standalone figure for the supply lines.
import { el } from "./carcassonne-tiles.js";

const sum = (xs) => xs.reduce((a, b) => a + b, 0);

// -- figure shapes (drawn upright, centred on 0 0) -----------------------------------
const MEEPLE = "M0 -15 a5 5 0 1 1 -0.01 0 Z M-4 -6 H4 L12 -1 L10 3 L5 1 L8 12 H2 L0 7 L-2 12 H-8 L-5 1 L-10 3 L-12 -1 Z";
const ABBOT = "M0 -16 a5 5 0 1 1 -0.01 0 Z M-5 -7 H5 L7 -2 L11 13 H-11 L-7 -2 Z";

export function figureShape(kind, colour, extra = {}) {
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

export function flockBadge(flock) {
  const total = sum(flock);
  return el("g", { class: "flock", "pointer-events": "none", transform: "translate(14 10)" }, [
    el("circle", { r: 9, fill: "#fff", stroke: "#333", "stroke-width": 1.5 }),
    Object.assign(el("text", { "text-anchor": "middle", y: 4.5, "font-size": 13, "font-weight": 700, fill: "#222",
      class: "flock-count" }), { textContent: String(total) }),
  ]);
}

export function miniFigure(kind, colour, size = 18) {
  const svg = el("svg", { viewBox: "-14 -22 28 36", width: size, height: size * 36 / 28 });
  svg.appendChild(figureShape(kind, colour));
  return svg;
}
