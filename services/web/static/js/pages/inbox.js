// Inbox: games awaiting me first (how long they have waited, the deadline), then the others, then results.
import { useEffect, useState } from "preact/hooks";
import { html } from "../html.js";
import { auth, errorText, gameTypes, get, post } from "../api.js";
import { ErrorLine, ago, gameTitle, listText, now, setTitle, statusText, until } from "../ui.js";
import { noteInbox } from "../waiting.js";
import { botName, seatName, seatNews } from "../words.js";
import { t, tn, tx } from "../i18n.js";

export function InboxPage() {
  const [types, setTypes] = useState([]);
  const [inbox, setInbox] = useState(null);
  const [clocks, setClocks] = useState({});
  const [error, setError] = useState(null);
  useEffect(() => {
    if (!auth.token()) return;
    gameTypes().then(setTypes).catch(() => {});
    let gone = false; // an answer that comes after the page was left must not retitle the next page
    const load = () => get("/inbox", auth.token()).then(async (data) => {
      noteInbox(data); // the nav's count and the tab title, without a second request
      if (gone) return;
      setInbox(data);
      setTitle(t("Inbox"));
      // Deadlines exist only for timed games; one small request each for the games awaiting me.
      const timed = data.awaiting.filter((g) => g.pace);
      const rows = await Promise.all(timed.map((g) => get(`/games/${g.game_id}/clock`).catch(() => null)));
      if (gone) return;
      setClocks(Object.fromEntries(timed.map((g, i) => [g.game_id, rows[i]])));
      setError(null);
    }).catch((err) => !gone && setError(errorText(err)));
    load();
    // an inbox left open in a tab keeps its count (and the tab title) current
    const timer = setInterval(load, 30000);
    return () => {
      gone = true;
      clearInterval(timer);
    };
  }, []);
  if (!auth.token()) {
    return html`<h1>${t("Inbox")}</h1><${ErrorLine} error=${error} />
      <p>${tx("Register or sign in on the {start} first.", { start: html`<a href="#/">${t("start page")}</a>` })}</p>`;
  }
  if (!inbox) return html`<h1>${t("Inbox")}</h1><${ErrorLine} error=${error} /><p>${t("Loading…")}</p>`;
  const finished = inbox.others.filter((g) => g.status === "scored" || g.status === "ended" || g.status === "expired");
  const waiting = inbox.others.filter((g) => !finished.includes(g));
  const deadline = (g) => {
    const rows = clocks[g.game_id]?.seats || [];
    const mine = rows.filter((r) => g.my_seats.includes(r.seat) && r.deadline);
    return mine.length ? t("deadline {when}", { when: until(Math.min(...mine.map((r) => r.deadline))) })
      : t("no deadline");
  };
  // "Greedy bot and 1 open seat": an open seat is not a player's name
  const others = (g) => {
    const rest = g.seats.filter((s, i) => !g.my_seats.includes(i));
    const named = rest.filter((s) => !s.open)
      .map((s) => (s.bot && s.name ? botName(s.name) : s.name)
        || (s.invited ? (s.invited.name ? t("{name} (invited)", { name: s.invited.name }) : t("an invited player"))
          : t("a bot")));
    const open = rest.length - named.length;
    if (open) named.push(tn("{n} open seat", "{n} open seats", open));
    return named.length ? listText(named) : t("nobody");
  };
  async function answer(link, gameId) {
    try {
      await post(link, {}, auth.token());
      if (link.endsWith("/accept")) location.hash = `#/game/${gameId}`;
      else setInbox({ ...inbox, invitations: inbox.invitations.filter((i) => i.game_id !== gameId) });
    } catch (err) {
      setError(errorText(err));
    }
  }
  const invitations = inbox.invitations || []; // servers with invitations by handle list them here
  return html`<h1>${t("Inbox")}</h1>
    <${ErrorLine} error=${error} />
    ${invitations.length ? html`<section aria-labelledby="inv-h">
      <h2 id="inv-h">${t("Invitations ({n})", { n: invitations.length })}</h2>
      <ul class="list">${invitations.map((i) => html`<li key=${i.game_id + i.seat} class="row turn">
        <span>${i.invited_by ? tx("{game} from {name}", { game: html`<strong>${gameTitle(types, i.game)}</strong>`,
          name: i.invited_by.name }) : html`<strong>${gameTitle(types, i.game)}</strong>`}
          <span class="muted">${t(" · seat {seat} · answer {when}", { seat: i.seat + 1, when: until(i.expires_at) })}
          </span></span>
        <span><button type="button" class="primary" onClick=${() => answer(i.accept, i.game_id)}>${t("Accept")}</button>
          <button type="button" onClick=${() => answer(i.decline, i.game_id)}>${t("Decline")}</button></span>
      </li>`)}</ul>
    </section>` : null}
    <section aria-labelledby="turn-h">
      <h2 id="turn-h">${t("Your turn ({n})", { n: inbox.awaiting.length })}</h2>
      ${inbox.awaiting.length ? null
        : html`<p class="muted">${tx("Nothing awaits you. {start}.",
          { start: html`<a href="#/lobby">${t("Start a game")}</a>` })}</p>`}
      <ul class="list">${inbox.awaiting.map((g) => html`<li key=${g.game_id} class="row turn">
        <a href=${`#/game/${g.game_id}`}>${tx("{game} with {others}", {
          game: html`<strong>${gameTitle(types, g.game)}</strong>`, others: others(g) })}</a>
        <span class="muted">${t("waiting {time}", { time: ago(now() - (g.updated || now())) })} · ${deadline(g)
          }${news(g)}</span></li>`)}</ul>
    </section>
    <section aria-labelledby="others-h">
      <h2 id="others-h">${t("Waiting for others")}</h2>
      <ul class="list">${waiting.map((g) => html`<li key=${g.game_id} class="row">
        <a href=${`#/game/${g.game_id}`}>${t("{game} with {others}", { game: gameTitle(types, g.game),
          others: others(g) })}</a>
        <span class="muted">${g.status === "open" ? t("waiting for players")
          : tn("{names} to act", "{names} to act", (g.to_act || []).length,
            { names: listText((g.to_act || []).map((s) => (g.seats[s]?.name ? seatName(g.seats, s) : t("bot")))) })
          }${news(g)}</span>
      </li>`)}</ul>
    </section>
    <section aria-labelledby="done-h">
      <h2 id="done-h">${t("Finished")}</h2>
      <ul class="list">${finished.map((g) => html`<li key=${g.game_id} class="row">
        <a href=${`#/game/${g.game_id}`}>${t("{game} with {others}", { game: gameTitle(types, g.game),
          others: others(g) })}</a>
        <span>${result(g)}${news(g)}</span></li>`)}</ul>
    </section>`;
}

function news(g) {
  const said = seatNews(g.seats);
  return said ? ` · ${said}` : "";
}

function result(g) {
  if (!g.places) return statusText(g.status);
  const place = Math.min(...g.my_seats.map((s) => g.places[String(s)] ?? 99));
  const total = g.scores?.find((s) => g.my_seats.includes(s.seat))?.total;
  const placed = place === 1 ? t("Won") : t("Place {place}", { place });
  return total === undefined ? placed : tn("{placed} · {n} point", "{placed} · {n} points", total, { placed });
}
