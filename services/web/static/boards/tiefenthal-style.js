// The Tiefenthal board's stylesheet, adopted once (boards/style.js: the page's policy takes no style element).
// The layout answers the board's own width (a container query): the tavern and the shop side by side when there
// is room, tabs on a phone.

import { adoptStyle } from "./style.js";

const CSS = `
.tf-wrap { position: relative; }
.tf-wrap .board-tip { white-space: pre-line; }
.tf-wrap .board-tip::first-line { font-weight: 700; }
.tf [data-tip] { -webkit-touch-callout: none; -webkit-user-select: none; user-select: none; }
.tf { font: 14px/1.35 system-ui, sans-serif; color: #2a2016; display: flex; flex-direction: column; gap: 10px; }
.tf-card { background: #fffdf8; border: 1px solid #0002; border-radius: 8px; padding: 8px 10px; min-width: 0; }
.tf-prompt { font-weight: 600; margin: 0 0 6px; }
.tf-row { display: flex; flex-wrap: wrap; gap: 6px; align-items: stretch; }
.tf h3 { font-size: 13px; margin: 0 0 6px; color: #6b4a1e; text-transform: uppercase; letter-spacing: .03em; }
.tf button { font: inherit; cursor: pointer; }
.tf .target { outline: 3px dashed #e09b00; outline-offset: 1px; cursor: pointer; }
.tf .target:hover, .tf .target:focus-visible { background: #ffefc2; }
.tf-btn { min-height: 40px; padding: 5px 10px; border-radius: 6px; border: 2px solid #c98a1b; background: #fff8e6; text-align: left; }
.tf-btn.minor { border-color: #bbb; background: #f6f6f6; }
.tf-btn:disabled { opacity: .5; cursor: default; }
.tf-btn.tf-up { min-height: 28px; padding: 2px 6px; font-size: 11.5px; }
/* the decision stays in view while the player looks at the tavern, the guests or the cards */
.tf-card.tf-bar { position: sticky; top: 0; z-index: 5; max-height: 45vh; overflow-y: auto; box-shadow: 0 2px 8px #0002; }
.tf-player, .tf-card { scroll-margin-top: var(--tf-bar-h, 0px); scroll-margin-bottom: var(--tf-foot-h, 0px); }
/* a finger needs 44 x 44 CSS px (WCAG 2.5.5) */
@media (pointer: coarse) {
  .tf-btn, .tf-btn.tf-up { min-height: 44px; min-width: 44px; }
  .tf-dicebox button.tf-die { width: 44px; height: 44px; font-size: 19px; }
}
.tf-status { display: flex; flex-wrap: wrap; gap: 4px 14px; align-items: baseline; }
.tf-phase { font-weight: 700; font-size: 15px; }
.tf-wait { color: #6b655c; }
.tf-die { display: inline-flex; align-items: center; justify-content: center; width: 30px; height: 30px; border-radius: 6px;
  border: 2px solid #0007; background: #fff; font-weight: 800; font-size: 16px; user-select: none; position: relative; }
.tf-die.col { color: #fff; }
.tf-die.sel { box-shadow: 0 0 0 3px #e0006a; }
.tf-die .boost { position: absolute; top: -8px; right: -8px; background: #1d6fa5; color: #fff; border-radius: 8px;
  font-size: 10px; padding: 0 3px; }
.tf-dicebox { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; min-height: 34px; }
.tf-dicebox button.tf-die { padding: 0; }
.tf-players { display: grid; grid-template-columns: minmax(0, 1fr); gap: 10px; }
.tf-player { border-left: 6px solid var(--pc); }
.tf-player > header { display: flex; flex-wrap: wrap; gap: 4px 12px; align-items: center; margin-bottom: 6px; }
.tf-name { font-weight: 700; }
.tf-stat { font-variant-numeric: tabular-nums; white-space: nowrap; }
.tf-tiles { display: grid; grid-template-columns: repeat(auto-fill, minmax(118px, 1fr)); gap: 6px; }
.tf-tile { border: 1px solid #c9b48e; border-radius: 6px; padding: 4px 6px; background: #f6ecd6; min-height: 74px;
  display: flex; flex-direction: column; gap: 3px; text-align: left; }
.tf-tile.up { background: #e7d3a6; border-color: #8a6a2a; }
.tf-tile .lbl { font-weight: 700; font-size: 12.5px; }
.tf-tile .val { font-size: 12px; }
.tf-tile .val b { font-size: 14px; }
.tf-tile .acc { font-size: 11.5px; color: #5b4a33; }
.tf-tables { display: grid; grid-template-columns: repeat(auto-fill, minmax(104px, 1fr)); gap: 6px; margin-top: 6px; }
.tf-guest { border: 1px solid #8fa3b8; border-radius: 6px; padding: 4px 6px; background: #eef3f8; font-size: 12px;
  display: flex; flex-direction: column; gap: 2px; min-height: 64px; text-align: left; }
.tf-guest.noble { background: #f3e8fb; border-color: #9a6fbf; }
.tf-guest.regular { background: #f4f4ef; border-color: #aaa; }
.tf-guest .nm { font-weight: 700; font-size: 12.5px; }
.tf-guest.empty { background: repeating-linear-gradient(45deg, #fafafa, #fafafa 6px, #f0f0f0 6px, #f0f0f0 12px); color: #888; }
.tf-staff { display: flex; flex-wrap: wrap; gap: 4px; margin-top: 6px; font-size: 12px; }
.tf-chip { border: 1px solid #0003; border-radius: 10px; padding: 1px 8px; background: #fff; white-space: nowrap; }
.tf-track { display: grid; gap: 3px; }
.tf-track.round { grid-template-columns: repeat(8, minmax(0, 1fr)); }
.tf-track.mon { grid-template-columns: repeat(23, minmax(26px, 1fr)); min-width: 620px; }
.tf-scroll { overflow-x: auto; }
.tf-cell { border: 1px solid #c9b48e; border-radius: 4px; padding: 2px; font-size: 11px; text-align: center; background: #fff;
  min-height: 40px; display: flex; flex-direction: column; align-items: center; gap: 1px; }
.tf-cell.now { background: #ffe29a; border-color: #b07d00; font-weight: 700; }
.tf-cell.bonus { background: #efe6fa; }
.tf-pawn { width: 10px; height: 10px; border-radius: 50%; display: inline-block; border: 1px solid #0008; }
.tf-muted { color: #6b655c; font-size: 12px; }
.tf-sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.tf-drop { box-shadow: 0 0 0 3px #1d6fa5 inset; }

/* the decision area: the player's tavern and the shop side by side where there is room (a laptop), one of
   them at a time behind the tabs on a phone; the other taverns and the tracks after them */
.tf-wrap { container-type: inline-size; }
.tf-main { display: grid; grid-template-columns: minmax(0, 1fr); gap: 10px; align-items: start; }
.tf-others { display: grid; grid-template-columns: minmax(0, 1fr); gap: 10px; }
@container (min-width: 640px) {
  .tf-main { grid-template-columns: minmax(0, 1.15fr) minmax(0, 1fr); }
}
.tf-tabs { display: none; }
@container (max-width: 639px) {
  .tf-tabs { display: flex; position: sticky; top: 0; z-index: 6; gap: 4px; padding: 4px; margin: 0 -2px;
    background: #f3ead8f2; border-radius: 8px; box-shadow: 0 2px 6px #0002; }
  .tf-panel:not(.on) { display: none; }
  .tf-tiles { grid-template-columns: repeat(3, minmax(0, 1fr)); }
  .tf-tables { grid-template-columns: repeat(3, minmax(0, 1fr)); }
  /* the totals on one line (swiped sideways), so the tiles and tables fit under the tabs with the bar */
  .tf-player > header { font-size: 12px; gap: 2px 10px; flex-wrap: nowrap; overflow-x: auto; margin-bottom: 4px; }
  .tf-player > header > * { flex: none; }
  .tf-tile { padding: 3px 5px; gap: 1px; }
  .tf-tile .lbl, .tf-guest .nm { font-size: 12px; }
  .tf-card.tf-player { padding: 6px 6px 6px 8px; }
  .tf-tiles, .tf-tables { gap: 4px; }
  .tf-tables { margin-top: 4px; }
  .tf-guest { min-height: 0; padding: 3px 5px; gap: 1px; }
  .tf-own { margin-bottom: 4px; }
  .tf-tile .val .tf-muted { display: none; } /* the sides: in the tip */
  .tf-tile .val, .tf-tile .acc { font-size: 11px; line-height: 1.25; }
}
.tf-tab { flex: 1 1 0; min-height: 40px; white-space: nowrap; padding: 0 4px; border: 1px solid #c9b48e; border-radius: 6px; background: #fffdf8; font-weight: 600; }
.tf-tab.on { background: #6b4a1e; color: #fff; border-color: #6b4a1e; }
.tf-tab .n { display: inline-block; min-width: 1.3em; margin-left: 4px; border-radius: 9px; background: #e09b00; color: #fff; font-size: 12px; }
.tf-tab.on .n { background: #fff; color: #6b4a1e; }
@media (pointer: coarse) { .tf-tab, .tf-offer { min-height: 44px; } }
.tf-shopcard h3 .tf-muted { text-transform: none; letter-spacing: 0; font-weight: 400; margin-left: 6px; }
.tf-shopcard > div + div { margin-top: 8px; }
.tf-shop { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 5px; }
.tf .tf-offer { border: 1px solid #0002; border-radius: 6px; padding: 3px 6px; background: #fff; font-size: 11.5px; text-align: left;
  display: grid; grid-template-columns: auto minmax(0, 1fr); column-gap: 6px; align-items: baseline; line-height: 1.25; }
.tf-offer .price { grid-row: span 2; font-weight: 800; font-size: 13px; color: #6b4a1e; white-space: nowrap; }
.tf .tf-offer .nm { font-weight: 700; font-size: 12.5px; }
.tf-offer .what { overflow: hidden; display: -webkit-box; -webkit-line-clamp: 2; -webkit-box-orient: vertical; }
.tf-tile { min-height: 0; }
.tf-own { display: flex; flex-wrap: wrap; gap: 6px 12px; align-items: center; margin-bottom: 6px; }
.tf-own .tf-muted { margin: 0; }
`;

export function injectStyle() {
  adoptStyle("tf-style", CSS);
}
