// The Carcassonne board's stylesheet, adopted once (the board module has no stylesheet file of its own).
import { adoptStyle } from "./style.js";


const CSS = `
.carc { display: flex; gap: 12px; width: 100%; height: 100%; min-height: 480px; font: 14px/1.35 system-ui, sans-serif; color: #222; }
.carc-boardwrap { position: relative; flex: 1 1 auto; min-width: 0; min-height: 420px; background: #5b7a3c;
  border-radius: 8px; overflow: hidden; touch-action: none; user-select: none; }
.carc-svg { width: 100%; height: 100%; display: block; cursor: grab; }
.carc-svg.dragging { cursor: grabbing; }
.carc-zoom { position: absolute; right: 8px; top: 8px; display: flex; flex-direction: column; gap: 4px; }
.carc-zoom button { width: 34px; height: 34px; font-size: 18px; border-radius: 6px; border: 1px solid #0004; background: #fffd; cursor: pointer; }
@media (pointer: coarse) { .carc-zoom button { width: 44px; height: 44px; min-height: 44px; padding: 0; } }
.carc .carc-hotspot.staged .hotspot { fill: #ffd23c; stroke: #000; stroke-width: 3.5; }
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
.carc .target.completes { stroke: #ffe066; stroke-dasharray: 4 4; stroke-width: 5; }
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

export function injectStyle() {
  adoptStyle("carc-style", CSS);
}
