// The Tiefenthal shop: the guests on display (and the 3-beer pile's top) and the tavern cards for sale, each with
// its price first, drawn compact so that the shop fits beside the player's tavern on a laptop and in one phone
// screen. An offer the seat can take now is a highlighted button carrying its command (data-cmd).

import { tipAttr } from "./tip-keys.js";
import { bonusText, cardName, diceText, esc } from "./tiefenthal-words.js";
import { t } from "../js/i18n.js";

// board: { find(pred) -> index into legal or -1, cardNames() }; buttons: the decision's own (recruiting nobles)
export function shopMarkup(v, desc, board, buttons = []) {
  return `<section class="tf-card tf-shopcard" aria-label="${esc(t("Shop"))}" data-testid="tf-shop">
    ${buttons.length ? `<div class="tf-row">${buttons.join("")}</div>` : ""}${guestsMarkup(v, board)}${cardsMarkup(v, desc, board)}</section>`;
}

function guestsMarkup(v, board) {
  const names = board.cardNames();
  const offer = (card, three) => {
    const i = board.find((c) => c.type === "RecruitGuest" && c.card === card.id);
    const name = cardName(card.name);
    const q = { cost: card.cost, n: v.guests.three_beer.count, dice: diceText(card.dice), pay: card.pay, vp: card.vp,
      bonus: card.bonus ? bonusText(card.bonus, names) : "" };
    const body = `<span class="price">${esc(t("{cost} beer", q))}</span><span class="nm">${esc(name)}${three
      ? ` <span class="tf-muted">${esc(t("(3-beer pile, {n})", q))}</span>` : ""}</span>
      <span class="what">${esc(diceText(card.dice))} → ${card.pay}¢ · ${esc(t("{vp} VP", q))}${card.bonus ? ` · ${esc(q.bonus)}` : ""}</span>`;
    const hint = tipAttr(name, t("Recruit for {cost} beer; seated at a table it takes {dice} and pays {pay}¢ per die taken off.", q),
      t("{vp} VP at the end.", q), card.bonus ? t("On recruiting: {bonus}.", q) : "", i >= 0 ? t("Highlighted: you can recruit it now.") : "");
    return i >= 0 ? `<button type="button" class="tf-offer target" data-cmd="${i}" data-kind="guest"${hint}>${body}</button>`
      : `<div class="tf-offer" data-key="guest-${card.id}"${hint}>${body}</div>`;
  };
  const cards = v.guests.display.map((c) => offer(c, false));
  if (v.guests.three_beer.top) cards.push(offer(v.guests.three_beer.top, true));
  const nobles = Object.entries(v.supply.noble_prices).map(([n, b]) => t("{n} for {beer} beer", { n, beer: b })).join(", ");
  const head = t("deck {deck} · nobles {nobles}: {prices}", { deck: v.guests.deck_count, nobles: v.supply.nobles, prices: nobles });
  return `<div aria-label="${esc(t("Guests"))}" data-testid="tf-guests"><h3>${esc(t("Guests"))} <span class="tf-muted">${esc(head)}</span></h3>
    <div class="tf-shop" role="group" aria-label="${esc(t("Guests on offer"))}" data-tip-group>${cards.join("")}</div></div>`;
}

function cardsMarkup(v, desc, board) {
  const out = desc.tavern_cards.map((card) => {
    const s = v.supply.tavern_cards[card.type];
    const i = board.find((c) => c.type === "BuyCard" && c.card_type === card.type);
    const cost = s.cost ?? card.cost;
    const body = `<span class="price">${cost}¢</span><span class="nm">${esc(card.name)} <span class="tf-muted">×${s.count}</span></span>`
      + `<span class="what">${esc(card.effect)}</span>`;
    const hint = tipAttr(card.name, card.effect, t("Costs {cost}¢; {n} left.", { cost, n: s.count }),
      i >= 0 ? t("Highlighted: you can buy it now; it joins your deck.") : "");
    return i >= 0 ? `<button type="button" class="tf-offer target" data-cmd="${i}" data-kind="buy"${hint}>${body}</button>`
      : `<div class="tf-offer" data-key="card-${card.type}"${hint}>${body}</div>`;
  });
  const left = t("counter guests left: {n}", { n: v.supply.counter_guests });
  return `<div aria-label="${esc(t("Tavern cards"))}" data-testid="tf-supply"><h3>${esc(t("Tavern cards"))} <span class="tf-muted">${esc(left)}</span></h3>
    <div class="tf-shop" role="group" aria-label="${esc(t("Tavern cards"))}" data-tip-group>${out.join("")}</div></div>`;
}
