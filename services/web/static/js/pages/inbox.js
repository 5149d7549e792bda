// Inbox: games awaiting me first (how long they have waited, the deadline), then the others, then results.
import { useEffect, useState } from "preact/hooks";
import { html } from "../html.js";
import { auth, errorText, gameTypes, get, post } from "../api.js";
import { ErrorLine, ago, gameTitle, now, setTitle, until } from "../ui.js";
import { noteInbox } from "../waiting.js";
import { seatNews } from "../words.js";

export function InboxPage() {
  const [types, setTypes] = useState([]);
  const [inbox, setInbox] = useState(null);
  const [clocks, setClocks] = useState({});
  const [error, setError] = useState(null);
  useEffect(() => {
    if (!auth.token()) return;
    gameTypes().then(setTypes).catch(() => {});
    const load = () => get("/inbox", auth.token()).then(async (data) => {
      setInbox(data);
      noteInbox(data); // the nav's count and the tab title, without a second request
      setTitle("Inbox");
      // Deadlines exist only for timed games; one small request each for the games awaiting me.
      const timed = data.awaiting.filter((g) => g.pace);
      const rows = await Promise.all(timed.map((g) => get(`/games/${g.game_id}/clock`).catch(() => null)));
      setClocks(Object.fromEntries(timed.map((g, i) => [g.game_id, rows[i]])));
      setError(null);
    }).catch((err) => setError(errorText(err)));
    load();
    // an inbox left open in a tab keeps its count (and the tab title) current
    const timer = setInterval(load, 30000);
    return () => clearInterval(timer);
  }, []);
  if (!auth.token()) {
    return html`<h1>Inbox</h1><${ErrorLine} error=${error} />
      <p>Register or sign in on the <a href="#/">start page</a> first.</p>`;
  }
  if (!inbox) return html`<h1>Inbox</h1><${ErrorLine} error=${error} /><p>Loading…</p>`;
  const finished = inbox.others.filter((g) => g.status === "scored" || g.status === "ended" || g.status === "expired");
  const waiting = inbox.others.filter((g) => !finished.includes(g));
  const deadline = (g) => {
    const rows = clocks[g.game_id]?.seats || [];
    const mine = rows.filter((r) => g.my_seats.includes(r.seat) && r.deadline);
    return mine.length ? `deadline ${until(Math.min(...mine.map((r) => r.deadline)))}` : "no deadline";
  };
  // "Greedy bot and 1 open seat": an open seat is not a player's name
  const others = (g) => {
    const rest = g.seats.filter((s, i) => !g.my_seats.includes(i));
    const named = rest.filter((s) => !s.open)
      .map((s) => s.name || (s.invited ? `${s.invited.name || "a player"} (invited)` : "a bot"));
    const open = rest.length - named.length;
    if (open) named.push(`${open} open seat${open > 1 ? "s" : ""}`);
    return named.length > 1 ? `${named.slice(0, -1).join(", ")} and ${named[named.length - 1]}` : named[0] || "nobody";
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
  return html`<h1>Inbox</h1>
    <${ErrorLine} error=${error} />
    ${invitations.length ? html`<section aria-labelledby="inv-h">
      <h2 id="inv-h">Invitations (${invitations.length})</h2>
      <ul class="list">${invitations.map((i) => html`<li key=${i.game_id + i.seat} class="row turn">
        <span><strong>${gameTitle(types, i.game)}</strong>${i.invited_by ? ` from ${i.invited_by.name}` : ""}
          <span class="muted"> · seat ${i.seat + 1} · answer ${until(i.expires_at)}</span></span>
        <span><button type="button" class="primary" onClick=${() => answer(i.accept, i.game_id)}>Accept</button>
          <button type="button" onClick=${() => answer(i.decline, i.game_id)}>Decline</button></span>
      </li>`)}</ul>
    </section>` : null}
    <section aria-labelledby="turn-h">
      <h2 id="turn-h">Your turn (${inbox.awaiting.length})</h2>
      ${inbox.awaiting.length ? null
        : html`<p class="muted">Nothing awaits you. <a href="#/lobby">Start a game</a>.</p>`}
      <ul class="list">${inbox.awaiting.map((g) => html`<li key=${g.game_id} class="row turn">
        <a href=${`#/game/${g.game_id}`}><strong>${gameTitle(types, g.game)}</strong> with ${others(g)}</a>
        <span class="muted">waiting ${ago(now() - (g.updated || now()))} · ${deadline(g)}${news(g)}</span></li>`)}</ul>
    </section>
    <section aria-labelledby="others-h">
      <h2 id="others-h">Waiting for others</h2>
      <ul class="list">${waiting.map((g) => html`<li key=${g.game_id} class="row">
        <a href=${`#/game/${g.game_id}`}>${gameTitle(types, g.game)} with ${others(g)}</a>
        <span class="muted">${g.status === "open" ? "waiting for players"
          : `${(g.to_act || []).map((s) => g.seats[s]?.name || "bot").join(", ")} to act`}${news(g)}</span>
      </li>`)}</ul>
    </section>
    <section aria-labelledby="done-h">
      <h2 id="done-h">Finished</h2>
      <ul class="list">${finished.map((g) => html`<li key=${g.game_id} class="row">
        <a href=${`#/game/${g.game_id}`}>${gameTitle(types, g.game)} with ${others(g)}</a>
        <span>${result(g)}${news(g)}</span></li>`)}</ul>
    </section>`;
}

function news(g) {
  const said = seatNews(g.seats);
  return said ? ` · ${said}` : "";
}

function result(g) {
  if (!g.places) return g.status;
  const place = Math.min(...g.my_seats.map((s) => g.places[String(s)] ?? 99));
  const total = g.scores?.find((s) => g.my_seats.includes(s.seat))?.total;
  return `${place === 1 ? "Won" : `Place ${place}`}${total === undefined ? "" : ` · ${total} points`}`;
}
