// The Taverns of Tiefenthal (Module 1) board: every player's tavern (tiles and their action spaces, tables with
// guests and nobles, tavern cards placed this round, dice, safe and storage), the dice draft, the guest display
// and card supply, the round and monastery tracks, and the final sheet. Drawn from the engine's description and
// the seat's view; every move is offered from the legal commands (nothing about the rules is decided here).
// Contract: mount(root, ctx) -> { update(state), destroy() } (services/web/README.md).

import { redraw } from "./redraw.js";
import { bringIntoView } from "./in-view.js";
import { attachTips } from "./tooltip.js";
import { attachTipKeys, tipAttr } from "./tip-keys.js";
import { injectStyle } from "./tiefenthal-style.js";
import { bonusText, diceText, esc, gainText, learnWords, plural, words } from "./tiefenthal-words.js";
import { shopMarkup } from "./tiefenthal-shop.js";
import { tracksMarkup } from "./tiefenthal-tracks.js";
import { markTabs, panelFor, showPanel, tabsMarkup } from "./tiefenthal-panels.js";

export { bonusText, describe, wordsReady } from "./tiefenthal-words.js";

const FALLBACK_COLOURS = { red: "#c0392b", blue: "#2e6fc1", green: "#2e8b57", yellow: "#d4a017" };

export function mount(root, ctx) {
  injectStyle();
  // the tips live in a wrapper the redraws never replace (tooltip.js places its tip inside the container)
  const wrap = document.createElement("div");
  wrap.className = "tf-wrap";
  const el = document.createElement("div");
  el.className = "tf";
  el.dataset.testid = "tf-board";
  wrap.appendChild(el);
  root.appendChild(wrap);
  const tips = attachTips(wrap);
  const keys = attachTipKeys(el);
  let desc = null;
  let state = null;
  let selected = null; // a die id chosen to place (click) or being dragged
  let pending = false;
  let barContent = null; // what the frame's action bar shows for this decision (set by actionsCard)
  let shopButtons = []; // the decision's buttons that go in the shop (nobles) and in the tavern (counter guest)
  let tavernButtons = [];
  let panel = "tavern"; // the panel shown on a phone (tiefenthal-panels.js); all of them where there is room

  let descError = null;
  ctx.api.description().then((d) => { desc = d; learnWords(d); render(); })
    .catch((err) => { descError = err; render(); });

  const nameOf = (seat) => ctx.seatInfo?.[seat]?.name || `Seat ${seat + 1}`;
  const colourOf = (seat, v) => ctx.seatInfo?.[seat]?.colour
    || FALLBACK_COLOURS[v?.players?.[seat]?.colour] || "#888";
  const cardNames = () => words.types; // learnt with the description (learnWords), shared with the move log
  const tileOf = (id) => desc?.tavern?.tiles?.find((t) => t.id === id);
  const phaseLabel = (p) => words.phases[p] || `Phase ${p}`;
  const find = (pred) => legal().findIndex(pred);
  const board = { find, cardNames, nameOf, colourOf };
  // a phone-sized board (the stylesheet's tabs): the bar's prompt stays short there, the spaces say the rest
  const narrow = () => el.clientWidth > 0 && el.clientWidth < 640;

  // -- commands ---------------------------------------------------------------------------------------------
  const legal = () => (state && !state.readOnly ? state.legal || [] : []);

  async function submit(index) {
    if (pending || index < 0) return;
    const command = legal()[index];
    pending = true;
    const chosen = selected;
    selected = null;
    render();
    try {
      await ctx.api.submit(command);
    } catch (err) {
      // the frame shows the error; a move taken back before it was sent (move confirmation) leaves the die chosen
      if (err?.code === "cancelled") selected = chosen;
    } finally { pending = false; render(); }
  }

  // Buttons and targets carry data-cmd (an index into legal) or data-die (a selection, no command yet).
  el.addEventListener("click", (e) => {
    const tab = e.target.closest("[data-tab]");
    if (tab && el.contains(tab)) { panel = tab.dataset.tab; showPanel(el, panel); return; }
    const t = e.target.closest("[data-cmd], [data-select]");
    if (!t || !el.contains(t)) return;
    if (t.dataset.cmd !== undefined) { submit(+t.dataset.cmd); return; }
    const die = +t.dataset.select;
    selected = selected === die ? null : die;
    render();
  });
  el.addEventListener("keydown", (e) => {
    if ((e.key === "Enter" || e.key === " ") && e.target.matches("[data-cmd]:not(button), [data-select]:not(button)")) {
      e.preventDefault();
      e.target.click();
    }
  });
  // Drag a die onto a highlighted space: the same PlaceDie command as clicking.
  el.addEventListener("dragstart", (e) => {
    const d = e.target.closest?.("[data-select]");
    if (!d) return;
    selected = +d.dataset.select;
    e.dataTransfer.setData("text/plain", d.dataset.select);
    e.dataTransfer.effectAllowed = "move";
    requestAnimationFrame(render);
  });
  el.addEventListener("dragover", (e) => {
    const t = e.target.closest?.("[data-space-cmd]");
    if (t) { e.preventDefault(); t.classList.add("tf-drop"); }
  });
  el.addEventListener("dragleave", (e) => { e.target.closest?.("[data-space-cmd]")?.classList.remove("tf-drop"); });
  el.addEventListener("drop", (e) => {
    const t = e.target.closest?.("[data-space-cmd]");
    if (!t) return;
    e.preventDefault();
    t.classList.remove("tf-drop"); // a refused drop redraws nothing (same drawing): the mark must go here
    const die = +e.dataTransfer.getData("text/plain");
    submit(find((c) => c.type === "PlaceDie" && c.die === die && c.space === t.dataset.space));
  });

  // -- drawing ----------------------------------------------------------------------------------------------
  function render() {
    if (!state || !state.view) { redraw(el, `<p class="tf-muted">Loading…</p>`); return; }
    const v = state.view;
    if (!desc) {
      redraw(el, descError ? `<p role="alert">The board description could not be loaded (${esc(descError.message || descError)}); reload the page.</p>`
        : `<p class="tf-muted">Loading the board…</p>`);
      return;
    }
    if (selected !== null && !legal().some((c) => c.type === "PlaceDie" && c.die === selected)
        && !legal().some((c) => c.type === "TakeDie" && c.die === selected)) selected = null;
    const me = v.you !== null && v.you !== undefined ? v.you : null;
    const order = me === null ? v.players.map((p) => p.seat) : [me, ...v.players.map((p) => p.seat).filter((s) => s !== me)];
    const mine = me === null ? [] : [me];
    const others = order.filter((s) => s !== me);
    // a spectator has no tavern of their own: the first tavern stands in the tavern panel
    const own = mine.length ? mine : order.slice(0, 1);
    const cards = (seats) => seats.map((s) => playerCard(v, v.players[s], s === me)).join("");
    redraw(el, `
      ${statusCard(v)}
      ${actionsCard(v)}
      ${v.phase === "D" ? draftCard(v) : ""}
      ${tabsMarkup(panel)}
      <div class="tf-main">
        <div class="tf-panel tf-players ${panel === "tavern" ? "on" : ""}" data-panel="tavern">${cards(own)}</div>
        <div class="tf-panel ${panel === "shop" ? "on" : ""}" data-panel="shop">${shopMarkup(v, desc, board, shopButtons)}</div>
      </div>
      <div class="tf-panel tf-others ${panel === "others" ? "on" : ""}" data-panel="others">
        <div class="tf-players">${cards(own === mine ? others : order.slice(1))}</div>
        ${tracksMarkup(v, desc, board)}
      </div>
      <p class="tf-sr" aria-live="polite">${esc(summary(v))}</p>`);
    if (barContent) ctx.bar?.set(barContent); else ctx.bar?.clear();
    tips.refresh();
    keys.refresh();
    const counts = markTabs(el);
    const bar = el.querySelector(".tf-bar");
    el.style.setProperty("--tf-bar-h", `${bar ? bar.offsetHeight + 6 : 0}px`);
    // after the frame has drawn the action bar for this decision (its height decides the room left above it)
    requestAnimationFrame(() => bringDecisionIntoView(counts));
  }

  // After a choice the next one must be in view without hunting: once per decision, when none of the highlighted
  // targets outside the sticky prompt is on screen, the first one's card is scrolled into view.
  let broughtFor = null;
  function bringDecisionIntoView(counts) {
    if (!legal().length || !el.isConnected) return;
    const key = `${state.version}:${selected}`;
    if (key === broughtFor) return;
    broughtFor = key;
    // on a phone, the panel this decision needs (the player may turn to another one until the next decision)
    const next = panelFor(el, counts, panel, selected !== null);
    if (next !== panel) { panel = next; showPanel(el, panel); }
    // a sticky prompt card (no action bar) or the phone's sticky tabs stay on screen by themselves: the rest
    // must fit under them
    const sticky = [el.querySelector(".tf-bar"), el.querySelector(".tf-tabs")].filter((n) => n?.getClientRects().length);
    const targets = [...el.querySelectorAll(".target")].filter((n) => !sticky.some((s) => s.contains(n)));
    const top = sticky.reduce((sum, n) => sum + n.offsetHeight, 0);
    el.style.setProperty("--tf-foot-h", `${bringIntoView(targets, top) + 6}px`);
  }

  function statusCard(v) {
    const waiting = v.to_act.filter((s) => s !== v.you);
    const simultaneous = desc.phases.find((p) => p.id === v.phase)?.simultaneous;
    let who = "";
    if (v.phase === "end") who = "The game is over.";
    else if (simultaneous && v.to_act.length) who = `Still deciding: ${v.to_act.map((s) => esc(nameOf(s))).join(", ")}`;
    else if (v.to_act.length) who = `${esc(nameOf(v.to_act[0]))} to act`;
    const planning = v.phase === "E" ? v.players.map((p) => `<span class="tf-chip" data-testid="tf-planning-${p.seat}">${esc(nameOf(p.seat))}: ${p.planned ? "ready" : "planning…"}</span>`).join(" ") : "";
    return `<section class="tf-card tf-status" aria-label="Round and phase" data-testid="tf-status">
      <span class="tf-phase">Round ${v.round} of ${v.rounds} · ${esc(phaseLabel(v.phase))}</span>
      <span>Start player: ${esc(nameOf(v.start_player))}</span>
      <span class="tf-wait" data-testid="tf-waiting">${who}</span>
      ${planning}
      ${waiting.length && v.to_act.includes(v.you) ? `<span class="tf-muted">(you need not wait for them)</span>` : ""}
    </section>`;
  }

  function btn(index, text, kind, extra = "") {
    return `<button type="button" class="tf-btn target ${extra}" data-cmd="${index}" data-kind="${kind}">${text}</button>`;
  }

  function actionsCard(v) {
    const cmds = legal();
    barContent = null;
    shopButtons = [];
    tavernButtons = [];
    if (!cmds.length) return "";
    const me = v.players[v.you];
    const out = [];
    const done = []; // the Done-style buttons: the frame's action bar holds them when there is one
    const end = (i, label, kind, primary = false) => done.push({ i, label, kind, primary });
    let prompt = "";
    const names = cardNames();
    if (cmds.some((c) => c.type === "ChooseBonus")) {
      prompt = "Choose your bonus.";
      const opts = me.pending_choices[0] || [];
      const labels = Object.fromEntries(desc.tavern.tiles.map((t) => [t.id, t.label]));
      cmds.forEach((c, i) => { if (c.type === "ChooseBonus") out.push(btn(i, esc(bonusText(opts[c.option], names, labels)), "choice")); });
    } else if (v.phase === "B") {
      prompt = "Keep your tavern, or spend a counter guest to clear it and draw again.";
      cmds.forEach((c, i) => {
        if (c.type === "KeepTavern") end(i, "Keep the tavern", "keep", true);
        if (c.type === "RedrawTavern") end(i, "Redraw (spend a counter guest)", "redraw");
      });
    } else if (v.phase === "D") {
      const values = cmds.filter((c) => c.type === "PickDie").map((c) => c.value);
      prompt = `Pick a die from the coaster in front of you (highlighted: ${values.join(", ")}): it becomes one of your white dice this round.`;
    } else if (v.phase === "E") {
      prompt = selected === null ? "Plan: pick a die (or drag it) and put it on a highlighted space. Finish when done."
        : narrow() ? "Put the chosen die on a highlighted space (each shows what taking it off gives)."
          : `Put the chosen die on a highlighted space; taking it off in your turn gives: ${placesFor(me, cmds)}.`;
      cmds.forEach((c, i) => { if (c.type === "FinishPlanning") end(i, "Finish planning", "finish"); });
    } else if (v.phase === "F") {
      prompt = selected === null ? "Your turn: take dice off their spaces to collect, buy, recruit and upgrade; then end the turn."
        : "Take the chosen die, or move it to a highlighted space.";
      const take = cmds.findIndex((c) => c.type === "TakeDie" && c.die === selected);
      if (take >= 0) {
        const d = me.dice.find((x) => x.die === selected);
        end(take, `Take the ${d.value} from ${spaceName(me, d.space)}: ${gainText(me.spaces[d.space].gives)}`, "take", true);
      }
      cmds.forEach((c, i) => {
        if (c.type === "RecruitNobles") shopButtons.push(btn(i, `Recruit ${plural(c.count, "noble")} (${v.supply.noble_prices[c.count]} beer)`, "nobles"));
        if (c.type === "UseCounterGuest") tavernButtons.push(btn(i, `Counter guest: ${esc(bonusText(desc.counter_guest_use, names))}`, "counter", "minor"));
      });
      cmds.forEach((c, i) => { if (c.type === "EndTurn") end(i, "End the turn", "end"); });
    }
    // With the frame's action bar the prompt and the Done-style buttons go there (in view at the foot on every
    // screen); a bonus's choices stay here, the loose dice and the counter guest go in the player's tavern and
    // the nobles in the shop (so each sits with the targets it goes with). Without the bar (an older frame, a
    // test harness) this card keeps the prompt and the Done-style buttons and stays in view itself (sticky).
    const inBar = !!ctx.bar;
    barContent = { prompt, actions: done.map((d) => ({ id: `tf-${d.kind}`, cmd: d.i, label: d.label, primary: d.primary, disabled: pending,
      onClick: () => submit(d.i) })) };
    const ends = inBar ? [] : done.map((d) => btn(d.i, esc(d.label), d.kind, d.primary ? "" : "minor"));
    if (inBar && !out.length) return "";
    return `<section class="tf-card ${inBar ? "" : "tf-bar"}" aria-label="Your move" data-testid="tf-actions">
      ${inBar ? "" : `<p class="tf-prompt">${prompt}</p>`}
      ${out.length || ends.length ? `<div class="tf-row">${out.join("")}${ends.join("")}</div>` : ""}
    </section>`;
  }

  // the highlighted spaces for the chosen die and what taking a die off each gives now (the view's numbers)
  function placesFor(me, cmds) {
    return cmds.filter((c) => c.type === "PlaceDie" && c.die === selected)
      .map((c) => `${spaceName(me, c.space)} ${gainText(me.spaces?.[c.space]?.gives || {})}`).join(", ");
  }

  // In the seat's own tavern, above its tiles: the dice to place (planning and turn) and the counter guest.
  function ownControls(v, p) {
    const tray = legal().length && (v.phase === "E" || v.phase === "F") ? diceTray(v, p) : "";
    const extra = tavernButtons.length ? `<div class="tf-row">${tavernButtons.join("")}</div>` : "";
    return tray || extra ? `<div class="tf-own" data-testid="tf-own-dice">${tray}${extra}</div>` : "";
  }

  // The seat's dice not on a space yet (placed ones are drawn on their spaces, where they can be picked in phase F).
  function diceTray(v, p) {
    const loose = p.dice.filter((d) => d.space === null);
    if (!loose.length) return `<p class="tf-muted">All your dice are on spaces.</p>`;
    return `<div class="tf-dicebox" aria-label="Your dice">${loose.map((d) => die(v, p, d, true)).join("")}</div>`;
  }

  function die(v, p, d, mine) {
    const movable = mine && legal().some((c) => (c.type === "PlaceDie" || c.type === "TakeDie") && c.die === d.die);
    const bg = d.white ? "#fff" : colourOf(p.seat, v);
    const boost = d.boost ? `<span class="boost">+${d.boost}</span>` : "";
    const label = `${d.white ? "white" : "coloured"} die ${d.value}${d.boost ? ` raised by ${d.boost}` : ""}`;
    const where = d.space === null ? "Not on a space yet." : `On ${spaceName(p, d.space)}: taking it off gives ${gainText(p.spaces?.[d.space]?.gives || {})}.`;
    const use = !movable ? "" : d.space === null ? "Choose it, then a highlighted space (or drag it there)." : "Choose it to take it off (collect) or move it.";
    const hint = tipAttr(`${d.white ? "White" : `${nameOf(p.seat)}'s coloured`} die: ${d.value}`, where,
      d.boost ? `Raised by ${plural(d.boost, "dishwasher step")}.` : "", use);
    if (!movable) return `<span class="tf-die ${d.white ? "" : "col"}" style="background:${bg}" data-key="die-${p.seat}-${d.die}"${hint}>${d.value}${boost}</span>`;
    return `<button type="button" class="tf-die target ${d.white ? "" : "col"} ${selected === d.die ? "sel" : ""}" style="background:${bg}"
      draggable="true" data-select="${d.die}" data-kind="die" data-placed="${d.space === null ? 0 : 1}" aria-pressed="${selected === d.die}"
      aria-label="${label}"${hint}>${d.value}${boost}</button>`;
  }

  function spaceName(p, space) {
    if (space.startsWith(desc.tavern.table_space_prefix)) {
      const i = +space.slice(desc.tavern.table_space_prefix.length);
      const top = p.tavern.tables[i]?.slice(-1)[0];
      return top ? `${top.name} (table ${i + 1})` : `table ${i + 1}`;
    }
    return tileOf(space)?.label || space;
  }

  // Attributes that make a space a target for the selected die (click or drop).
  function spaceTarget(p, space) {
    if (selected === null || p.seat !== state.view.you) return "";
    const i = find((c) => c.type === "PlaceDie" && c.die === selected && c.space === space);
    if (i < 0) return "";
    return ` target" data-cmd="${i}" data-kind="space" data-space-cmd="1" data-space="${esc(space)}" tabindex="0" role="button`;
  }

  function diceOn(v, p, space, mine) {
    const here = p.dice.filter((d) => d.space === space);
    return here.length ? `<div class="tf-dicebox">${here.map((d) => die(v, p, d, mine)).join("")}</div>` : "";
  }

  function tileBox(v, p, t, mine) {
    const state_ = p.tiles[t.id];
    const sp = p.spaces?.[t.id];
    const sides = `${t.sides[0]} / ${t.sides[1]}`;
    let acc = "";
    if (t.space) acc = `<span class="acc">${esc(diceText(t.space.dice))}${t.space.limit ? ` · ${t.space.limit}×` : ""}${sp ? ` → ${gainText(sp.gives)}` : ""}${sp?.used ? " · used" : ""}</span>`;
    let up = "";
    if (mine) {
      legal().forEach((c, i) => {
        if (c.type === "UpgradeTile" && c.tile === t.id) {
          const price = (p.upgrade_offers[t.id] || []).find((o) => o.returned === c.returned)?.price;
          const ret = c.returned ? `, return ${plural(c.returned, names1(t.special_offer?.card))}` : "";
          up += `<button type="button" class="tf-btn tf-up target" data-cmd="${i}" data-kind="upgrade"${tipAttr(`Upgrade the ${t.label}`, `Pay ${price}¢${ret}: it turns to ${t.sides[1]} ${t.unit}.`)}>Upgrade ${price}¢${esc(ret)}</button>`;
        }
      });
    }
    const target = spaceTarget(p, t.id);
    const hint = tipAttr(`${t.label}${state_.upgraded ? " (upgraded)" : ""}`, `Now: ${state_.value} ${t.unit} (sides ${sides}).`,
      t.space ? `Takes ${diceText(t.space.dice)}${t.space.limit ? `, ${t.space.limit} ${t.space.limit === 1 ? "die" : "dice"} at most` : ""}; taking a die off it in your turn gives ${sp ? gainText(sp.gives) : "its value"}.` : "",
      t.cost && !state_.upgraded ? `Upgrade for ${t.cost}¢ to ${t.sides[1]}.` : "", target ? "Highlighted: put the chosen die here." : "");
    return `<div class="tf-tile ${state_.upgraded ? "up" : ""}${target}" data-testid="tf-tile-${p.seat}-${t.id}" data-key="tile-${p.seat}-${t.id}"${hint}>
      <span class="lbl">${esc(t.label)}${state_.upgraded ? " ★" : ""}</span>
      <span class="val"><b>${state_.value}</b> ${esc(t.unit)} <span class="tf-muted">(${sides})</span></span>
      ${acc}${diceOn(v, p, t.id, mine)}${up}
    </div>`;
  }

  function names1(type) { return (cardNames()[type] || type || "card"); }

  function guestBox(v, p, i, stack, mine) {
    const top = stack[stack.length - 1];
    const space = `${desc.tavern.table_space_prefix}${i}`;
    const sp = p.spaces?.[space];
    const cls = top.kind === "noble" ? "noble" : top.kind === "regular" ? "regular" : "";
    const name = top.kind === "regular" ? "Regular" : top.name;
    const extra = stack.length > 1 ? ` ×${stack.length}` : "";
    const target = spaceTarget(p, space);
    const hint = tipAttr(`${name} at table ${i + 1}${extra}`, `Takes ${diceText(top.dice)}; a die taken off it pays ${sp ? gainText(sp.gives) : `${top.pay}¢`}.`,
      `${top.vp} VP at the end.`, target ? "Highlighted: put the chosen die here." : "");
    return `<div class="tf-guest ${cls}${target}" data-testid="tf-table-${p.seat}-${i}" data-key="table-${p.seat}-${i}"${hint}>
      <span class="nm">${esc(name)}${extra}</span>
      <span>${esc(diceText(top.dice))} → ${sp ? gainText(sp.gives) : `${top.pay}¢`}</span>
      <span class="tf-muted">${top.vp} VP</span>
      ${diceOn(v, p, space, mine)}
    </div>`;
  }

  function playerCard(v, p, mine) {
    const tables = p.tiles.tables.value + (p.tavern.staff.table?.length || 0);
    const seated = p.tavern.tables.map((stack, i) => guestBox(v, p, i, stack, mine));
    for (let k = seated.length; k < tables; k++) seated.push(`<div class="tf-guest empty" data-key="table-${p.seat}-${k}"${tipAttr("Free table", "A guest you recruit sits here; each guest takes dice and pays when a die is taken off.")}>free table</div>`);
    const staff = Object.entries(p.tavern.staff).map(([k, cards]) => `<span class="tf-chip">${esc(names1(k))} ×${cards.length}</span>`).join("");
    const active = v.to_act.includes(p.seat);
    const deck = mine && p.deck_top ? `<span class="tf-muted">Draw pile: ${p.deck_count}${p.deck_top.length ? `, on top: ${p.deck_top.map((c) => esc(c.name)).join(", ")}` : ""}</span>` : "";
    return `<section class="tf-card tf-player" style="--pc:${colourOf(p.seat, v)}" data-testid="tf-player-${p.seat}" aria-label="${esc(nameOf(p.seat))}'s tavern">
      <header role="group" aria-label="${esc(nameOf(p.seat))}'s totals" data-tip-group>
        <span class="tf-name">${esc(nameOf(p.seat))}${mine ? " (you)" : ""}${active ? " ●" : ""}</span>
        <span class="tf-stat"${tipAttr("Victory points", "On all the cards owned; the most at the end wins.")}>${p.victory_points} VP</span>
        <span class="tf-stat"${tipAttr("Doubloons", `${p.doubloons} to spend this turn; the safe keeps up to ${p.tiles.safe.value} for next round (${p.safe} in it).`)}>¢ ${p.doubloons} · safe ${p.safe}/${p.tiles.safe.value}</span>
        <span class="tf-stat"${tipAttr("Beer", `${p.beer} to spend this turn; storage keeps up to ${p.tiles.storage.value} for next round (${p.storage} in it).`)}>beer ${p.beer} · storage ${p.storage}/${p.tiles.storage.value}</span>
        <span class="tf-stat"${tipAttr("Monastery track", `On space ${p.monastery}: moving along it reaches bonuses (see the track below).`)}>monastery ${p.monastery}</span>
        <span class="tf-stat"${tipAttr("Counter guests", `${p.counter_guests} in hand: ${bonusText(desc.counter_guest_use, cardNames())}.`)}>counter guests ${p.counter_guests}</span>
        <span class="tf-stat"${tipAttr("Deck and discard", `${p.deck_count} cards to draw from, ${p.discard.length} discarded this game.`)}>deck ${p.deck_count} · discard ${p.discard.length}</span>
        <span class="tf-stat"${tipAttr("Dishwashers", `${p.dishwashers.in_use} of ${p.dishwashers.capacity} steps in use: each step raises a placed die by 1.`)}>dishwashers ${p.dishwashers.in_use}/${p.dishwashers.capacity}</span>
        ${v.phase === "E" ? `<span class="tf-chip">${p.planned ? "ready" : "planning"}</span>` : ""}
      </header>
      ${mine ? ownControls(v, p) : ""}
      <div class="tf-tiles" role="group" aria-label="Tavern tiles" data-tip-group>${desc.tavern.tiles.filter((t) => t.id !== "host").map((t) => tileBox(v, p, t, mine)).join("")}</div>
      <div class="tf-tables" role="group" aria-label="Tables" data-tip-group>${seated.join("")}</div>
      ${staff ? `<div class="tf-staff"><span class="tf-muted">Staff this round:</span> ${staff}</div>` : ""}
      ${deck}
    </section>`;
  }

  function draftCard(v) {
    const coasters = Object.entries(v.coasters || {}).map(([seat, values]) => {
      const own = +seat === v.you;
      const dice = values.map((val, k) => {
        const i = own ? find((c) => c.type === "PickDie" && c.value === val) : -1;
        const hint = tipAttr(`Die ${val}`, i >= 0 ? `Highlighted: pick it; it becomes one of your white dice this round.`
          : `On ${nameOf(+seat)}'s coaster: ${own ? "not yours to pick now" : "they pick from these"}.`);
        return i >= 0
          ? `<button type="button" class="tf-die target" data-cmd="${i}" data-kind="pick" aria-label="pick a ${val}"${hint}>${val}</button>`
          : `<span class="tf-die" data-key="coaster-${seat}-${k}"${hint}>${val}</span>`;
      }).join("");
      return `<div><span class="tf-muted">In front of ${esc(nameOf(+seat))}:</span> <div class="tf-dicebox" role="group" aria-label="${esc(nameOf(+seat))}'s coaster" data-tip-group>${dice || "<span class='tf-muted'>empty</span>"}</div></div>`;
    });
    return `<section class="tf-card" aria-label="Dice draft" data-testid="tf-draft"><h3>Dice draft</h3>
      <div class="tf-row" style="gap:16px">${coasters.join("")}</div>
</section>`;
  }

  function summary(v) {
    const lines = [`Round ${v.round} of ${v.rounds}, ${phaseLabel(v.phase)}.`];
    for (const p of v.players) {
      const guests = p.tavern.tables.map((s) => s[s.length - 1].name).join(", ");
      lines.push(`${nameOf(p.seat)}: ${p.victory_points} VP, ${p.doubloons} doubloons, ${p.beer} beer, safe ${p.safe}, storage ${p.storage}, monastery ${p.monastery}; tables: ${guests || "none"}; dice: ${p.dice.map((d) => `${d.value}${d.space ? ` on ${d.space}` : ""}`).join(", ") || "none"}.`);
    }
    return lines.join(" ");
  }

  return {
    update(next) {
      // a chosen die stays chosen while others move (render drops it once it has no legal move left)
      state = next;
      render();
    },
    destroy() { tips.destroy();
      keys.destroy(); wrap.remove(); },
  };
}

