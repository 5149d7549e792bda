// The language switch in the page head, and the player's language setting kept by the server (e-mails and
// pushes follow it): a switch while signed in is saved there, and a sign-in applies the saved one (a player
// who never chose gets the language they are reading now).
import { useEffect, useState } from "preact/hooks";
import { html } from "./html.js";
import { auth, get, put } from "./api.js";
import { locale, locales, onLocaleChange, setLocale, t } from "./i18n.js";

export async function saveLanguage(code, token = auth.token()) {
  if (!token || !auth.playerId()) return;
  try {
    await put("/players/me/language", { language: code }, token);
  } catch {
    // the setting waits for the next switch: the page itself already speaks the language
  }
}

// After a sign-in: the player's saved language wins over this device's; none saved yet: this device's is saved.
export async function applySavedLanguage(token) {
  try {
    const saved = await get("/players/me/language", token);
    if (saved?.language && saved.language in locales()) await setLocale(saved.language);
    else await saveLanguage(locale(), token);
  } catch {
    // a seat token or an old server: the device's choice stands
  }
}

export function followSignIns() {
  auth.onSignIn((token) => applySavedLanguage(token));
}

export function useLocale() {
  const [code, setCode] = useState(locale());
  useEffect(() => onLocaleChange(setCode), []);
  return code;
}

export function LanguageSwitch() {
  const current = useLocale();
  const offered = Object.entries(locales());
  if (offered.length < 2) return null;
  async function choose(event) {
    const code = event.currentTarget.value;
    await setLocale(code);
    saveLanguage(code);
  }
  return html`<label class="language">
    <span class="sr-only">${t("Language")}</span>
    <select onChange=${choose} value=${current} aria-label=${t("Language")}>
      ${offered.map(([code, name]) => html`<option value=${code} lang=${code}>${name}</option>`)}
    </select>
  </label>`;
}
