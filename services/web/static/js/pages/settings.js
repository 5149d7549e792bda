// Settings: notification kinds, quiet hours, e-mail (address, per-kind mode, digest) and Web Push for this
// browser, all through the public API (GET/PUT /players/me/notification-settings and friends).
import { useEffect, useState } from "preact/hooks";
import { html } from "../html.js";
import { auth, del, errorText, get, post, put } from "../api.js";
import { plainDetail } from "../errors.js";
import { ErrorLine, setTitle } from "../ui.js";
import { useConfirmMoves } from "../action-bar.js";
import { ChatPeopleSection } from "../blocklist.js";
import { N_, locale, locales, setLocale, t, tn, tx } from "../i18n.js";
import { saveLanguage, useLocale } from "../language.js";

const KINDS = [
  ["your_turn", N_("It is my turn")],
  ["deadline_soon", N_("A deadline is close")],
  ["timed_out", N_("I timed out")],
  ["taken_over", N_("An autopilot took my seat")],
  ["seat_vote", N_("Players vote on my seat")],
  ["replaced", N_("My seat was given away")],
  ["game_over", N_("A game ended")],
  ["invited", N_("I am invited to a game")],
  ["absence_warning", N_("A game has waited for me a long while")],
  ["absent", N_("The table may vote on my seat")],
  ["absent_vote", N_("A player is away: I may vote")],
  ["left", N_("A player resigned or left")],
];
const EMAIL_KINDS = [["your_turn", N_("My turn")], ["game_over", N_("Game over, with the result")],
  ["invited", N_("Invitations")], ["deadline_soon", N_("Deadline close")],
  ["absence_warning", N_("A game waits for me")], ["absent", N_("The table may vote on my seat")]];
const MODES = [["off", N_("Off")], ["immediate", N_("At once")], ["digest", N_("In the daily digest")]];

const browserZone = () => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch (err) {
    return "UTC";
  }
};
const zones = () => (typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : []);
const hhmm = (t) => (t || "").slice(0, 5);
const pad = (n) => String(n).padStart(2, "0");

export function SettingsPage() {
  const [data, setData] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    setTitle(t("Settings"));
    if (!auth.token()) return;
    get("/players/me/notification-settings", auth.token()).then(setData).catch((err) => setError(errorText(err)));
  }, []);
  if (!auth.token()) {
    return html`<div class="settings"><h1>${t("Settings")}</h1><${LanguageSection} /><${PlayingSection} />
      <p>${tx("Register or sign in on the {start} for notifications.",
        { start: html`<a href="#/">${t("start page")}</a>` })}</p></div>`;
  }
  if (!data) {
    return html`<div class="settings"><h1>${t("Settings")}</h1><${LanguageSection} /><${PlayingSection} />
      <${ErrorLine} error=${error} /><p>${t("Loading…")}</p></div>`;
  }
  return html`<div class="settings">
    <h1>${t("Settings")}</h1>
    <p class="muted">${t("Notifications reach you outside Taproom: by webhook, e-mail and Web Push. Everything " +
      "also stays in your inbox.")}</p>
    <${LanguageSection} />
    <${PlayingSection} />
    <${PreferencesForm} initial=${data.preferences} emailEnabled=${data.email.enabled} />
    <${EmailSection} initial=${data.email} />
    <${PushSection} push=${data.push} />
    <${ChatPeopleSection} />
  </div>`;
}

// The language of the pages and, for a signed-in player, of their e-mails and push notifications (kept by the
// server; the page head's switch is the same setting).
function LanguageSection() {
  const current = useLocale();
  async function choose(event) {
    const code = event.currentTarget.value;
    await setLocale(code);
    saveLanguage(code);
  }
  return html`<section class="card" aria-labelledby="language-h">
    <h2 id="language-h">${t("Language")}</h2>
    <div class="field"><label for="language-select">${t("Language of the pages, e-mails and push notifications")}
      </label>
      <select id="language-select" value=${current} onChange=${choose}>
        ${Object.entries(locales()).map(([code, name]) => html`<option value=${code} lang=${code}>${name}</option>`)}
      </select>
      <small>${auth.token() ? t("Kept with your account: your other devices switch to it when you sign in there.")
        : t("Kept in this browser. Sign in to have your e-mails in it too.")}</small></div>
  </section>`;
}

// Playing on this device: move confirmation (kept in this browser; the game page's bar has the same switch).
function PlayingSection() {
  const [confirmOn, setConfirmOn] = useConfirmMoves();
  return html`<section class="card" aria-labelledby="playing-h">
    <h2 id="playing-h">${t("Playing on this device")}</h2>
    <div class="field check">
      <input type="checkbox" role="switch" id="confirm-moves" checked=${confirmOn}
             onChange=${(e) => setConfirmOn(e.target.checked)} />
      <label for="confirm-moves">${t("Confirm moves")}</label>
      <small>${t("A move waits in the bar until you tap Confirm, and Undo takes it back until then. On by default " +
        "on touch screens, where a mis-tap is easy.")}</small>
    </div>
  </section>`;
}

function PreferencesForm({ initial, emailEnabled }) {
  const [kinds, setKinds] = useState(new Set(initial.kinds));
  const [quiet, setQuiet] = useState(!!initial.quiet_hours);
  const [start, setStart] = useState(hhmm(initial.quiet_hours?.start) || "22:00");
  const [end, setEnd] = useState(hhmm(initial.quiet_hours?.end) || "07:30");
  const [zone, setZone] = useState(initial.quiet_hours?.timezone || browserZone());
  const [modes, setModes] = useState({ ...initial.email.kinds });
  const [digestHour, setDigestHour] = useState(initial.email.digest_hour);
  const [everyTurn, setEveryTurn] = useState(initial.email.every_turn);
  const [status, setStatus] = useState("");
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);

  const toggle = (kind, on) => {
    const next = new Set(kinds);
    if (on) next.add(kind);
    else next.delete(kind);
    setKinds(next);
  };
  async function save(event) {
    event.preventDefault();
    setBusy(true);
    setStatus("");
    setError(null);
    const body = {
      kinds: KINDS.map(([k]) => k).filter((k) => kinds.has(k)),
      quiet_hours: quiet ? { start, end, timezone: zone.trim() } : null,
      email: { kinds: modes, digest_hour: Number(digestHour), every_turn: everyTurn },
    };
    try {
      await put("/players/me/notification-settings", body, auth.token());
      setStatus(t("Saved."));
    } catch (err) {
      const detail = err.status === 422 ? plainDetail(plain(err.message)) : null;
      setError(detail && locale() === "en" ? t("These settings were not saved: {detail}", { detail }) : errorText(err));
    } finally {
      setBusy(false);
    }
  }
  const zoneList = zones();
  return html`<form class="card" onSubmit=${save} aria-labelledby="prefs-h">
    <h2 id="prefs-h">${t("Notifications")}</h2>
    <fieldset>
      <legend>${t("Tell me when")}</legend>
      ${KINDS.map(([k, label]) => html`<div class="field check" key=${k}>
        <input type="checkbox" id=${`kind-${k}`} checked=${kinds.has(k)}
          onChange=${(e) => toggle(k, e.currentTarget.checked)} />
        <label for=${`kind-${k}`}>${t(label)}</label></div>`)}
    </fieldset>
    <fieldset>
      <legend>${t("Quiet hours")}</legend>
      <div class="field check">
        <input type="checkbox" id="quiet-on" checked=${quiet} onChange=${(e) => setQuiet(e.currentTarget.checked)} />
        <label for="quiet-on">${t("Hold notifications during quiet hours")}</label>
      </div>
      <p class="muted small">${t("What falls into them is delivered when they end. They may span midnight.")}</p>
      <div class="inline-fields">
        <div class="field"><label for="quiet-start">${t("From")}</label>
          <input type="time" id="quiet-start" value=${start} disabled=${!quiet} required=${quiet}
            onInput=${(e) => setStart(e.currentTarget.value)} /></div>
        <div class="field"><label for="quiet-end">${t("Until")}</label>
          <input type="time" id="quiet-end" value=${end} disabled=${!quiet} required=${quiet}
            onInput=${(e) => setEnd(e.currentTarget.value)} /></div>
      </div>
      <div class="field"><label for="quiet-zone">${t("Time zone")}</label>
        <input id="quiet-zone" list="zone-list" value=${zone} disabled=${!quiet} required=${quiet}
          autocomplete="off" spellcheck="false" onInput=${(e) => setZone(e.currentTarget.value)} />
        <small>${t("An IANA name such as Europe/Berlin; this browser says {zone}. The daily digest uses it too.",
          { zone: browserZone() })}</small>
        ${zoneList.length
          ? html`<datalist id="zone-list">${zoneList.map((z) => html`<option value=${z} />`)}</datalist>` : null}
      </div>
    </fieldset>
    <fieldset>
      <legend>${t("E-mail")}</legend>
      ${emailEnabled ? null
        : html`<p class="muted small">${t("This server sends no e-mail; these choices apply if it starts to.")}</p>`}
      ${EMAIL_KINDS.map(([k, label]) => html`<div class="field mode-row" key=${k}>
        <label for=${`mail-${k}`}>${t(label)}</label>
        <select id=${`mail-${k}`} value=${modes[k] || "off"}
          onChange=${(e) => setModes({ ...modes, [k]: e.currentTarget.value })}>
          ${MODES.map(([m, text]) => html`<option value=${m}>${t(text)}</option>`)}
        </select></div>`)}
      <div class="field mode-row"><label for="digest-hour">${t("Daily digest at")}</label>
        <select id="digest-hour" value=${String(digestHour)}
                onChange=${(e) => setDigestHour(Number(e.currentTarget.value))}>
          ${Array.from({ length: 24 }, (_, h) => html`<option value=${String(h)}>${pad(h)}:00</option>`)}
        </select></div>
      <div class="field check">
        <input type="checkbox" id="every-turn" checked=${everyTurn}
               onChange=${(e) => setEveryTurn(e.currentTarget.checked)} />
        <label for="every-turn">${t("An e-mail for every turn")}</label>
        <small>${t("Otherwise at most one \"your turn\" e-mail per game per hour.")}</small>
      </div>
    </fieldset>
    <${ErrorLine} error=${error} />
    <p class="actions"><button type="submit" disabled=${busy}>${t("Save notification settings")}</button>
      <span role="status" class="ok">${status}</span></p>
  </form>`;
}

// pydantic's messages name fields ("quiet_hours.timezone: Value error, …"); keep the part a person can act on.
function plain(message) {
  return String(message).replace(/^'?[\w.]+'?: /, "").replace(/^Value error, /, "").replace(/\(code[^)]*\)/, "");
}

function EmailSection({ initial }) {
  const [state, setState] = useState({ address: initial.address, pending: initial.pending });
  const [value, setValue] = useState("");
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);
  async function add(event) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const answer = await put("/players/me/email", { address: value.trim() }, auth.token());
      setState({ ...state, pending: answer.pending });
      setSent(true);
      setValue("");
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  }
  async function remove() {
    setBusy(true);
    setError(null);
    try {
      await del("/players/me/email", auth.token());
      setState({ address: null, pending: null });
      setSent(false);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  }
  const any = state.address || state.pending;
  return html`<section class="card" aria-labelledby="email-h">
    <h2 id="email-h">${t("E-mail address")}</h2>
    ${initial.enabled ? null
      : html`<p class="muted">${t("This server sends no e-mail (no mail server is configured).")}</p>`}
    ${state.address ? html`<p class="email-state">${tx("Verified: {address}",
      { address: html`<strong>${state.address}</strong>` })}</p>` : null}
    ${state.pending ? html`<p class="email-state" role=${sent ? "status" : undefined}
      >${sent ? tx("Pending: {address}. Check your inbox: follow the link in the e-mail we sent to confirm it.",
        { address: html`<strong>${state.pending}</strong>` })
        : tx("Pending: {address}. Follow the link in the e-mail we sent to confirm it.",
          { address: html`<strong>${state.pending}</strong>` })}</p>` : null}
    ${any ? null : html`<p class="email-state muted">${t("No address yet.")}</p>`}
    ${initial.enabled || any ? html`<form onSubmit=${add} class="email-form">
      <div class="field"><label for="email-address">${any ? t("Change address") : t("Address")}</label>
        <input type="email" id="email-address" autocomplete="email" required value=${value}
          onInput=${(e) => setValue(e.currentTarget.value)} /></div>
      <p class="actions"><button type="submit" disabled=${busy || !initial.enabled}>${t("Send confirmation link")
        }</button>
        ${any ? html`<button type="button" class="danger" disabled=${busy} onClick=${remove}
          >${t("Remove e-mail address")}</button>` : null}</p>
    </form>` : null}
    <${ErrorLine} error=${error} />
  </section>`;
}

// base64url → bytes, for applicationServerKey
function keyBytes(b64url) {
  const b64 = b64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (b64url.length % 4)) % 4);
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

// The server names a subscription by the first 16 hex digits of the SHA-256 of its endpoint.
async function subscriptionId(endpoint) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(endpoint));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("").slice(0, 16);
}

const pushSupported = () => "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

function PushSection({ push }) {
  const [on, setOn] = useState(null); // null: still finding out
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const [status, setStatus] = useState("");
  const [known, setKnown] = useState(push.subscriptions || []);

  useEffect(() => {
    if (!push.enabled || !pushSupported()) return;
    (async () => {
      const reg = await navigator.serviceWorker.getRegistration("/");
      const sub = reg && (await reg.pushManager.getSubscription());
      setOn(!!sub && known.includes(await subscriptionId(sub.endpoint)));
    })().catch(() => setOn(false));
  }, []);

  async function turnOn() {
    if ((await Notification.requestPermission()) !== "granted") {
      throw new Error(t("Notifications are blocked for this site. Allow them in the browser's site settings, " +
        "then try again."));
    }
    const reg = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
    await navigator.serviceWorker.ready;
    const { public_key: key } = await get("/push/key");
    let sub;
    try {
      sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
    } catch (err) {
      throw new Error(t("This browser could not subscribe to push notifications (the browser said: {reason}). Try " +
        "again later or in another browser, or use e-mail instead.", { reason: err.message || err.name }),
      { cause: err });
    }
    const saved = await post("/players/me/push-subscriptions", sub.toJSON(), auth.token());
    setKnown([...known, saved.id]);
  }
  async function turnOff() {
    const reg = await navigator.serviceWorker.getRegistration("/");
    const sub = reg && (await reg.pushManager.getSubscription());
    if (!sub) return;
    const id = await subscriptionId(sub.endpoint);
    await sub.unsubscribe();
    try {
      await del(`/players/me/push-subscriptions/${id}`, auth.token());
    } catch (err) {
      if (err.status !== 404) throw err; // already gone on the server: nothing left to remove
    }
    setKnown(known.filter((k) => k !== id));
  }
  async function change(event) {
    const want = event.currentTarget.checked;
    setBusy(true);
    setError(null);
    setStatus("");
    try {
      if (want) await turnOn();
      else await turnOff();
      setOn(want);
      setStatus(want ? t("Push notifications are on for this browser.")
        : t("Push notifications are off for this browser."));
    } catch (err) {
      setOn(!want);
      setError(err.code ? errorText(err) : err.message);
    } finally {
      setBusy(false);
    }
  }

  let body;
  if (!push.enabled) {
    body = html`<p class="muted">${t("This server sends no Web Push (no VAPID key is configured).")}</p>`;
  } else if (!pushSupported()) {
    body = html`<p class="muted">${t("This browser cannot receive Web Push notifications.")}</p>`;
  }
  else {
    body = html`<div class="field check">
      <input type="checkbox" id="push-on" checked=${!!on} disabled=${busy || on === null} onChange=${change} />
      <label for="push-on">${t("Push notifications on this browser")}</label>
      <small>${tn("{n} browser of yours receives push notifications.",
        "{n} browsers of yours receive push notifications.", known.length)}</small>
    </div>
    <p role="status" class="ok">${status}</p>`;
  }
  return html`<section class="card" aria-labelledby="push-h">
    <h2 id="push-h">${t("Web Push")}</h2>
    ${body}
    <${ErrorLine} error=${error} />
  </section>`;
}
