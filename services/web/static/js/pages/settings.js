// Settings: notification kinds, quiet hours, e-mail (address, per-kind mode, digest) and Web Push for this
// browser, all through the public API (GET/PUT /players/me/notification-settings and friends).
import { useEffect, useState } from "preact/hooks";
import { html } from "../html.js";
import { auth, del, errorText, get, post, put } from "../api.js";
import { plainDetail } from "../errors.js";
import { ErrorLine, setTitle } from "../ui.js";
import { useConfirmMoves } from "../action-bar.js";
import { ChatPeopleSection } from "../blocklist.js";

const KINDS = [
  ["your_turn", "It is my turn"],
  ["deadline_soon", "A deadline is close"],
  ["timed_out", "I timed out"],
  ["taken_over", "An autopilot took my seat"],
  ["seat_vote", "Players vote on my seat"],
  ["replaced", "My seat was given away"],
  ["game_over", "A game ended"],
  ["invited", "I am invited to a game"],
  ["absence_warning", "A game has waited for me a long while"],
  ["absent", "The table may vote on my seat"],
  ["absent_vote", "A player is away: I may vote"],
  ["left", "A player resigned or left"],
];
const EMAIL_KINDS = [["your_turn", "My turn"], ["game_over", "Game over, with the result"],
  ["invited", "Invitations"], ["deadline_soon", "Deadline close"],
  ["absence_warning", "A game waits for me"], ["absent", "The table may vote on my seat"]];
const MODES = [["off", "Off"], ["immediate", "At once"], ["digest", "In the daily digest"]];

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
    setTitle("Settings");
    if (!auth.token()) return;
    get("/players/me/notification-settings", auth.token()).then(setData).catch((err) => setError(errorText(err)));
  }, []);
  if (!auth.token()) {
    return html`<div class="settings"><h1>Settings</h1><${PlayingSection} />
      <p>Register or sign in on the <a href="#/">start page</a> for notifications.</p></div>`;
  }
  if (!data) {
    return html`<div class="settings"><h1>Settings</h1><${PlayingSection} /><${ErrorLine} error=${error} />
      <p>Loading…</p></div>`;
  }
  return html`<div class="settings">
    <h1>Settings</h1>
    <p class="muted">Notifications reach you outside Taproom: by webhook, e-mail and Web Push. Everything also
      stays in your inbox.</p>
    <${PlayingSection} />
    <${PreferencesForm} initial=${data.preferences} emailEnabled=${data.email.enabled} />
    <${EmailSection} initial=${data.email} />
    <${PushSection} push=${data.push} />
    <${ChatPeopleSection} />
  </div>`;
}

// Playing on this device: move confirmation (kept in this browser; the game page's bar has the same switch).
function PlayingSection() {
  const [confirmOn, setConfirmOn] = useConfirmMoves();
  return html`<section class="card" aria-labelledby="playing-h">
    <h2 id="playing-h">Playing on this device</h2>
    <div class="field check">
      <input type="checkbox" role="switch" id="confirm-moves" checked=${confirmOn}
             onChange=${(e) => setConfirmOn(e.target.checked)} />
      <label for="confirm-moves">Confirm moves</label>
      <small>A move waits in the bar until you tap Confirm, and Undo takes it back until then. On by default on
        touch screens, where a mis-tap is easy.</small>
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
      setStatus("Saved.");
    } catch (err) {
      const detail = err.status === 422 ? plainDetail(plain(err.message)) : null;
      setError(detail ? `These settings were not saved: ${detail}` : errorText(err));
    } finally {
      setBusy(false);
    }
  }
  const zoneList = zones();
  return html`<form class="card" onSubmit=${save} aria-labelledby="prefs-h">
    <h2 id="prefs-h">Notifications</h2>
    <fieldset>
      <legend>Tell me when</legend>
      ${KINDS.map(([k, label]) => html`<div class="field check" key=${k}>
        <input type="checkbox" id=${`kind-${k}`} checked=${kinds.has(k)}
          onChange=${(e) => toggle(k, e.currentTarget.checked)} />
        <label for=${`kind-${k}`}>${label}</label></div>`)}
    </fieldset>
    <fieldset>
      <legend>Quiet hours</legend>
      <div class="field check">
        <input type="checkbox" id="quiet-on" checked=${quiet} onChange=${(e) => setQuiet(e.currentTarget.checked)} />
        <label for="quiet-on">Hold notifications during quiet hours</label>
      </div>
      <p class="muted small">What falls into them is delivered when they end. They may span midnight.</p>
      <div class="inline-fields">
        <div class="field"><label for="quiet-start">From</label>
          <input type="time" id="quiet-start" value=${start} disabled=${!quiet} required=${quiet}
            onInput=${(e) => setStart(e.currentTarget.value)} /></div>
        <div class="field"><label for="quiet-end">Until</label>
          <input type="time" id="quiet-end" value=${end} disabled=${!quiet} required=${quiet}
            onInput=${(e) => setEnd(e.currentTarget.value)} /></div>
      </div>
      <div class="field"><label for="quiet-zone">Time zone</label>
        <input id="quiet-zone" list="zone-list" value=${zone} disabled=${!quiet} required=${quiet}
          autocomplete="off" spellcheck="false" onInput=${(e) => setZone(e.currentTarget.value)} />
        <small>An IANA name such as Europe/Berlin; this browser says ${browserZone()}. The daily digest uses it
          too.</small>
        ${zoneList.length
          ? html`<datalist id="zone-list">${zoneList.map((z) => html`<option value=${z} />`)}</datalist>` : null}
      </div>
    </fieldset>
    <fieldset>
      <legend>E-mail</legend>
      ${emailEnabled ? null
        : html`<p class="muted small">This server sends no e-mail; these choices apply if it starts to.</p>`}
      ${EMAIL_KINDS.map(([k, label]) => html`<div class="field mode-row" key=${k}>
        <label for=${`mail-${k}`}>${label}</label>
        <select id=${`mail-${k}`} value=${modes[k] || "off"}
          onChange=${(e) => setModes({ ...modes, [k]: e.currentTarget.value })}>
          ${MODES.map(([m, text]) => html`<option value=${m}>${text}</option>`)}
        </select></div>`)}
      <div class="field mode-row"><label for="digest-hour">Daily digest at</label>
        <select id="digest-hour" value=${String(digestHour)}
                onChange=${(e) => setDigestHour(Number(e.currentTarget.value))}>
          ${Array.from({ length: 24 }, (_, h) => html`<option value=${String(h)}>${pad(h)}:00</option>`)}
        </select></div>
      <div class="field check">
        <input type="checkbox" id="every-turn" checked=${everyTurn}
               onChange=${(e) => setEveryTurn(e.currentTarget.checked)} />
        <label for="every-turn">An e-mail for every turn</label>
        <small>Otherwise at most one "your turn" e-mail per game per hour.</small>
      </div>
    </fieldset>
    <${ErrorLine} error=${error} />
    <p class="actions"><button type="submit" disabled=${busy}>Save notification settings</button>
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
    <h2 id="email-h">E-mail address</h2>
    ${initial.enabled ? null : html`<p class="muted">This server sends no e-mail (no mail server is configured).</p>`}
    ${state.address ? html`<p class="email-state">Verified: <strong>${state.address}</strong></p>` : null}
    ${state.pending ? html`<p class="email-state" role=${sent ? "status" : undefined}
      >Pending: <strong>${state.pending}</strong>.
      ${sent ? " Check your inbox: " : " "}follow the link in the e-mail we sent to confirm it.</p>` : null}
    ${any ? null : html`<p class="email-state muted">No address yet.</p>`}
    ${initial.enabled || any ? html`<form onSubmit=${add} class="email-form">
      <div class="field"><label for="email-address">${any ? "Change address" : "Address"}</label>
        <input type="email" id="email-address" autocomplete="email" required value=${value}
          onInput=${(e) => setValue(e.currentTarget.value)} /></div>
      <p class="actions"><button type="submit" disabled=${busy || !initial.enabled}>Send confirmation link</button>
        ${any ? html`<button type="button" class="danger" disabled=${busy} onClick=${remove}
          >Remove e-mail address</button>` : null}</p>
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
      throw new Error("Notifications are blocked for this site. Allow them in the browser's site settings, " +
        "then try again.");
    }
    const reg = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
    await navigator.serviceWorker.ready;
    const { public_key: key } = await get("/push/key");
    let sub;
    try {
      sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
    } catch (err) {
      throw new Error("This browser could not subscribe to push notifications (the browser said: " +
        `${err.message || err.name}). Try again later or in another browser, or use e-mail instead.`, { cause: err });
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
      setStatus(want ? "Push notifications are on for this browser." : "Push notifications are off for this browser.");
    } catch (err) {
      setOn(!want);
      setError(err.code ? errorText(err) : err.message);
    } finally {
      setBusy(false);
    }
  }

  let body;
  if (!push.enabled) body = html`<p class="muted">This server sends no Web Push (no VAPID key is configured).</p>`;
  else if (!pushSupported()) body = html`<p class="muted">This browser cannot receive Web Push notifications.</p>`;
  else {
    body = html`<div class="field check">
      <input type="checkbox" id="push-on" checked=${!!on} disabled=${busy || on === null} onChange=${change} />
      <label for="push-on">Push notifications on this browser</label>
      <small>${known.length} browser${known.length === 1 ? "" : "s"} of yours
        receive${known.length === 1 ? "s" : ""} push notifications.</small>
    </div>
    <p role="status" class="ok">${status}</p>`;
  }
  return html`<section class="card" aria-labelledby="push-h">
    <h2 id="push-h">Web Push</h2>
    ${body}
    <${ErrorLine} error=${error} />
  </section>`;
}
