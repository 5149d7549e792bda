// How to play: each game's guide (services/web/static/howto/<game>.js, one catalog per game) drawn as an article,
// the page at #/rules/<game>, and the Help panel the game page opens beside the board.
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { locale, t } from "./i18n.js"; // the article's chrome; the guide's own words come in the page's language
import { html } from "./html.js";
import { get } from "./api.js";
import { seatColour } from "./ui.js";

const GUIDES = ["carcassonne", "heaven-and-ale", "tiefenthal"];
const loaded = {};

/** The guide of ``game`` (a module's default export), or null for a game without one. */
export function loadGuide(game) {
  if (!GUIDES.includes(game)) return Promise.resolve(null);
  // the guide in the page's language when there is one (howto/<game>.<locale>.js), else the English one
  const lang = locale();
  const key = `${game}:${lang}`;
  loaded[key] ||= (lang === "en" ? Promise.reject(new Error("en")) : import(`../howto/${game}.${lang}.js`))
    .catch(() => import(`../howto/${game}.js`)).then((m) => m.default);
  return loaded[key];
}

export function useGuide(game) {
  const [guide, setGuide] = useState(undefined); // undefined: loading; null: none
  useEffect(() => {
    let gone = false;
    loadGuide(game).then((g) => !gone && setGuide(g)).catch(() => !gone && setGuide(null));
    return () => { gone = true; };
  }, [game]);
  return guide;
}

export const hasGuide = (game) => GUIDES.includes(game);

function Block({ block }) {
  if (block.p) return html`<p>${block.p}</p>`;
  if (block.steps) return html`<ol class="steps">${block.steps.map((s) => html`<li>${s}</li>`)}</ol>`;
  if (block.list) return html`<ul>${block.list.map((s) => html`<li>${s}</li>`)}</ul>`;
  if (block.terms) {
    return html`<dl class="terms">${block.terms.map(([term, text]) => html`<dt>${term}</dt><dd>${text}</dd>`)}</dl>`;
  }
  if (block.table) {
    return html`<div class="table-scroll"><table class="howto-table">
      <thead><tr>${block.table.head.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead>
      <tbody>${block.table.rows.map((row) => html`<tr>${row.map((cell, i) => (i === 0 ? html`<th scope="row">${cell}</th>` : html`<td>${cell}</td>`))}</tr>`)}</tbody>
    </table></div>`;
  }
  if (block.example) {
    const ex = block.example;
    return html`<div class="example" data-example="1"><h4>${ex.title}</h4>
      <ol>${ex.lines.map((l) => html`<li>${l}</li>`)}</ol>
      <p class="total"><strong>${ex.total}</strong></p></div>`;
  }
  if (block.figure) return html`<${Figure} figure=${block.figure} />`;
  return null;
}

// A picture drawn with the board's own pieces (Carcassonne's tiles from the engine's description).
function Figure({ figure }) {
  const box = useRef(null);
  useEffect(() => {
    if (figure.kind !== "carcassonne") return undefined;
    let gone = false;
    Promise.all([import("../boards/carcassonne-tiles.js"), get("/games/types/carcassonne/description")])
      .then(([tiles, description]) => {
        if (!gone && box.current) box.current.replaceChildren(carcassonneScene(tiles, description, figure.scene));
      })
      .catch(() => {}); // the caption still says it in words
    return () => { gone = true; };
  }, [figure]);
  return html`<figure class="howto-figure"><div class="figure-art" ref=${box} aria-hidden="true"></div>
    <figcaption>${figure.caption}</figcaption></figure>`;
}

function carcassonneScene({ el, drawTile, SIZE }, description, scene) {
  const cells = [...scene.tiles, ...(scene.empty || [])];
  const xs = cells.map((t) => t.x);
  const ys = cells.map((t) => t.y);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const width = (maxX - minX + 1) * SIZE;
  const height = (maxY - minY + 1) * SIZE;
  const svg = el("svg", { viewBox: `-2 -2 ${width + 4} ${height + 4}`, class: "carc-scene",
    style: `max-width:${Math.min(width, 360) * 0.9}px` });
  const origin = (t) => [(t.x - minX) * SIZE, (maxY - t.y) * SIZE]; // north is up
  for (const t of scene.tiles) {
    const tile = description.tiles[t.id];
    if (!tile) continue;
    const [x, y] = origin(t);
    svg.appendChild(el("g", { transform: `translate(${x} ${y})` }, [drawTile(tile, t.r || 0),
      el("rect", { x: 0.5, y: 0.5, width: SIZE - 1, height: SIZE - 1, fill: "none", stroke: "rgba(0,0,0,0.25)" })]));
  }
  for (const t of scene.empty || []) {
    const [x, y] = origin(t);
    svg.appendChild(el("rect", { x: x + 4, y: y + 4, width: SIZE - 8, height: SIZE - 8, fill: "none", stroke: "#8a4b08",
      "stroke-width": 3, "stroke-dasharray": "8 6", rx: 6 }));
  }
  for (const f of scene.figures || []) {
    const [x, y] = origin(f);
    const [fx, fy] = [x + f.at[0], y + f.at[1]];
    // a meeple: head and body
    svg.appendChild(el("path", { d: `M${fx - 11} ${fy + 12} L${fx - 4} ${fy - 2} A6 6 0 1 1 ${fx + 4} ${fy - 2} L${fx + 11} ${fy + 12} Z`,
      fill: seatColour(f.seat), stroke: "#fff", "stroke-width": 2 }));
  }
  return svg;
}

/** The whole guide: at a glance, contents, each section, and the site's rule choices as an appendix. */
export function HowToArticle({ guide, compact = false }) {
  if (!guide) return null;
  const H = compact ? "h3" : "h2";
  return html`<article class="howto" data-game=${guide.game}>
    <p class="tagline">${guide.tagline}</p>
    <dl class="glance">${guide.glance.map(([k, v]) => html`<div><dt>${k}</dt><dd>${v}</dd></div>`)}</dl>
    <nav class="howto-toc" aria-label=${t("Sections")}>
      ${guide.sections.map((s) => html`<a href=${`#howto-${s.id}`} onClick=${(e) => jump(e, s.id)}>${s.title}</a>`)}
      <a href="#howto-choices" onClick=${(e) => jump(e, "choices")}>${t("Rule choices")}</a>
    </nav>
    ${guide.sections.map((s) => html`<section id=${`howto-${s.id}`} data-section=${s.id} aria-labelledby=${`howto-${s.id}-h`}>
      <${H} id=${`howto-${s.id}-h`}>${s.title}<//>
      ${s.blocks.map((b) => html`<${Block} block=${b} />`)}
    </section>`)}
    <section id="howto-choices" data-section="choices" aria-labelledby="howto-choices-h" class="appendix">
      <${H} id="howto-choices-h">${t("Appendix: rule choices on this site")}<//>
      <p>${guide.choices.intro}</p>
      <div class="table-scroll"><table class="howto-table">
        <thead><tr><th scope="col">${t("Question")}</th><th scope="col">${t("What Taproom does")}</th></tr></thead>
        <tbody>${guide.choices.rows.map(([q, a]) => html`<tr><th scope="row">${q}</th><td>${a}</td></tr>`)}</tbody>
      </table></div>
    </section>
  </article>`;
}

// In-page links: the route lives in the hash, so a section is scrolled to rather than navigated to.
function jump(event, id) {
  event.preventDefault();
  const target = event.currentTarget.closest(".howto")?.querySelector(`#howto-${id}`);
  target?.scrollIntoView({ behavior: "smooth", block: "start" });
}

/** The Help panel: the guide beside the board (a full-height sheet on a phone); the game stays as it is. */
export function HelpPanel({ game, title, onClose }) {
  const guide = useGuide(game);
  const closeButton = useRef(null);
  // before the browser paints the panel: an Escape pressed as soon as it shows must close it
  useLayoutEffect(() => {
    closeButton.current?.focus();
    const onKey = (e) => e.key === "Escape" && onClose();
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
  return html`<aside class="help-panel" role="dialog" aria-modal="false" aria-labelledby="help-h">
    <div class="help-head">
      <h2 id="help-h">${title ? t("How to play: {game}", { game: title }) : t("How to play")}</h2>
      <button type="button" class="help-close" ref=${closeButton} onClick=${onClose}
        aria-label=${t("Close how to play")}>${t("Close")}</button>
    </div>
    <div class="help-body">
      ${guide === undefined ? html`<p class="loading">${t("Loading…")}</p>`
        : guide === null ? html`<p>${t("There is no guide for this game yet.")}</p>`
        : html`<${HowToArticle} guide=${guide} compact=${true} />`}
    </div>
  </aside>`;
}

/** The Help button and its panel, for the game page's head. */
export function HelpButton({ game, title }) {
  const [open, setOpen] = useState(false);
  const button = useRef(null);
  if (!hasGuide(game)) return null;
  const close = () => { setOpen(false); button.current?.focus(); };
  return html`<button type="button" class="help-button" ref=${button} aria-expanded=${open ? "true" : "false"}
      onClick=${() => setOpen(!open)}>${t("Help: how to play")}</button>
    ${open ? html`<${HelpPanel} game=${game} title=${title} onClose=${close} />` : null}`;
}
