// Lobby: open games to join, recent results, and a new-game form generated from the game's options schema.
import { useEffect, useState } from "preact/hooks";
import { html } from "../html.js";
import { auth, errorText, gameTypes, get, post } from "../api.js";
import { CopyField, ErrorLine, ago, gameTitle, listText, now, setTitle } from "../ui.js";
import { NameField, ensurePlayer } from "../identity.js";
import { PlainError } from "../errors.js";
import { hasGuide } from "../howto.js";
import { botName, seatName, seatNews } from "../words.js";
import { N_, t, tn, tx } from "../i18n.js";

const BOT_LEVELS = [["random", N_("random")], ["greedy", N_("greedy")], ["search", N_("search")]];
const PACES = [["", N_("Untimed")], ["1h", N_("1 hour a move")], ["1d", N_("1 day a move")],
               ["3d", N_("3 days a move")], ["bank", N_("Time bank")]];

export function LobbyPage({ params }) {
  const [types, setTypes] = useState(null);
  const [lobby, setLobby] = useState({ open: [], finished: [] });
  const [error, setError] = useState(null);
  const [joining, setJoining] = useState(null); // a signed-out visitor's Join: the game waiting for their name
  const [name, setName] = useState("");
  const load = () => get("/lobby").then(setLobby).catch((err) => setError(errorText(err)));
  useEffect(() => {
    setTitle(t("Lobby"));
    gameTypes().then(setTypes).catch((err) => setError(errorText(err)));
    load();
  }, []);
  async function join(gameId) {
    setError(null);
    if (!auth.token() && joining !== gameId) return setJoining(gameId); // ask for a name first, beside the game
    try {
      const token = await ensurePlayer(name);
      await post(`/games/${gameId}/join`, {}, token);
      location.hash = `#/game/${gameId}`;
    } catch (err) {
      setError(errorText(err));
      load();
    }
  }
  return html`<h1>${t("Lobby")}</h1>
    <${ErrorLine} error=${error} />
    <div class="columns">
      <section aria-labelledby="new-h" class=${params.get("game") ? "lobby-new first-on-phone" : "lobby-new"}>
        <h2 id="new-h">${t("New game")}</h2>
        ${types ? html`<${NewGameForm} types=${types} initial=${params.get("game")} />` : html`<p>${t("Loading…")}</p>`}
      </section>
      <section aria-labelledby="open-h" class="lobby-open">
        <h2 id="open-h">${t("Open games")}</h2>
        ${lobby.open.length === 0 ? html`<p class="muted">${t("No open game right now: start one.")}</p>` : null}
        <ul class="list">
          ${lobby.open.map((g) => html`<li key=${g.game_id} class="row">
            <span><strong>${gameTitle(types, g.game)}</strong>
              <span class="muted">${seatSummary(g.seats)}</span></span>
            <span class="actions"><a href=${`#/game/${g.game_id}`}>${t("Watch")}</a>
              <button type="button" onClick=${() => join(g.game_id)}>${t("Join")}</button></span>
            ${joining === g.game_id && !auth.token() ? html`<form class="join-name"
                onSubmit=${(e) => { e.preventDefault(); join(g.game_id); }}>
              <${NameField} id=${`join-name-${g.game_id}`} value=${name} onInput=${setName} />
              <button type="submit" class="primary">${t("Join as {name}", { name: name.trim() || "…" })}</button>
              </form>` : null}
          </li>`)}
        </ul>
        <h2>${t("Recently finished")}</h2>
        <ul class="list">
          ${lobby.finished.slice(0, 10).map((g) => html`<li key=${g.game_id} class="row">
            <a href=${`#/game/${g.game_id}`}>${gameTitle(types, g.game)}</a>
            <span class="muted">${winner(g)} · ${t("{time} ago", { time: ago(now() - (g.updated || now())) })}${
              seatNews(g.seats) ? ` · ${seatNews(g.seats)}` : ""}</span>
          </li>`)}
        </ul>
      </section>
    </div>`;
}

// " · Ana, Greedy bot · 1 open": one string, since htm drops the space where a text runs over a line break
function seatSummary(seats) {
  const seated = seats.filter((s) => !s.open).map((s) => (s.name ? (s.bot ? botName(s.name) : s.name) : t("bot")));
  const open = tn("{n} open", "{n} open", seats.filter((s) => s.open).length);
  return ` · ${seated.length ? `${seated.join(", ")} · ` : ""}${open}`;
}

function winner(meta) {
  const first = Object.entries(meta.places || {}).filter(([, place]) => place === 1).map(([seat]) => Number(seat));
  const names = first.map((s) => (meta.seats[s]?.name ? seatName(meta.seats, s) : t("seat {n}", { n: s + 1 })));
  return first.length ? t("won by {names}", { names: listText(names) }) : t("ended");
}

function resolveRef(schema, root) {
  if (schema?.$ref) return root.$defs?.[schema.$ref.split("/").pop()] || {};
  if (schema?.allOf?.length === 1) return resolveRef(schema.allOf[0], root);
  // "x or null" (an optional option): offer x; an empty field sends null, the game's default
  if (schema?.anyOf) return resolveRef(schema.anyOf.find((s) => s.type !== "null") || {}, root);
  return schema || {};
}

// One input per option; the server validates (invalid_options), the form only offers what the schema says.
function OptionField({ name, schema, root, value, onChange }) {
  const s = resolveRef(schema, root);
  const id = `opt-${name}`;
  // the game's own words for its options (server text, English), in the reader's language where the catalog has it
  const label = t(schema.title || s.title || name.replace(/_/g, " "));
  const help = schema.description || s.description ? t(schema.description || s.description) : null;
  let input;
  if ("const" in s) return null; // nothing to choose
  if (s.type === "boolean") {
    return html`<div class="field check">
      <input type="checkbox" id=${id} checked=${Boolean(value)} onChange=${(e) => onChange(e.target.checked)} />
      <label for=${id}>${label}</label>${help ? html`<small>${help}</small>` : null}</div>`;
  } else if (s.enum) {
    input = html`<select id=${id} value=${value} onChange=${(e) => onChange(e.target.value)}>
      ${s.enum.map((v) => html`<option value=${v}>${typeof v === "string" ? t(v) : String(v)}</option>`)}</select>`;
  } else if (s.type === "integer" || s.type === "number") {
    input = html`<input type="number" id=${id} value=${value ?? ""} min=${s.minimum} max=${s.maximum}
      step=${s.type === "integer" ? 1 : "any"}
      onInput=${(e) => onChange(e.target.value === "" ? null : Number(e.target.value))} />`;
  } else if (s.type === "string") {
    input = html`<input id=${id} value=${value ?? ""} onInput=${(e) => onChange(e.target.value)} />`;
  } else {
    input = html`<input id=${id} value=${value === undefined ? "" : JSON.stringify(value)}
      onInput=${(e) => { try { onChange(JSON.parse(e.target.value)); } catch { /* keep typing */ } }} />`;
  }
  return html`<div class="field"><label for=${id}>${label}</label>${input}
    ${help ? html`<small>${help}</small>` : null}</div>`;
}

function defaults(type) {
  const out = {};
  for (const [name, s] of Object.entries(type?.options?.properties || {})) if ("default" in s) out[name] = s.default;
  return out;
}

function NewGameForm({ types, initial }) {
  const [gameId, setGameId] = useState(types.find((t) => t.id === initial)?.id || types[0]?.id);
  const type = types.find((t) => t.id === gameId);
  const [options, setOptions] = useState(defaults(type));
  const signedIn = Boolean(auth.token());
  const [name, setName] = useState(""); // a visitor's name: they register as the game is created
  const firstSeats = (t) => Array.from({ length: Math.max(2, t?.min_players || 2) }, (_, i) =>
    i === 0 ? { kind: "me" } : { kind: "bot", bot: "greedy" });
  const [seats, setSeats] = useState(firstSeats(type));
  const [pace, setPace] = useState("");
  const [casual, setCasual] = useState(false); // unrated; then hints may be allowed
  const [hints, setHints] = useState(false);
  const [error, setError] = useState(null);
  const [invites, setInvites] = useState(null);

  function pickGame(id) {
    const t = types.find((x) => x.id === id);
    setGameId(id);
    setOptions(defaults(t));
    setSeats(firstSeats(t));
  }
  const setSeat = (i, patch) => setSeats(seats.map((s, j) => (j === i ? { ...s, ...patch } : s)));

  async function create(e) {
    e.preventDefault();
    setError(null);
    const body = {
      game: gameId, options,
      // a player invited by handle gets an open seat, reserved for them right after creation
      seats: seats.map((s) => s.kind === "me" ? { me: true } : s.kind === "bot" ? { bot: s.bot }
        : s.kind === "invite" ? { name: (s.name || "").trim() || t("Friend") } : {}),
    };
    if (pace) body.pace = pace;
    if (casual) Object.assign(body, { rated: false, hints });
    try {
      const invited = seats.map((s, i) => ({ seat: i, handle: (s.handle || "").trim().replace(/^@/, "") }))
        .filter((x, i) => seats[i].kind === "handle");
      for (const x of invited) {
        if (!x.handle) throw new PlainError(t("Seat {n}: whose handle? Type the player's handle.", { n: x.seat + 1 }));
        // a typo fails before the game exists, naming the handle
        await get(`/players/by-handle/${encodeURIComponent(x.handle)}`).catch((err) => {
          if (err.code !== "player_not_found") throw err;
          throw new PlainError(t("Nobody here has the handle @{handle}. Check the spelling.", { handle: x.handle }));
        });
      }
      // "me" or a bot needs a player behind the game: a visitor registers now, under the name they gave
      const needsPlayer = seats.some((s) => s.kind === "me" || s.kind === "bot" || s.kind === "handle");
      const token = needsPlayer || signedIn ? await ensurePlayer(name) : undefined;
      const created = await post("/games", body, token);
      for (const x of invited) {
        await post(`/games/${created.game_id}/invitations`, { handle: x.handle, seat: x.seat }, token);
      }
      const links = created.seats.filter((s) => s.token).map((s) => ({
        seat: s.seat, name: s.name,
        link: `${location.origin}/#/game/${created.game_id}?seat=${encodeURIComponent(s.token)}`,
      }));
      if (links.length) setInvites({ gameId: created.game_id, links });
      else location.hash = `#/game/${created.game_id}`;
    } catch (err) {
      setError(errorText(err));
    }
  }

  if (invites) {
    return html`<div class="card">
      <h3>${t("Send each invited player their link")}</h3>
      <p class="muted">${t("A link is shown only now; it lets its holder play that seat.")}</p>
      ${invites.links.map((l) => html`<div class="field"><span>${t("{name} (seat {seat})",
          { name: l.name, seat: l.seat + 1 })}</span>
        <${CopyField} label=${t("Invitation link for {name} (seat {seat})", { name: l.name, seat: l.seat + 1 })}
          value=${l.link} /></div>`)}
      <a class="button" href=${`#/game/${invites.gameId}`}>${t("Go to the game")}</a>
    </div>`;
  }
  const props = type?.options?.properties || {};
  return html`<form class="card new-game" onSubmit=${create} aria-describedby="new-h">
    ${signedIn ? null : html`<${NameField} id="ng-name" value=${name} onInput=${setName} />`}
    <div class="field"><label for="ng-game">${t("Game")}</label>
      <select id="ng-game" value=${gameId} onChange=${(e) => pickGame(e.target.value)}>
        ${types.map((g) => html`<option value=${g.id}>${t(g.title)}</option>`)}</select>
      ${hasGuide(gameId) ? html`<small class="howto-links">${tx("New to it? {rules} · {learn}", {
        rules: html`<a href=${`#/rules/${gameId}`}>${t("How to play")}</a>`,
        learn: html`<a href=${`#/learn/${gameId}`}>${t("Learn to play with a coach")}</a>` })}</small>` : null}</div>
    <fieldset><legend>${t("Seats ({min}–{max})", { min: type?.min_players, max: type?.max_players })}</legend>
      ${seats.map((s, i) => html`<div class="seat-row" key=${i}>
        <label for=${`seat-${i}`}>${t("Seat {n}", { n: i + 1 })}</label>
        <select id=${`seat-${i}`} value=${s.kind}
                onChange=${(e) => setSeat(i, { kind: e.target.value, bot: s.bot || "greedy" })}>
          <option value="me">${t("Me")}</option>
          <option value="open">${t("Open (anyone joins)")}</option>
          <option value="bot">${t("Bot")}</option>
          <option value="handle">${t("Player by handle (invitation)")}</option>
          <option value="invite">${t("Friend by link (no account needed)")}</option>
        </select>
        ${s.kind === "bot" ? html`<select aria-label=${t("Seat {n} bot level", { n: i + 1 })} value=${s.bot}
            onChange=${(e) => setSeat(i, { bot: e.target.value })}>
            ${BOT_LEVELS.map(([l, label]) => html`<option value=${l}>${t(label)}</option>`)}</select>` : null}
        ${s.kind === "handle" ? html`<input aria-label=${t("Seat {n} player's handle", { n: i + 1 })}
            placeholder=${t("@handle")}
            value=${s.handle || ""} onInput=${(e) => setSeat(i, { handle: e.target.value })} />` : null}
        ${s.kind === "invite" ? html`<input aria-label=${t("Seat {n} player's name", { n: i + 1 })}
            placeholder=${t("their name")}
            value=${s.name || ""} onInput=${(e) => setSeat(i, { name: e.target.value })} />` : null}
      </div>`)}
      <p>
        <button type="button" disabled=${seats.length >= (type?.max_players || 8)}
          onClick=${() => setSeats([...seats, { kind: "bot", bot: "greedy" }])}>${t("Add seat")}</button>
        <button type="button" disabled=${seats.length <= (type?.min_players || 1)}
          onClick=${() => setSeats(seats.slice(0, -1))}>${t("Remove seat")}</button>
      </p>
    </fieldset>
    ${Object.keys(props).length ? html`<fieldset><legend>${t("Options")}</legend>
      ${Object.entries(props).map(([name, schema]) => html`<${OptionField} key=${gameId + name} name=${name}
          schema=${schema} root=${type.options} value=${options[name]}
          onChange=${(v) => setOptions({ ...options, [name]: v })} />`)}
    </fieldset>` : null}
    <div class="field"><label for="ng-pace">${t("Pace")}</label>
      <select id="ng-pace" value=${pace} onChange=${(e) => setPace(e.target.value)}>
        ${PACES.map(([v, label]) => html`<option value=${v}>${t(label)}</option>`)}</select></div>
    <div class="field"><label><input type="checkbox" checked=${casual} onChange=${(e) => setCasual(e.target.checked)} />
      ${t("Casual game (not rated)")}</label>
      ${casual ? html`<label><input type="checkbox" checked=${hints} onChange=${(e) => setHints(e.target.checked)} />
        ${t("Allow hints from the coach (everyone sees when one is asked for)")}</label>` : null}</div>
    <${ErrorLine} error=${error} />
    <button type="submit" class="primary">${t("Create game")}</button>
  </form>`;
}
