// Start: what Taproom is, the games (how to play, learn to play), register / sign in / sign out.
import { useEffect, useState } from "preact/hooks";
import { html } from "../html.js";
import { auth, errorText, gameTypes, get, post } from "../api.js";
import { CopyField, ErrorLine, setTitle } from "../ui.js";
import { refreshWaiting } from "../waiting.js";
import { hasGuide } from "../howto.js";
import { t, tx } from "../i18n.js";

export function StartPage() {
  const [types, setTypes] = useState([]);
  const [signedIn, setSignedIn] = useState(Boolean(auth.token()));
  useEffect(() => {
    setTitle(t("Play board games over days"));
    gameTypes().then(setTypes).catch(() => setTypes([]));
  }, []);
  return html`<section class="hero">
      <h1>Taproom</h1>
      <p>${t("Board games played over days, on a phone or a laptop, against friends and bots. Every move is an " +
        "event in a public, hash-chained log: when a game ends its secret seed is revealed, so anyone can check " +
        "that every shuffle and every roll was fair.")}</p>
    </section>
    <div class="columns">
      <section aria-labelledby="games-h">
        <h2 id="games-h">${t("The games")}</h2>
        <ul class="cards">
          ${types.map((g) => html`<li class="card" key=${g.id}>
            <h3>${t(g.title)}</h3>
            <p class="muted">${t("{min}–{max} players", { min: g.min_players, max: g.max_players })}</p>
            ${g.summary ? html`<p>${t(g.summary)}</p>` : null}
            <p class="card-links">${hasGuide(g.id) ? html`<a class="button primary" href=${`#/learn/${g.id}`}
                >${t("Learn to play")}</a>
              <a href=${`#/rules/${g.id}`}>${t("How to play")}</a> · ` : null}<a href=${`#/lobby?game=${g.id}`}
              >${t("Start a game")}</a></p>
          </li>`)}
        </ul>
      </section>
      <section aria-labelledby="me-h" class=${signedIn ? "" : "first-on-phone"}>
        <h2 id="me-h">${signedIn ? t("You") : t("Play")}</h2>
        ${signedIn ? html`<${SignedIn} onSignOut=${() => setSignedIn(false)} />`
                   : html`<${Register} onDone=${() => setSignedIn(true)} />`}
      </section>
    </div>`;
}

function Register({ onDone }) {
  const [name, setName] = useState("");
  const [handle, setHandle] = useState("");
  const [link, setLink] = useState("");
  const [recovery, setRecovery] = useState({ handle: "", code: "" });
  const [created, setCreated] = useState(null);
  const [error, setError] = useState(null);
  async function register(e) {
    e.preventDefault();
    setError(null);
    try {
      const body = { name: name.trim() };
      if (handle.trim()) body.handle = handle.trim();
      const made = await post("/players", body);
      auth.signIn(made.token, made.name, made.player_id);
      refreshWaiting();
      setCreated(made); // the recovery code is shown now or never
    } catch (err) {
      setError(errorText(err));
    }
  }
  async function recover(e) {
    e.preventDefault();
    setError(null);
    try {
      const body = { handle: recovery.handle.trim(), recovery_code: recovery.code.trim() };
      const made = await post("/players/recover", body);
      auth.signIn(made.token, made.name, made.player_id);
      setCreated(made);
    } catch (err) {
      setError(errorText(err));
    }
  }
  function useLink(e) {
    e.preventDefault();
    const hash = link.trim().replace(/^[^#]*#/, "#");
    if (!hash.startsWith("#/signin/")) return setError(t("That is not a Taproom sign-in link."));
    location.hash = hash;
    onDone();
  }
  if (created) {
    return html`<div class="card recovery">
      <h3>${t("Welcome, {name}", { name: created.name })}</h3>
      ${created.handle ? html`<p>${tx("Your handle is {handle}: friends invite you by it.",
        { handle: html`<strong>@${created.handle}</strong>` })}</p>` : null}
      ${created.recovery_code ? html`<p>${t("Your recovery code, shown only now. Keep it somewhere safe: with your " +
          "handle it brings your account back if this browser forgets you.")}</p>
        <p><input readonly class="code" aria-label=${t("Your recovery code")} value=${created.recovery_code}
          onFocus=${(e) => e.target.select()} /></p>` : null}
      <button type="button" class="primary" onClick=${() => { onDone(); location.hash = "#/lobby"; }}
        >${t("Continue to the lobby")}</button>
    </div>`;
  }
  return html`<form class="card" onSubmit=${register}>
      <h3>${t("New here? Pick a name")}</h3>
      <label for="reg-name">${t("Your name")}</label>
      <input id="reg-name" name="name" required maxlength="64" autocomplete="nickname" value=${name}
             onInput=${(e) => setName(e.target.value)} />
      <label for="reg-handle">${t("Handle")} <span class="muted">${t("(optional: how friends find you)")}</span></label>
      <input id="reg-handle" name="handle" maxlength="20" autocomplete="username" value=${handle}
             onInput=${(e) => setHandle(e.target.value)} />
      <button type="submit">${t("Register and play")}</button>
    </form>
    <form class="card" onSubmit=${useLink}>
      <h3>${t("Played on another device?")}</h3>
      <label for="signin-link">${t("Paste your sign-in link")}</label>
      <input id="signin-link" value=${link} onInput=${(e) => setLink(e.target.value)} autocomplete="off" />
      <button type="submit">${t("Sign in")}</button>
    </form>
    <details class="card">
      <summary>${t("Lost your sign-in? Use your recovery code")}</summary>
      <form onSubmit=${recover}>
        <label for="rec-handle">${t("Handle")}</label>
        <input id="rec-handle" value=${recovery.handle} autocomplete="username"
               onInput=${(e) => setRecovery({ ...recovery, handle: e.target.value })} />
        <label for="rec-code">${t("Recovery code")}</label>
        <input id="rec-code" value=${recovery.code} autocomplete="off"
               onInput=${(e) => setRecovery({ ...recovery, code: e.target.value })} />
        <button type="submit">${t("Recover my account")}</button>
      </form>
    </details>
    <${ErrorLine} error=${error} />`;
}

function SignedIn({ onSignOut }) {
  const [shown, setShown] = useState(false);
  const [me, setMe] = useState(null);
  useEffect(() => {
    // the server's word on who this is (name, handle), where it offers GET /players/me
    // signed out (or in as someone else) before the answer came: it must not write a token back
    const asked = auth.token();
    get("/players/me", asked).then((found) => {
      if (found?.name && auth.token() === asked) auth.signIn(asked, found.name, found.player_id);
      setMe(found);
    }).catch(() => {});
  }, []);
  const params = new URLSearchParams({ name: auth.name() || "", player: auth.playerId() || "" });
  const link = `${location.origin}/#/signin/${encodeURIComponent(auth.token())}?${params}`;
  return html`<div class="card">
    <p>${tx("Signed in as {name}{handle}.", {
      name: html`<strong class="me-name">${me?.name || auth.name() || t("a player")}</strong>`,
      handle: me?.handle ? html` <span class="muted">(@${me.handle})</span>` : "" })}</p>
    <p><a class="button" href="#/inbox">${t("Your games")}</a> <a class="button" href="#/lobby">${t("Lobby")}</a></p>
    <h3>${t("Sign-in link")}</h3>
    <p class="muted">${t("Open it on another device to play there too. Anyone with it can play as you: keep it " +
      "private.")}</p>
    ${shown ? html`<${CopyField} label=${t("Sign-in link")} value=${link} />`
            : html`<button type="button" onClick=${() => setShown(true)}>${t("Show sign-in link")}</button>`}
    <h3>${t("Sign out")}</h3>
    <p class="muted">${t("This browser forgets your token. Without a sign-in link you cannot come back as " +
      "yourself.")}</p>
    <button type="button" class="danger" onClick=${() => { auth.signOut(); onSignOut(); }}>${t("Sign out")}</button>
  </div>`;
}
