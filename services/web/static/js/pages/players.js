// A player's profile (#/player/<id>, #/player/me): games played and won, a rating per game with its history,
// finished games with their replay links; and a game's leaderboard (#/leaderboard/<game>).
import { useEffect, useState } from "preact/hooks";
import { html } from "../html.js";
import { auth, errorText, gameTypes, get } from "../api.js";
import { ErrorLine, gameTitle, setTitle } from "../ui.js";
import { PROVISIONAL_GAMES, isProvisional, ratingText } from "../format.js";
import { seatNews } from "../words.js";

const LEFT_WORDS = { resigned: "resigned", abandoned: "left the game", idle: "left the game idle" };

const fmt = (x) => (Math.round(x * 10) / 10).toFixed(1);

// "place 2 (resigned) · 2/12/2026 · rating 1040 · Bo resigned": a finished game, as the profile lists it
function finishedLine(g, name) {
  const won = g.won ?? g.place === 1;
  const why = g.left ? ` (${LEFT_WORDS[g.left]})` : g.away ? " (away at the end)" : "";
  const place = `${won ? "won" : g.place === 1 ? "shared first place" : `place ${g.place}`}${why}`;
  const rating = g.rating !== null ? ` · rating ${ratingText(g.rating, PROVISIONAL_GAMES)}` : " · unrated";
  const news = seatNews(g.seats.filter((s) => s.left && s.name !== name)); // what became of the other seats
  return `${place} · ${day(g.ts)}${rating}${news ? ` · ${news}` : ""}`;
}

// A rating on the display scale, marked while provisional (see format.js and the README): "1040?" and the word.
function Rating({ rating, games }) {
  const provisional = isProvisional(games);
  const text = ratingText(rating, games);
  return html`<strong class=${provisional ? "provisional" : ""} data-rating=${text}
      title=${provisional ? `provisional: settles after ${PROVISIONAL_GAMES} rated games` : undefined}
    >${text}</strong>${provisional ? html` <span class="badge provisional-mark">provisional</span>` : null}`;
}

// "Reliability 90% · 9 of 10 games played to the end": the share of finished games without a takeover.
function ReliabilityLine({ reliability: r }) {
  if (!r || r.percent === null) {
    return html`<p class="facts-line" data-stat="reliability">${"Reliability: no finished game yet · "}<a
      href="#/fair-play">what is this?</a></p>`;
  }
  return html`<p class="facts-line" data-stat="reliability">Reliability <strong>${r.percent}%</strong>
    <span class="muted">${` · ${r.finished} of ${r.started} games played to the end · `}</span><a
      href="#/fair-play">what is this?</a></p>`;
}
const day = (ts) => new Date(ts * 1000).toLocaleDateString();

// The rating history as a small line drawing (with its figures in words for screen readers).
function Sparkline({ points }) {
  if (points.length < 2) return null;
  const w = 160, h = 36;
  const ys = points.map((p) => p.rating);
  const lo = Math.min(...ys), hi = Math.max(...ys);
  const span = hi - lo || 1;
  const y = (p) => h - 2 - ((p.rating - lo) / span) * (h - 4);
  const d = points.map((p, i) => `${i ? "L" : "M"}${(i / (points.length - 1)) * w},${y(p)}`).join(" ");
  const [from, to] = [ratingText(ys[0], PROVISIONAL_GAMES), ratingText(ys[ys.length - 1], PROVISIONAL_GAMES)];
  return html`<svg class="spark" viewBox=${`0 0 ${w} ${h}`} width=${w} height=${h} role="img"
      aria-label=${`rating from ${from} to ${to} over ${ys.length} games`}>
    <path d=${d} fill="none" stroke="currentColor" stroke-width="2" /></svg>`;
}

export function ProfilePage({ playerId }) {
  const id = playerId === "me" ? auth.playerId() : playerId;
  const [profile, setProfile] = useState(null);
  const [types, setTypes] = useState([]);
  const [error, setError] = useState(null);
  useEffect(() => {
    if (!id) return setError("Sign in to see your profile.");
    get(`/players/${id}/profile`).then((p) => {
      setProfile(p);
      setTitle(p.name);
    }).catch((err) => setError(errorText(err)));
    gameTypes().then(setTypes).catch(() => {});
  }, [id]);
  if (!profile) return html`<h1>Player</h1><${ErrorLine} error=${error} />${error ? null : html`<p>Loading…</p>`}`;
  const p = profile;
  return html`<div class="profile" data-player=${p.player_id}>
    <h1>${p.name} ${p.handle ? html`<span class="muted">@${p.handle}</span>` : null}</h1>
    <p class="facts-line"><strong data-stat="played">${p.games_played}</strong> games played ·
      <strong data-stat="wins">${p.wins}</strong> won</p>
    <${ReliabilityLine} reliability=${p.reliability} />
    <section aria-labelledby="ratings-h">
      <h2 id="ratings-h">Ratings</h2>
      ${p.ratings.length ? null : html`<p class="muted">No rated game yet.</p>`}
      <ul class="list">${p.ratings.map((r) => html`<li key=${r.game} class="row" data-game=${r.game}>
        <span><a href=${`#/leaderboard/${r.game}`}>${gameTitle(types, r.game)}</a>
          <span class="muted">${` · ${r.rank ? `rank ${r.rank}` : "not on the leaderboard yet"} · ${r.games} rated `
            + `game${r.games === 1 ? "" : "s"}, ${r.wins} won`}</span></span>
        <span class="rating"><${Sparkline} points=${p.history[r.game] || []} />
          ${" "}<${Rating} rating=${r.rating} games=${r.games} /></span>
      </li>`)}</ul>
    </section>
    <section aria-labelledby="finished-h">
      <h2 id="finished-h">Finished games</h2>
      ${p.finished.length ? null : html`<p class="muted">None yet.</p>`}
      <ul class="list">${p.finished.map((g) => html`<li key=${g.game_id} class="row">
        <a href=${g.replay}>${gameTitle(types, g.game)} · ${g.seats.map((s) => s.name).join(", ")}</a>
        <span class="muted">${finishedLine(g, p.name)}</span>
      </li>`)}</ul>
    </section>
  </div>`;
}

export function LeaderboardPage({ game }) {
  const [board, setBoard] = useState(null);
  const [types, setTypes] = useState([]);
  const [error, setError] = useState(null);
  useEffect(() => {
    setTitle("Leaderboard");
    gameTypes().then((found) => {
      setTypes(found);
      // "Ratings" in the nav names no game: the first one offered
      if (!game && found.length) history.replaceState(null, "", `#/leaderboard/${found[0].id}`);
      const shown = game || found[0]?.id;
      if (!shown) return;
      get(`/games/types/${shown}/leaderboard?limit=100`).then(setBoard).catch((err) => setError(errorText(err)));
    }).catch((err) => setError(errorText(err)));
  }, [game]);
  const shown = game || types[0]?.id;
  return html`<h1>${gameTitle(types, shown)} · leaderboard</h1>
    <nav class="tabs" aria-label="Games">${types.map((t) => html`<a key=${t.id}
        class=${t.id === shown ? "tab on" : "tab"}
        href=${`#/leaderboard/${t.id}`} aria-current=${t.id === shown ? "page" : undefined}>${t.title}</a>`)}</nav>
    <${ErrorLine} error=${error} />
    ${board && !board.rows.length ? html`<p class="muted">${`Nobody is listed yet: a player appears here after `
      + `${PROVISIONAL_GAMES} rated games (`}<a href="#/fair-play">fair play</a>).</p>` : null}
    ${board?.rows.length ? html`<div class="table-scroll"><table class="leaderboard">
      <thead><tr><th scope="col">#</th><th scope="col">Player</th><th scope="col">Rating</th>
        <th scope="col">Games</th><th scope="col">Won</th></tr></thead>
      <tbody>${board.rows.map((r) => html`<tr key=${r.identity}>
        <td>${r.rank}</td>
        <td>${r.player_id ? html`<a href=${`#/player/${r.player_id}`}>${r.name}</a>`
                          : html`${r.name} <span class="badge">bot</span>`}</td>
        <td title=${`estimate ${fmt(r.mu)} ± ${fmt(3 * r.sigma)} (openskill μ ± 3σ)`}>
          <${Rating} rating=${r.rating} games=${r.games} /></td>
        <td>${r.games}</td><td>${r.wins}</td>
      </tr>`)}</tbody></table></div>
      <p class="muted">Ratings by openskill (Plackett–Luce), ranked by the cautious estimate μ − 3σ and shown on a
        scale where every newcomer starts at 1000; it rises as the service grows sure of a player's strength. Only
        established players are listed: ${PROVISIONAL_GAMES} rated games or more (before that a rating is
        provisional, marked ?). Bot levels are rated too. <a href="#/fair-play">Fair play</a>: how absent
        players, early ends and draws are rated.</p>` : null}`;
}
