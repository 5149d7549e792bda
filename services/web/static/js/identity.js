// Picking a name where playing needs one: a visitor without a token registers inline (name only) and the
// action they asked for goes on in the same step. The start page offers the sign-in link for other devices.
import { html } from "./html.js";
import { auth, post } from "./api.js";
import { PlainError } from "./errors.js";
import { refreshWaiting } from "./waiting.js";
import { t } from "./i18n.js";

// The player's token: the one this browser has, or a new player's registered under `name`.
export async function ensurePlayer(name) {
  if (auth.token()) return auth.token();
  const clean = (name || "").trim();
  if (!clean) throw new PlainError(t("Pick a name first: it is how the other players see you."));
  const made = await post("/players", { name: clean });
  auth.signIn(made.token, made.name, made.player_id);
  refreshWaiting();
  return made.token;
}

export function NameField({ id, value, onInput, label }) {
  return html`<div class="field name-field"><label for=${id}>${label || t("Your name")}</label>
    <input id=${id} required maxlength="64" autocomplete="nickname" value=${value}
           onInput=${(e) => onInput(e.target.value)} />
    <small>${t("No e-mail, no password: other players see this name. This browser remembers you; the start " +
      "page gives you a link to play from your other devices too.")}</small></div>`;
}
