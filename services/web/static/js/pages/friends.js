// Friends: follow players by handle; who is online now and the games they play (to watch); invite one to a
// free seat of my open game in one tap, or start a new game with them (the lobby's form, their seat filled in).
import { useEffect, useState } from "preact/hooks";
import { html } from "../html.js";
import { auth, del, errorText, gameTypes, get, post, put } from "../api.js";
import { ErrorLine, gameTitle, setTitle } from "../ui.js";
import { t, tx } from "../i18n.js";
import { botName } from "../words.js";

const REFRESH_MS = 30_000;

export function FriendsPage() {
  const [types, setTypes] = useState([]);
  const [data, setData] = useState(null);
  const [error, setError] = useState(null);
  const [said, setSaid] = useState(null); // what the last action did, in words (a live region)
  const [handle, setHandle] = useState("");
  const load = () => get("/players/me/friends", auth.token()).then((d) => { setData(d); setError(null); })
    .catch((err) => setError(errorText(err)));
  useEffect(() => {
    setTitle(t("Friends"));
    if (!auth.token()) return undefined;
    gameTypes().then(setTypes).catch(() => {});
    load();
    const timer = setInterval(() => document.visibilityState === "visible" && load(), REFRESH_MS);
    return () => clearInterval(timer);
  }, []);
  if (!auth.token()) {
    return html`<h1>${t("Friends")}</h1><p>${tx("Register or sign in on the {start} to follow players.",
      { start: html`<a href="#/">${t("start page")}</a>` })}</p>`;
  }

  async function follow(e) {
    e.preventDefault();
    const wanted = handle.trim().replace(/^@/, "");
    if (!wanted) return setError(t("Whose handle? Type it, then Follow."));
    try {
      const friend = await put(`/players/me/friends/${encodeURIComponent(wanted)}`, {}, auth.token());
      setHandle("");
      setSaid(t("You follow {name} (@{handle}) now.", { name: friend.name, handle: friend.handle }));
      await load();
    } catch (err) {
      setError(errorText(err));
    }
  }
  async function unfollow(friend) {
    try {
      await del(`/players/me/friends/${encodeURIComponent(friend.handle)}`, auth.token());
      setSaid(t("You no longer follow {name}.", { name: friend.name }));
      await load();
    } catch (err) {
      setError(errorText(err));
    }
  }
  async function invite(friend, game) {
    try {
      const seat = game.free_seats[0];
      await post(`/games/${game.game_id}/invitations`, { handle: friend.handle, seat }, auth.token());
      setSaid(t("{name} is invited to seat {seat} of your {game} game.",
        { name: friend.name, seat: seat + 1, game: gameTitle(types, game.game) }));
      await load();
    } catch (err) {
      setError(errorText(err));
    }
  }

  return html`<div class="friends">
    <h1>${t("Friends")}</h1>
    <form class="card follow-form" onSubmit=${follow}>
      <label for="follow-handle">${t("Follow a player by handle")}</label>
      <div class="follow-row">
        <input id="follow-handle" placeholder=${t("@handle")} autocomplete="off" autocapitalize="none"
               spellcheck="false"
               value=${handle} onInput=${(e) => setHandle(e.target.value)} />
        <button type="submit" class="primary">${t("Follow")}</button>
      </div>
    </form>
    <${ErrorLine} error=${error} />
    <p class="said" role="status">${said || ""}</p>
    ${!data ? html`<p>${t("Loading…")}</p>` : data.friends.length === 0
      ? html`<p class="muted">${t("You follow nobody yet. Ask your friends for their handle (it is on their profile).")
        }</p>`
      : html`<ul class="list friend-list">${data.friends.map((f) => html`<${FriendRow} key=${f.player_id}
          friend=${f} types=${types} openGames=${data.open_games} onInvite=${invite} onUnfollow=${unfollow} />`)}
        </ul>`}
  </div>`;
}

function FriendRow({ friend, types, openGames, onInvite, onUnfollow }) {
  const status = friend.online
    ? html`<span class="presence on"><span class="dot" aria-hidden="true"></span>${t("Online now")}</span>`
    : html`<span class="presence off"><span class="dot" aria-hidden="true"></span>${t("Offline")}</span>`;
  const newGame = `#/lobby?invite=${encodeURIComponent(friend.handle)}`;
  return html`<li class="friend">
    <div class="friend-head">
      <a href=${`#/player/${friend.player_id}`}><strong>${friend.name}</strong></a>
      <span class="muted">@${friend.handle}</span> ${status}
    </div>
    ${friend.games.length ? html`<ul class="friend-games" aria-label=${t("Games of {name}", { name: friend.name })}>
      ${friend.games.map((g) => html`<li key=${g.game_id}><a href=${`#/game/${g.game_id}`}>${
        t("Watch {game}", { game: gameTitle(types, g.game) })}</a><span class="muted">${g.status === "open"
        ? t(" · waiting for players") : ` · ${g.seats.map((s) => (s.name ? botName(s.name) : t("bot"))).join(", ")}`
        }</span></li>`)}
    </ul>` : html`<p class="muted friend-games">${t("No game being played.")}</p>`}
    <div class="friend-actions">
      ${openGames.map((g) => html`<button type="button" class="primary" key=${g.game_id}
          onClick=${() => onInvite(friend, g)}>${t("Invite to my {game}", { game: gameTitle(types, g.game) })
          }</button>`)}
      <a class="button" href=${newGame}>${t("New game with {name}", { name: friend.name })}</a>
      <button type="button" class="quiet" onClick=${() => onUnfollow(friend)}
              aria-label=${t("Unfollow {name}", { name: friend.name })}>${t("Unfollow")}</button>
    </div>
  </li>`;
}
