// A player's profile (#/player/<id>, #/player/me): games played and won, a rating per game with its history,
// finished games with their replay links; and a game's leaderboard (#/leaderboard/<game>).
import { useEffect, useState } from "preact/hooks";
import { html } from "../html.js";
import { auth, errorText, gameTypes, get } from "../api.js";
import { ErrorLine, gameTitle, setTitle } from "../ui.js";
import { PROVISIONAL_GAMES, isProvisional, ratingText } from "../format.js";
import { botName, seatNews } from "../words.js";
import { N_, formatDate, formatNumber, t, tn, tnx, tx } from "../i18n.js";

const LEFT_WORDS = { resigned: N_("resigned"), abandoned: N_("left the game"), idle: N_("left the game idle") };

const fmt = (x) => formatNumber(x, { minimumFractionDigits: 1, maximumFractionDigits: 1 });

// "place 2 (resigned) · 2/12/2026 · rating 1040 · Bo resigned": a finished game, as the profile lists it
function finishedLine(g, name) {
  const placed = g.place === 1 ? t("won") : t("place {place}", { place: g.place });
  const place = g.left && LEFT_WORDS[g.left] ? t("{place} ({how})", { place: placed, how: t(LEFT_WORDS[g.left]) })
    : placed;
  const rating = g.rating !== null ? t(" · rating {rating}", { rating: ratingText(g.rating, PROVISIONAL_GAMES) }) : "";
  const news = seatNews(g.seats.filter((s) => s.left && s.name !== name)); // what became of the other seats
  return `${place} · ${day(g.ts)}${rating}${news ? ` · ${news}` : ""}`;
}

// A rating on the display scale, marked while provisional (see format.js and the README).
function Rating({ rating, games }) {
  const provisional = isProvisional(games);
  return html`<strong class=${provisional ? "provisional" : ""} data-rating=${ratingText(rating, games)}
      title=${provisional ? t("provisional: settles after {n} rated games", { n: PROVISIONAL_GAMES }) : undefined}
    >${ratingText(rating, games)}</strong>`;
}
const day = (ts) => formatDate(ts * 1000, { dateStyle: "medium" });

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
      aria-label=${tn("rating from {from} to {to} over {n} game", "rating from {from} to {to} over {n} games",
        ys.length, { from, to })}>
    <path d=${d} fill="none" stroke="currentColor" stroke-width="2" /></svg>`;
}

export function ProfilePage({ playerId }) {
  const id = playerId === "me" ? auth.playerId() : playerId;
  const [profile, setProfile] = useState(null);
  const [types, setTypes] = useState([]);
  const [error, setError] = useState(null);
  useEffect(() => {
    if (!id) return setError(t("Sign in to see your profile."));
    get(`/players/${id}/profile`).then((p) => {
      setProfile(p);
      setTitle(p.name);
    }).catch((err) => setError(errorText(err)));
    gameTypes().then(setTypes).catch(() => {});
  }, [id]);
  if (!profile) {
    return html`<h1>${t("Player")}</h1><${ErrorLine} error=${error} />${error ? null : html`<p>${t("Loading…")}</p>`}`;
  }
  const p = profile;
  return html`<div class="profile" data-player=${p.player_id}>
    <h1>${p.name} ${p.handle ? html`<span class="muted">@${p.handle}</span>` : null}</h1>
    <p class="facts-line">${tnx("{n} game played", "{n} games played", p.games_played,
        { n: html`<strong data-stat="played">${formatNumber(p.games_played)}</strong>` })} ·
      ${tx("{wins} won", { wins: html`<strong data-stat="wins">${formatNumber(p.wins)}</strong>` })}</p>
    <section aria-labelledby="ratings-h">
      <h2 id="ratings-h">${t("Ratings")}</h2>
      ${p.ratings.length ? null : html`<p class="muted">${t("No rated game yet.")}</p>`}
      <ul class="list">${p.ratings.map((r) => html`<li key=${r.game} class="row" data-game=${r.game}>
        <span><a href=${`#/leaderboard/${r.game}`}>${gameTitle(types, r.game)}</a>
          <span class="muted">${tn(" · rank {rank} · {n} game, {wins} won", " · rank {rank} · {n} games, {wins} won",
            r.games, { rank: r.rank ?? "–", wins: r.wins })}</span></span>
        <span class="rating"><${Sparkline} points=${p.history[r.game] || []} />
          ${" "}<${Rating} rating=${r.rating} games=${r.games} /></span>
      </li>`)}</ul>
    </section>
    <section aria-labelledby="finished-h">
      <h2 id="finished-h">${t("Finished games")}</h2>
      ${p.finished.length ? null : html`<p class="muted">${t("None yet.")}</p>`}
      <ul class="list">${p.finished.map((g) => html`<li key=${g.game_id} class="row">
        <a href=${g.replay}>${gameTitle(types, g.game)} · ${g.seats.map((s) => (s.bot ? botName(s.name) : s.name))
          .join(", ")}</a>
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
    setTitle(t("Leaderboard"));
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
  return html`<h1>${t("{game} · leaderboard", { game: gameTitle(types, shown) })}</h1>
    <nav class="tabs" aria-label=${t("Games")}>${types.map((g) => html`<a key=${g.id}
        class=${g.id === shown ? "tab on" : "tab"}
        href=${`#/leaderboard/${g.id}`} aria-current=${g.id === shown ? "page" : undefined}>${t(g.title)}</a>`)}</nav>
    <${ErrorLine} error=${error} />
    ${board && !board.rows.length
      ? html`<p class="muted">${t("Nobody is rated yet: ratings come with the first finished game.")}</p>` : null}
    ${board?.rows.length ? html`<div class="table-scroll"><table class="leaderboard">
      <thead><tr><th scope="col">#</th><th scope="col">${t("Player")}</th><th scope="col">${t("Rating")}</th>
        <th scope="col">${t("Games")}</th><th scope="col">${t("Won")}</th></tr></thead>
      <tbody>${board.rows.map((r) => html`<tr key=${r.identity}>
        <td>${r.rank}</td>
        <td>${r.player_id ? html`<a href=${`#/player/${r.player_id}`}>${r.name}</a>`
                          : html`${botName(r.name)} <span class="badge">${t("bot")}</span>`}</td>
        <td title=${t("estimate {mu} ± {spread} (openskill μ ± 3σ)", { mu: fmt(r.mu), spread: fmt(3 * r.sigma) })}>
          <${Rating} rating=${r.rating} games=${r.games} /></td>
        <td>${formatNumber(r.games)}</td><td>${formatNumber(r.wins)}</td>
      </tr>`)}</tbody></table></div>
      <p class="muted">${t("Ratings by openskill (Plackett–Luce), ranked by the cautious estimate μ − 3σ and shown " +
        "on a scale where every newcomer starts at 1000; it rises as the service grows sure of a player's " +
        "strength. A rating marked ? is provisional: fewer than {n} rated games. Bot levels are rated too.",
        { n: PROVISIONAL_GAMES })}</p>` : null}`;
}
