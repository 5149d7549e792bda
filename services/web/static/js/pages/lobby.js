// Lobby: open games to join, recent results, and a new-game form generated from the game's options schema.
import { useEffect, useState } from "preact/hooks";
import { html } from "../html.js";
import { auth, errorText, gameTypes, get, post } from "../api.js";
import { CopyField, ErrorLine, GameFlags, ago, gameTitle, now, setTitle } from "../ui.js";
import { NameField, ensurePlayer } from "../identity.js";
import { PlainError } from "../errors.js";
import { hasGuide } from "../howto.js";
import { seatNews } from "../words.js";

const BOT_LEVELS = ["random", "greedy", "search"];
const RELIABILITY = [["", "Anyone"], ["80", "Reliability 80% or more"], ["90", "Reliability 90% or more"],
                     ["95", "Reliability 95% or more"]];
const PACES = [["", "Untimed"], ["1h", "1 hour a move"], ["1d", "1 day a move"], ["3d", "3 days a move"],
               ["bank", "Time bank"]];

export function LobbyPage({ params }) {
  const [types, setTypes] = useState(null);
  const [lobby, setLobby] = useState({ open: [], finished: [] });
  const [error, setError] = useState(null);
  const [joining, setJoining] = useState(null); // a signed-out visitor's Join: the game waiting for their name
  const [name, setName] = useState("");
  const load = () => get("/lobby").then(setLobby).catch((err) => setError(errorText(err)));
  useEffect(() => {
    setTitle("Lobby");
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
  return html`<h1>Lobby</h1>
    <${ErrorLine} error=${error} />
    <div class="columns">
      <section aria-labelledby="new-h"
               class=${params.get("game") || params.get("invite") ? "lobby-new first-on-phone" : "lobby-new"}>
        <h2 id="new-h">New game</h2>
        ${types ? html`<${NewGameForm} types=${types} initial=${params.get("game")}
          invite=${params.get("invite")} />` : html`<p>Loading…</p>`}
      </section>
      <section aria-labelledby="open-h" class="lobby-open">
        <h2 id="open-h">Open games</h2>
        ${lobby.open.length === 0 ? html`<p class="muted">No open game right now: start one.</p>` : null}
        <ul class="list">
          ${lobby.open.map((g) => html`<li key=${g.game_id} class="row">
            <span><strong>${gameTitle(types, g.game)}</strong>
              <span class="muted">${seatSummary(g.seats)}</span>
              <${GameFlags} meta=${g} /></span>
            <span class="actions"><a href=${`#/game/${g.game_id}`}>Watch</a>
              <button type="button" onClick=${() => join(g.game_id)}>Join</button></span>
            ${joining === g.game_id && !auth.token() ? html`<form class="join-name"
                onSubmit=${(e) => { e.preventDefault(); join(g.game_id); }}>
              <${NameField} id=${`join-name-${g.game_id}`} value=${name} onInput=${setName} />
              <button type="submit" class="primary">Join as ${name.trim() || "…"}</button></form>` : null}
          </li>`)}
        </ul>
        <h2>Recently finished</h2>
        <ul class="list">
          ${lobby.finished.slice(0, 10).map((g) => html`<li key=${g.game_id} class="row">
            <a href=${`#/game/${g.game_id}`}>${gameTitle(types, g.game)}</a>
            <span class="muted">${winner(g)} · ${ago(now() - (g.updated || now()))} ago${seatNews(g.seats)
              ? ` · ${seatNews(g.seats)}` : ""}</span>
          </li>`)}
        </ul>
      </section>
    </div>`;
}

// " · Ana, Greedy bot · 1 open": one string, since htm drops the space where a text runs over a line break
function seatSummary(seats) {
  const seated = seats.filter((s) => !s.open).map((s) => s.name || "bot");
  return ` · ${seated.length ? `${seated.join(", ")} · ` : ""}${seats.filter((s) => s.open).length} open`;
}

function winner(meta) {
  const first = Object.entries(meta.places || {}).filter(([, place]) => place === 1).map(([seat]) => Number(seat));
  return first.length ? `won by ${first.map((s) => meta.seats[s]?.name || `seat ${s + 1}`).join(" and ")}` : "ended";
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
  const label = schema.title || s.title || name.replace(/_/g, " ");
  const help = schema.description || s.description;
  let input;
  if ("const" in s) return null; // nothing to choose
  if (s.type === "boolean") {
    return html`<div class="field check">
      <input type="checkbox" id=${id} checked=${Boolean(value)} onChange=${(e) => onChange(e.target.checked)} />
      <label for=${id}>${label}</label>${help ? html`<small>${help}</small>` : null}</div>`;
  } else if (s.enum) {
    input = html`<select id=${id} value=${value} onChange=${(e) => onChange(e.target.value)}>
      ${s.enum.map((v) => html`<option value=${v}>${String(v)}</option>`)}</select>`;
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

// A friend's seat: the first seat that is not mine or already someone's, else one more seat.
function withFriend(seats, handle, max) {
  if (seats.some((s) => s.kind === "handle" && s.handle === handle)) return seats;
  const free = seats.findIndex((s) => s.kind === "bot" || s.kind === "open" || (s.kind === "handle" && !s.handle));
  if (free >= 0) return seats.map((s, i) => (i === free ? { kind: "handle", handle } : s));
  return seats.length < max ? [...seats, { kind: "handle", handle }] : seats;
}

// The players I follow, as one-tap buttons that give each a seat of the game being set up.
function FriendPicks({ seats, max, onPick }) {
  const [friends, setFriends] = useState([]);
  useEffect(() => {
    get("/players/me/friends", auth.token()).then((d) => setFriends(d.friends.filter((f) => f.handle)))
      .catch(() => setFriends([]));
  }, []);
  if (!friends.length) return null;
  const seated = new Set(seats.filter((s) => s.kind === "handle").map((s) => s.handle));
  const full = seats.length >= max && !seats.some((s) => s.kind === "bot" || s.kind === "open");
  const online = html`<span class="dot on" aria-hidden="true"></span>`;
  const onlineWords = html`<span class="sr-only"> (online)</span>`;
  return html`<div class="friend-picks" role="group" aria-label="Invite a friend">
    <span class="muted">Invite a friend:</span>
    ${friends.map((f) => html`<button type="button" key=${f.player_id} aria-pressed=${seated.has(f.handle)}
        disabled=${seated.has(f.handle) || full} onClick=${() => onPick(f.handle)}>${f.online ? online : null}${
        seated.has(f.handle) ? `${f.name} ✓` : f.name}${f.online ? onlineWords : null}</button>`)}
  </div>`;
}

function NewGameForm({ types, initial, invite }) {
  const [gameId, setGameId] = useState(types.find((t) => t.id === initial)?.id || types[0]?.id);
  const type = types.find((t) => t.id === gameId);
  const [options, setOptions] = useState(defaults(type));
  const signedIn = Boolean(auth.token());
  const [name, setName] = useState(""); // a visitor's name: they register as the game is created
  const firstSeats = (t) => Array.from({ length: Math.max(2, t?.min_players || 2) }, (_, i) =>
    i === 0 ? { kind: "me" } : { kind: "bot", bot: "greedy" });
  const [seats, setSeats] = useState(invite ? withFriend(firstSeats(type), invite.replace(/^@/, ""),
    type?.max_players || 8) : firstSeats(type));
  const [pace, setPace] = useState("");
  const [casual, setCasual] = useState(false); // unrated; then hints may be allowed
  const [hints, setHints] = useState(false);
  const [reliable, setReliable] = useState(""); // min_reliability, "" for anyone
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
        : s.kind === "invite" ? { name: (s.name || "").trim() || "Friend" } : {}),
    };
    if (pace) body.pace = pace;
    if (casual) Object.assign(body, { rated: false, hints });
    if (reliable) body.min_reliability = Number(reliable);
    try {
      const invited = seats.map((s, i) => ({ seat: i, handle: (s.handle || "").trim().replace(/^@/, "") }))
        .filter((x, i) => seats[i].kind === "handle");
      for (const x of invited) {
        if (!x.handle) throw new PlainError(`Seat ${x.seat + 1}: whose handle? Type the player's handle.`);
        // a typo fails before the game exists, naming the handle
        await get(`/players/by-handle/${encodeURIComponent(x.handle)}`).catch((err) => {
          if (err.code !== "player_not_found") throw err;
          throw new PlainError(`Nobody here has the handle @${x.handle}. Check the spelling.`);
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
      <h3>Send each invited player their link</h3>
      <p class="muted">A link is shown only now; it lets its holder play that seat.</p>
      ${invites.links.map((l) => html`<div class="field"><span>${l.name} (seat ${l.seat + 1})</span>
        <${CopyField} label=${`Invitation link for ${l.name} (seat ${l.seat + 1})`} value=${l.link} /></div>`)}
      <a class="button" href=${`#/game/${invites.gameId}`}>Go to the game</a>
    </div>`;
  }
  const props = type?.options?.properties || {};
  return html`<form class="card new-game" onSubmit=${create} aria-describedby="new-h">
    ${signedIn ? null : html`<${NameField} id="ng-name" value=${name} onInput=${setName} />`}
    <div class="field"><label for="ng-game">Game</label>
      <select id="ng-game" value=${gameId} onChange=${(e) => pickGame(e.target.value)}>
        ${types.map((t) => html`<option value=${t.id}>${t.title}</option>`)}</select>
      ${hasGuide(gameId) ? html`<small class="howto-links">New to it? <a href=${`#/rules/${gameId}`}>How to play</a> ·
        <a href=${`#/learn/${gameId}`}>Learn to play with a coach</a></small>` : null}</div>
    <fieldset><legend>Seats (${type?.min_players}–${type?.max_players})</legend>
      ${seats.map((s, i) => html`<div class="seat-row" key=${i}>
        <label for=${`seat-${i}`}>Seat ${i + 1}</label>
        <select id=${`seat-${i}`} value=${s.kind}
                onChange=${(e) => setSeat(i, { kind: e.target.value, bot: s.bot || "greedy" })}>
          <option value="me">Me</option>
          <option value="open">Open (anyone joins)</option>
          <option value="bot">Bot</option>
          <option value="handle">Player by handle (invitation)</option>
          <option value="invite">Friend by link (no account needed)</option>
        </select>
        ${s.kind === "bot" ? html`<select aria-label=${`Seat ${i + 1} bot level`} value=${s.bot}
            onChange=${(e) => setSeat(i, { bot: e.target.value })}>
            ${BOT_LEVELS.map((l) => html`<option value=${l}>${l}</option>`)}</select>` : null}
        ${s.kind === "handle" ? html`<input aria-label=${`Seat ${i + 1} player's handle`} placeholder="@handle"
            value=${s.handle || ""} onInput=${(e) => setSeat(i, { handle: e.target.value })} />` : null}
        ${s.kind === "invite" ? html`<input aria-label=${`Seat ${i + 1} player's name`} placeholder="their name"
            value=${s.name || ""} onInput=${(e) => setSeat(i, { name: e.target.value })} />` : null}
      </div>`)}
      ${signedIn ? html`<${FriendPicks} seats=${seats} max=${type?.max_players || 8}
        onPick=${(h) => setSeats(withFriend(seats, h, type?.max_players || 8))} />` : null}
      <p>
        <button type="button" disabled=${seats.length >= (type?.max_players || 8)}
          onClick=${() => setSeats([...seats, { kind: "bot", bot: "greedy" }])}>Add seat</button>
        <button type="button" disabled=${seats.length <= (type?.min_players || 1)}
          onClick=${() => setSeats(seats.slice(0, -1))}>Remove seat</button>
      </p>
    </fieldset>
    ${Object.keys(props).length ? html`<fieldset><legend>Options</legend>
      ${Object.entries(props).map(([name, schema]) => html`<${OptionField} key=${gameId + name} name=${name}
          schema=${schema} root=${type.options} value=${options[name]}
          onChange=${(v) => setOptions({ ...options, [name]: v })} />`)}
    </fieldset>` : null}
    <div class="field"><label for="ng-pace">Pace</label>
      <select id="ng-pace" value=${pace} onChange=${(e) => setPace(e.target.value)}>
        ${PACES.map(([v, label]) => html`<option value=${v}>${label}</option>`)}</select></div>
    <fieldset class="fair"><legend>Fair play</legend>
      <div class="field"><label class="check-line"><input type="checkbox" id="ng-casual" checked=${casual}
          onChange=${(e) => setCasual(e.target.checked)} /> Casual game (not rated)</label>
        ${casual ? html`<label class="check-line"><input type="checkbox" checked=${hints}
          onChange=${(e) => setHints(e.target.checked)} />
          Allow hints from the coach (everyone sees when one is asked for)</label>` : null}</div>
      <div class="field"><label for="ng-reliable">Who may join</label>
        <select id="ng-reliable" value=${reliable} onChange=${(e) => setReliable(e.target.value)}>
          ${RELIABILITY.map(([v, label]) => html`<option value=${v}>${label}</option>`)}</select>
        <small>${"Reliability: the share of their games a player finished without the autopilot. "}<a
          href="#/fair-play">Fair play</a></small></div>
    </fieldset>
    <${ErrorLine} error=${error} />
    <button type="submit" class="primary">Create game</button>
  </form>`;
}
