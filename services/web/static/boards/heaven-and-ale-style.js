// The Heaven & Ale board's stylesheet (adopted once per page).
import { adoptStyle } from "./style.js";

const CSS = `
.ha-wrap { position: relative; }
.ha-wrap .board-tip { white-space: pre-line; }
.ha-wrap .board-tip::first-line { font-weight: 700; }
.ha [data-tip] { -webkit-touch-callout: none; -webkit-user-select: none; user-select: none; }
.ha { font: 14px/1.35 system-ui, sans-serif; color: #231d14; display: flex; flex-direction: column; gap: 10px; }
.ha-card { background: #fff; border: 1px solid #0002; border-radius: 8px; padding: 8px 10px; min-width: 0; }
/* the decision stays in view while the player looks at the track or the garden */
.ha-card.ha-bar { position: sticky; top: 0; z-index: 5; max-height: 45vh; overflow-y: auto; box-shadow: 0 2px 8px #0002; }
/* the track and the garden of the seat that acts, side by side when there is room */
.ha-main { display: grid; grid-template-columns: minmax(0, 1fr); gap: 10px; }
.ha-wide-layout .ha-main { grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); align-items: start; }
.ha-own, .ha-trackcard, .ha-card { scroll-margin-top: var(--ha-bar-h, 0px); scroll-margin-bottom: var(--ha-foot-h, 0px); }
.ha-own .ha-garden { max-width: none !important; }

.ha-prompt { font-weight: 600; margin: 0 0 6px; }
.ha-actions { display: flex; flex-wrap: wrap; gap: 6px; }
.ha-actions button { min-height: 44px; min-width: 44px; padding: 5px 10px; border-radius: 6px; border: 2px solid #c98a1b; background: #fff8e6;
  cursor: pointer; font: inherit; text-align: left; }
.ha-actions button:hover { background: #ffe9b3; }
.ha-actions button.chosen { background: #f0b400; }
.ha-actions button.minor { border-color: #bbb; background: #f6f6f6; font-size: 12px; }
.ha-actions button:disabled { opacity: .5; }
.ha-coins { margin-top: 6px; font-size: 12.5px; }
.ha-coins > summary { cursor: pointer; color: #6b655c; min-height: 44px; display: flex; align-items: center; }
.ha-gain { color: #1b6b33; font-size: 12px; display: block; }
.ha-trackwrap, .ha-scroll { overflow-x: auto; }
.ha-track { display: block; width: 100%; height: auto; }
.ha svg text { font-family: system-ui, sans-serif; }
.ha .target { cursor: pointer; }
.ha .target > .hit, .ha .target.hit { stroke: #f0b400; stroke-width: 4; stroke-dasharray: 8 4; }
.ha .target:hover > .hit, .ha .target.hit:hover { fill: #fff1c2; }
.ha .hl polygon { stroke: #e0006a; stroke-width: 4; }
.ha-players { display: flex; flex-direction: column; gap: 8px; }
.ha-player > summary { cursor: pointer; list-style: none; min-height: 44px; display: flex; flex-wrap: wrap; gap: 4px 12px; align-items: center; }
.ha-player > summary::-webkit-details-marker { display: none; }
.ha-player > summary::before { content: "▸"; color: #888; }
.ha-player[open] > summary::before { content: "▾"; }
.ha-swatch { width: 14px; height: 14px; border-radius: 50%; border: 1px solid #0006; display: inline-block; }
.ha-name { font-weight: 700; }
.ha-stat { font-variant-numeric: tabular-nums; }
.ha-board { display: grid; grid-template-columns: minmax(0, 1fr); gap: 8px; margin-top: 6px; }
.ha-board.split { grid-template-columns: minmax(0, 5fr) minmax(0, 4fr); }
.ha-garden { width: 100%; height: auto; display: block; }
.ha-glance { flex-basis: 100%; display: flex; gap: 10px; align-items: flex-start; }
.ha-mini { flex: 0 0 150px; }
.ha-glance .ha-facts { flex: 1; min-width: 0; }
.ha-prod { width: 100%; min-width: 520px; height: auto; display: block; }
.ha-wide { grid-column: 1 / -1; min-width: 0; }
.ha-facts { font-size: 12.5px; display: flex; flex-wrap: wrap; gap: 2px 12px; }
.ha-facts b { font-weight: 600; }
.ha-road { width: 100%; min-width: 480px; height: auto; display: block; }
.ha-muted { color: #6b655c; font-size: 12px; }
.ha-sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
@media (max-width: 700px) { .ha-board.split { grid-template-columns: minmax(0, 1fr); } }
`;

export function injectStyle() {
  adoptStyle("ha-style", CSS);
}
