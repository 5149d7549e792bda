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
import { bonusText, cardName, diceText, esc, gainText, learnWords, localDescription, words } from "./tiefenthal-words.js";
import { t, tn } from "../js/i18n.js";
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
  ctx.api.description().then((d) => { desc = localDescription(d); learnWords(desc); render(); })
    .catch((err) => { descError = err; render(); });

  const nameOf = (seat) => ctx.seatInfo?.[seat]?.name || t("Seat {n}", { n: seat + 1 });
  const colourOf = (seat, v) => ctx.seatInfo?.[seat]?.colour
    || FALLBACK_COLOURS[v?.players?.[seat]?.colour] || "#888";
  const cardNames = () => words.types; // learnt with the description (learnWords), shared with the move log
  const tileOf = (id) => desc?.tavern?.tiles?.find((x) => x.id === id);
  const phaseLabel = (p) => words.phases[p] || t("Phase {phase}", { phase: p });
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
    const hit = e.target.closest("[data-cmd], [data-select]");
    if (!hit || !el.contains(hit)) return;
    if (hit.dataset.cmd !== undefined) { submit(+hit.dataset.cmd); return; }
    const die = +hit.dataset.select;
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
    const hit = e.target.closest?.("[data-space-cmd]");
    if (hit) { e.preventDefault(); hit.classList.add("tf-drop"); }
  });
  el.addEventListener("dragleave", (e) => { e.target.closest?.("[data-space-cmd]")?.classList.remove("tf-drop"); });
  el.addEventListener("drop", (e) => {
    const hit = e.target.closest?.("[data-space-cmd]");
    if (!hit) return;
    e.preventDefault();
    hit.classList.remove("tf-drop"); // a refused drop redraws nothing (same drawing): the mark must go here
    const die = +e.dataTransfer.getData("text/plain");
    submit(find((c) => c.type === "PlaceDie" && c.die === die && c.space === hit.dataset.space));
  });

  // -- drawing ----------------------------------------------------------------------------------------------
  function render() {
    if (!state || !state.view) { redraw(el, `<p class="tf-muted">${esc(t("Loading…"))}</p>`); return; }
    const v = state.view;
    if (!desc) {
      redraw(el, descError ? `<p role="alert">${esc(t("The board description could not be loaded ({error}); reload the page.",
        { error: descError.message || descError }))}</p>` : `<p class="tf-muted">${esc(t("Loading the board…"))}</p>`);
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
    if (v.phase === "end") who = t("The game is over.");
    else if (simultaneous && v.to_act.length) who = t("Still deciding: {names}", { names: v.to_act.map(nameOf).join(", ") });
    else if (v.to_act.length) who = t("{name} to act", { name: nameOf(v.to_act[0]) });
    const planning = v.phase === "E" ? v.players.map((p) => `<span class="tf-chip" data-testid="tf-planning-${p.seat}">${esc(
      p.planned ? t("{name}: ready", { name: nameOf(p.seat) }) : t("{name}: planning…", { name: nameOf(p.seat) }))}</span>`).join(" ") : "";
    return `<section class="tf-card tf-status" aria-label="${esc(t("Round and phase"))}" data-testid="tf-status">
      <span class="tf-phase">${esc(t("Round {round} of {rounds} · {phase}", { round: v.round, rounds: v.rounds, phase: phaseLabel(v.phase) }))}</span>
      <span>${esc(t("Start player: {name}", { name: nameOf(v.start_player) }))}</span>
      <span class="tf-wait" data-testid="tf-waiting">${esc(who)}</span>
      ${planning}
      ${waiting.length && v.to_act.includes(v.you) ? `<span class="tf-muted">${esc(t("(you need not wait for them)"))}</span>` : ""}
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
      prompt = t("Choose your bonus.");
      const opts = me.pending_choices[0] || [];
      const labels = Object.fromEntries(desc.tavern.tiles.map((x) => [x.id, x.label]));
      cmds.forEach((c, i) => { if (c.type === "ChooseBonus") out.push(btn(i, esc(bonusText(opts[c.option], names, labels)), "choice")); });
    } else if (v.phase === "B") {
      prompt = t("Keep your tavern, or spend a counter guest to clear it and draw again.");
      cmds.forEach((c, i) => {
        if (c.type === "KeepTavern") end(i, t("Keep the tavern"), "keep", true);
        if (c.type === "RedrawTavern") end(i, t("Redraw (spend a counter guest)"), "redraw");
      });
    } else if (v.phase === "D") {
      const values = cmds.filter((c) => c.type === "PickDie").map((c) => c.value);
      prompt = t("Pick a die from the coaster in front of you (highlighted: {values}): it becomes one of your white dice this round.",
        { values: values.join(", ") });
    } else if (v.phase === "E") {
      prompt = selected === null ? t("Plan: pick a die (or drag it) and put it on a highlighted space. Finish when done.")
        : narrow() ? t("Put the chosen die on a highlighted space (each shows what taking it off gives).")
          : t("Put the chosen die on a highlighted space; taking it off in your turn gives: {places}.", { places: placesFor(me, cmds) });
      cmds.forEach((c, i) => { if (c.type === "FinishPlanning") end(i, t("Finish planning"), "finish"); });
    } else if (v.phase === "F") {
      prompt = selected === null ? t("Your turn: take dice off their spaces to collect, buy, recruit and upgrade; then end the turn.")
        : t("Take the chosen die, or move it to a highlighted space.");
      const take = cmds.findIndex((c) => c.type === "TakeDie" && c.die === selected);
      if (take >= 0) {
        const d = me.dice.find((x) => x.die === selected);
        end(take, t("Take the {value} from {space}: {gain}", { value: d.value, space: spaceName(me, d.space),
          gain: gainText(me.spaces[d.space].gives) }), "take", true);
      }
      cmds.forEach((c, i) => {
        if (c.type === "RecruitNobles") {
          shopButtons.push(btn(i, esc(tn("Recruit one noble ({price} beer)", "Recruit {n} nobles ({price} beer)", c.count,
            { price: v.supply.noble_prices[c.count] })), "nobles"));
        }
        if (c.type === "UseCounterGuest") {
          tavernButtons.push(btn(i, esc(t("Counter guest: {use}", { use: bonusText(desc.counter_guest_use, names) })), "counter", "minor"));
        }
      });
      cmds.forEach((c, i) => { if (c.type === "EndTurn") end(i, t("End the turn"), "end"); });
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
    return `<section class="tf-card ${inBar ? "" : "tf-bar"}" aria-label="${esc(t("Your move"))}" data-testid="tf-actions">
      ${inBar ? "" : `<p class="tf-prompt">${esc(prompt)}</p>`}
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
    if (!loose.length) return `<p class="tf-muted">${esc(t("All your dice are on spaces."))}</p>`;
    return `<div class="tf-dicebox" aria-label="${esc(t("Your dice"))}">${loose.map((d) => die(v, p, d, true)).join("")}</div>`;
  }

  function die(v, p, d, mine) {
    const movable = mine && legal().some((c) => (c.type === "PlaceDie" || c.type === "TakeDie") && c.die === d.die);
    const bg = d.white ? "#fff" : colourOf(p.seat, v);
    const boost = d.boost ? `<span class="boost">+${d.boost}</span>` : "";
    const q = { value: d.value, boost: d.boost, name: nameOf(p.seat) };
    const label = d.white ? (d.boost ? t("white die {value} raised by {boost}", q) : t("white die {value}", q))
      : d.boost ? t("coloured die {value} raised by {boost}", q) : t("coloured die {value}", q);
    const where = d.space === null ? t("Not on a space yet.") : t("On {space}: taking it off gives {gain}.",
      { space: spaceName(p, d.space), gain: gainText(p.spaces?.[d.space]?.gives || {}) });
    const use = !movable ? "" : d.space === null ? t("Choose it, then a highlighted space (or drag it there).")
      : t("Choose it to take it off (collect) or move it.");
    const hint = tipAttr(d.white ? t("White die: {value}", q) : t("{name}'s coloured die: {value}", q), where,
      d.boost ? tn("Raised by one dishwasher step.", "Raised by {n} dishwasher steps.", d.boost) : "", use);
    if (!movable) return `<span class="tf-die ${d.white ? "" : "col"}" style="background:${bg}" data-key="die-${p.seat}-${d.die}"${hint}>${d.value}${boost}</span>`;
    return `<button type="button" class="tf-die target ${d.white ? "" : "col"} ${selected === d.die ? "sel" : ""}" style="background:${bg}"
      draggable="true" data-select="${d.die}" data-kind="die" data-placed="${d.space === null ? 0 : 1}" aria-pressed="${selected === d.die}"
      aria-label="${esc(label)}"${hint}>${d.value}${boost}</button>`;
  }

  function spaceName(p, space) {
    if (space.startsWith(desc.tavern.table_space_prefix)) {
      const i = +space.slice(desc.tavern.table_space_prefix.length);
      const top = p.tavern.tables[i]?.slice(-1)[0];
      return top ? t("{guest} (table {n})", { guest: cardName(top.name), n: i + 1 }) : t("table {n}", { n: i + 1 });
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

  function tileBox(v, p, tile, mine) {
    const now = p.tiles[tile.id];
    const sp = p.spaces?.[tile.id];
    const sides = `${tile.sides[0]} / ${tile.sides[1]}`;
    let acc = "";
    if (tile.space) {
      acc = `<span class="acc">${esc(diceText(tile.space.dice))}${tile.space.limit ? ` · ${tile.space.limit}×` : ""}`
        + `${sp ? ` → ${esc(gainText(sp.gives))}` : ""}${sp?.used ? ` · ${esc(t("used"))}` : ""}</span>`;
    }
    let up = "";
    if (mine) {
      legal().forEach((c, i) => {
        if (c.type === "UpgradeTile" && c.tile === tile.id) {
          const price = (p.upgrade_offers[tile.id] || []).find((o) => o.returned === c.returned)?.price;
          const q = { price, n: c.returned, card: names1(tile.special_offer?.card), tile: tile.label, side: tile.sides[1],
            unit: tile.unit };
          const label = c.returned ? t("Upgrade {price}¢, return {n} × {card}", q) : t("Upgrade {price}¢", q);
          const tip = tipAttr(t("Upgrade the {tile}", q), c.returned ? t("Pay {price}¢, return {n} × {card}: it turns to {side} {unit}.", q)
            : t("Pay {price}¢: it turns to {side} {unit}.", q));
          up += `<button type="button" class="tf-btn tf-up target" data-cmd="${i}" data-kind="upgrade"${tip}>${esc(label)}</button>`;
        }
      });
    }
    const target = spaceTarget(p, tile.id);
    const q = { tile: tile.label, value: now.value, unit: tile.unit, sides, dice: tile.space ? diceText(tile.space.dice) : "",
      limit: tile.space?.limit, gain: sp ? gainText(sp.gives) : t("its value"), cost: tile.cost, side: tile.sides[1] };
    let takes = "";
    if (tile.space) {
      takes = tile.space.limit ? tn("Takes {dice}, one die at most; taking a die off it in your turn gives {gain}.",
        "Takes {dice}, {n} dice at most; taking a die off it in your turn gives {gain}.", tile.space.limit, q)
        : t("Takes {dice}; taking a die off it in your turn gives {gain}.", q);
    }
    const hint = tipAttr(now.upgraded ? t("{tile} (upgraded)", q) : tile.label, t("Now: {value} {unit} (sides {sides}).", q), takes,
      tile.cost && !now.upgraded ? t("Upgrade for {cost}¢ to {side}.", q) : "", target ? t("Highlighted: put the chosen die here.") : "");
    return `<div class="tf-tile ${now.upgraded ? "up" : ""}${target}" data-testid="tf-tile-${p.seat}-${tile.id}" data-key="tile-${p.seat}-${tile.id}"${hint}>
      <span class="lbl">${esc(tile.label)}${now.upgraded ? " ★" : ""}</span>
      <span class="val"><b>${now.value}</b> ${esc(tile.unit)} <span class="tf-muted">(${sides})</span></span>
      ${acc}${diceOn(v, p, tile.id, mine)}${up}
    </div>`;
  }

  function names1(type) { return (cardNames()[type] || type || t("card")); }

  function guestBox(v, p, i, stack, mine) {
    const top = stack[stack.length - 1];
    const space = `${desc.tavern.table_space_prefix}${i}`;
    const sp = p.spaces?.[space];
    const cls = top.kind === "noble" ? "noble" : top.kind === "regular" ? "regular" : "";
    const name = top.kind === "regular" ? t("Regular") : cardName(top.name);
    const extra = stack.length > 1 ? ` ×${stack.length}` : "";
    const target = spaceTarget(p, space);
    const q = { guest: `${name}${extra}`, n: i + 1, dice: diceText(top.dice), pays: sp ? gainText(sp.gives) : `${top.pay}¢`, vp: top.vp };
    const hint = tipAttr(t("{guest} at table {n}", q), t("Takes {dice}; a die taken off it pays {pays}.", q),
      t("{vp} VP at the end.", q), target ? t("Highlighted: put the chosen die here.") : "");
    return `<div class="tf-guest ${cls}${target}" data-testid="tf-table-${p.seat}-${i}" data-key="table-${p.seat}-${i}"${hint}>
      <span class="nm">${esc(name)}${extra}</span>
      <span>${esc(diceText(top.dice))} → ${esc(q.pays)}</span>
      <span class="tf-muted">${esc(t("{vp} VP", q))}</span>
      ${diceOn(v, p, space, mine)}
    </div>`;
  }

  // the totals in a player card's head: each a short figure with its tip
  function totals(p) {
    const stat = (title, tip, text) => `<span class="tf-stat"${tipAttr(title, tip)}>${esc(text)}</span>`;
    const q = { ...p, safeMax: p.tiles.safe.value, storageMax: p.tiles.storage.value, discarded: p.discard.length,
      inUse: p.dishwashers.in_use, capacity: p.dishwashers.capacity, use: bonusText(desc.counter_guest_use, cardNames()) };
    return [
      stat(t("Victory points"), t("On all the cards owned; the most at the end wins."), t("{victory_points} VP", q)),
      stat(t("Doubloons"), t("{doubloons} to spend this turn; the safe keeps up to {safeMax} for next round ({safe} in it).", q),
        t("¢ {doubloons} · safe {safe}/{safeMax}", q)),
      stat(t("Beer"), t("{beer} to spend this turn; storage keeps up to {storageMax} for next round ({storage} in it).", q),
        t("beer {beer} · storage {storage}/{storageMax}", q)),
      stat(t("Monastery track"), t("On space {monastery}: moving along it reaches bonuses (see the track below).", q),
        t("monastery {monastery}", q)),
      stat(t("Counter guests"), t("{counter_guests} in hand: {use}.", q), t("counter guests {counter_guests}", q)),
      stat(t("Deck and discard"), t("{deck_count} cards to draw from, {discarded} discarded this game.", q),
        t("deck {deck_count} · discard {discarded}", q)),
      stat(t("Dishwashers"), t("{inUse} of {capacity} steps in use: each step raises a placed die by 1.", q),
        t("dishwashers {inUse}/{capacity}", q)),
    ].join("");
  }

  function playerCard(v, p, mine) {
    const tables = p.tiles.tables.value + (p.tavern.staff.table?.length || 0);
    const seated = p.tavern.tables.map((stack, i) => guestBox(v, p, i, stack, mine));
    const free = tipAttr(t("Free table"), t("A guest you recruit sits here; each guest takes dice and pays when a die is taken off."));
    for (let k = seated.length; k < tables; k++) {
      seated.push(`<div class="tf-guest empty" data-key="table-${p.seat}-${k}"${free}>${esc(t("free table"))}</div>`);
    }
    const staff = Object.entries(p.tavern.staff).map(([k, cards]) => `<span class="tf-chip">${esc(names1(k))} ×${cards.length}</span>`).join("");
    const active = v.to_act.includes(p.seat);
    const top = p.deck_top?.map((c) => cardName(c.name)).join(", ");
    const deck = mine && p.deck_top ? `<span class="tf-muted">${esc(top ? t("Draw pile: {n}, on top: {cards}", { n: p.deck_count, cards: top })
      : t("Draw pile: {n}", { n: p.deck_count }))}</span>` : "";
    const name = nameOf(p.seat);
    return `<section class="tf-card tf-player" style="--pc:${colourOf(p.seat, v)}" data-testid="tf-player-${p.seat}" aria-label="${esc(t("{name}'s tavern", { name }))}">
      <header role="group" aria-label="${esc(t("{name}'s totals", { name }))}" data-tip-group>
        <span class="tf-name">${esc(mine ? t("{name} (you)", { name }) : name)}${active ? " ●" : ""}</span>
        ${totals(p)}
        ${v.phase === "E" ? `<span class="tf-chip">${esc(p.planned ? t("ready") : t("planning"))}</span>` : ""}
      </header>
      ${mine ? ownControls(v, p) : ""}
      <div class="tf-tiles" role="group" aria-label="${esc(t("Tavern tiles"))}" data-tip-group>${desc.tavern.tiles.filter((x) => x.id !== "host")
    .map((x) => tileBox(v, p, x, mine)).join("")}</div>
      <div class="tf-tables" role="group" aria-label="${esc(t("Tables"))}" data-tip-group>${seated.join("")}</div>
      ${staff ? `<div class="tf-staff"><span class="tf-muted">${esc(t("Staff this round:"))}</span> ${staff}</div>` : ""}
      ${deck}
    </section>`;
  }

  function draftCard(v) {
    const coasters = Object.entries(v.coasters || {}).map(([seat, values]) => {
      const own = +seat === v.you;
      const name = nameOf(+seat);
      const dice = values.map((val, k) => {
        const i = own ? find((c) => c.type === "PickDie" && c.value === val) : -1;
        const hint = tipAttr(t("Die {value}", { value: val }), i >= 0 ? t("Highlighted: pick it; it becomes one of your white dice this round.")
          : own ? t("On {name}'s coaster: not yours to pick now.", { name }) : t("On {name}'s coaster: they pick from these.", { name }));
        return i >= 0
          ? `<button type="button" class="tf-die target" data-cmd="${i}" data-kind="pick" aria-label="${esc(t("pick a {value}", { value: val }))}"${hint}>${val}</button>`
          : `<span class="tf-die" data-key="coaster-${seat}-${k}"${hint}>${val}</span>`;
      }).join("");
      return `<div><span class="tf-muted">${esc(t("In front of {name}:", { name }))}</span> <div class="tf-dicebox" role="group"
        aria-label="${esc(t("{name}'s coaster", { name }))}" data-tip-group>${dice || `<span class='tf-muted'>${esc(t("empty"))}</span>`}</div></div>`;
    });
    return `<section class="tf-card" aria-label="${esc(t("Dice draft"))}" data-testid="tf-draft"><h3>${esc(t("Dice draft"))}</h3>
      <div class="tf-row" style="gap:16px">${coasters.join("")}</div>
</section>`;
  }

  function summary(v) {
    const lines = [t("Round {round} of {rounds}, {phase}.", { round: v.round, rounds: v.rounds, phase: phaseLabel(v.phase) })];
    for (const p of v.players) {
      const guests = p.tavern.tables.map((x) => cardName(x[x.length - 1].name)).join(", ");
      const dice = p.dice.map((d) => (d.space ? t("{value} on {space}", { value: d.value, space: spaceName(p, d.space) })
        : String(d.value))).join(", ");
      lines.push(t("{name}: {vp} VP, {doubloons} doubloons, {beer} beer, safe {safe}, storage {storage}, monastery {monastery}; "
        + "tables: {guests}; dice: {dice}.", { name: nameOf(p.seat), vp: p.victory_points, doubloons: p.doubloons, beer: p.beer,
        safe: p.safe, storage: p.storage, monastery: p.monastery, guests: guests || t("none"), dice: dice || t("none") }));
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

