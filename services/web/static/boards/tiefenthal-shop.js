// The Tiefenthal shop: the guests on display (and the 3-beer pile's top) and the tavern cards for sale, each with
// its price first, drawn compact so that the shop fits beside the player's tavern on a laptop and in one phone
// screen. An offer the seat can take now is a highlighted button carrying its command (data-cmd).

import { tipAttr } from "./tip-keys.js";
import { bonusText, diceText, esc } from "./tiefenthal-words.js";

// board: { find(pred) -> index into legal or -1, cardNames() }; buttons: the decision's own (recruiting nobles)
export function shopMarkup(v, desc, board, buttons = []) {
  return `<section class="tf-card tf-shopcard" aria-label="Shop" data-testid="tf-shop">
    ${buttons.length ? `<div class="tf-row">${buttons.join("")}</div>` : ""}${guestsMarkup(v, board)}${cardsMarkup(v, desc, board)}</section>`;
}

function guestsMarkup(v, board) {
  const names = board.cardNames();
  const offer = (card, three) => {
    const i = board.find((c) => c.type === "RecruitGuest" && c.card === card.id);
    const body = `<span class="price">${card.cost} beer</span><span class="nm">${esc(card.name)}${three ? ` <span class="tf-muted">(3-beer pile, ${v.guests.three_beer.count})</span>` : ""}</span>
      <span class="what">${esc(diceText(card.dice))} → ${card.pay}¢ · ${card.vp} VP${card.bonus ? ` · ${esc(bonusText(card.bonus, names))}` : ""}</span>`;
    const hint = tipAttr(card.name, `Recruit for ${card.cost} beer; seated at a table it takes ${diceText(card.dice)} and pays ${card.pay}¢ per die taken off.`,
      `${card.vp} VP at the end.`, card.bonus ? `On recruiting: ${bonusText(card.bonus, names)}.` : "", i >= 0 ? "Highlighted: you can recruit it now." : "");
    return i >= 0 ? `<button type="button" class="tf-offer target" data-cmd="${i}" data-kind="guest"${hint}>${body}</button>`
      : `<div class="tf-offer" data-key="guest-${card.id}"${hint}>${body}</div>`;
  };
  const cards = v.guests.display.map((c) => offer(c, false));
  if (v.guests.three_beer.top) cards.push(offer(v.guests.three_beer.top, true));
  const nobles = Object.entries(v.supply.noble_prices).map(([n, b]) => `${n} for ${b} beer`).join(", ");
  return `<div aria-label="Guests" data-testid="tf-guests"><h3>Guests <span class="tf-muted">deck ${v.guests.deck_count} · nobles ${v.supply.nobles}: ${nobles}</span></h3>
    <div class="tf-shop" role="group" aria-label="Guests on offer" data-tip-group>${cards.join("")}</div></div>`;
}

function cardsMarkup(v, desc, board) {
  const out = desc.tavern_cards.map((t) => {
    const s = v.supply.tavern_cards[t.type];
    const i = board.find((c) => c.type === "BuyCard" && c.card_type === t.type);
    const cost = s.cost ?? t.cost;
    const body = `<span class="price">${cost}¢</span><span class="nm">${esc(t.name)} <span class="tf-muted">×${s.count}</span></span><span class="what">${esc(t.effect)}</span>`;
    const hint = tipAttr(t.name, t.effect, `Costs ${cost}¢; ${s.count} left.`, i >= 0 ? "Highlighted: you can buy it now; it joins your deck." : "");
    return i >= 0 ? `<button type="button" class="tf-offer target" data-cmd="${i}" data-kind="buy"${hint}>${body}</button>`
      : `<div class="tf-offer" data-key="card-${t.type}"${hint}>${body}</div>`;
  });
  return `<div aria-label="Tavern cards" data-testid="tf-supply"><h3>Tavern cards <span class="tf-muted">counter guests left: ${v.supply.counter_guests}</span></h3>
    <div class="tf-shop" role="group" aria-label="Tavern cards" data-tip-group>${out.join("")}</div></div>`;
}
