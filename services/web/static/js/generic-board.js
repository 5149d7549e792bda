// The generic board: for a game without a board module, the view as a readable tree and each legal
// command as a button (or a list to pick from when there are many), so every registered game is playable.
import { useState } from "preact/hooks";
import { html } from "./html.js";
import { t, tn } from "./i18n.js";

const MANY = 12;

function label(key) {
  return String(key).replace(/_/g, " ");
}

function Value({ value, depth }) {
  if (value === null || value === undefined) return html`<span class="muted">${t("none")}</span>`;
  if (typeof value !== "object") return html`<span class="scalar">${String(value)}</span>`;
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  if (entries.length === 0) {
    return html`<span class="muted">${Array.isArray(value) ? t("empty list") : t("nothing")}</span>`;
  }
  if (Array.isArray(value) && entries.every(([, v]) => v === null || typeof v !== "object")) {
    return html`<span class="scalar">${value.map(String).join(", ")}</span>`;
  }
  const body = html`<dl class="tree">${entries.map(([k, v]) => html`<div class="kv" key=${k}>
      <dt>${Array.isArray(value) ? `#${Number(k) + 1}` : label(k)}</dt>
      <dd><${Value} value=${v} depth=${depth + 1} /></dd></div>`)}</dl>`;
  if (depth === 0) return body;
  // nested structures fold so the page stays readable on a phone; the first levels start open
  const summary = Array.isArray(value) ? tn("{n} item", "{n} items", entries.length)
    : tn("{n} field", "{n} fields", entries.length);
  return html`<details open=${depth < 2 && entries.length <= 8}><summary>${summary}</summary>${body}</details>`;
}

export function commandText(command) {
  const facts = Object.entries(command).filter(([k]) => k !== "type")
    .map(([k, v]) => `${label(k)} ${typeof v === "object" ? JSON.stringify(v) : v}`);
  return facts.length ? `${command.type}: ${facts.join(", ")}` : command.type;
}

function CommandGroup({ type, commands, submit, disabled }) {
  const [choice, setChoice] = useState(0);
  if (commands.length <= MANY) {
    return html`<div class="command-group"><h3>${type}</h3>
      ${commands.map((c, i) => html`<button type="button" class="command" key=${i} disabled=${disabled}
          onClick=${() => submit(c).catch(() => {})}>${commandText(c)}</button>`)}</div>`;
  }
  const id = `cmd-${type}`;
  const send = (e) => {
    e.preventDefault();
    submit(commands[choice]).catch(() => {});
  };
  return html`<form class="command-group" onSubmit=${send}>
    <h3><label for=${id}>${tn("{type} ({n} choice)", "{type} ({n} choices)", commands.length, { type })}</label></h3>
    <select id=${id} value=${choice} onChange=${(e) => setChoice(Number(e.target.value))}>
      ${commands.map((c, i) => html`<option value=${i}>${commandText(c)}</option>`)}</select>
    <button type="submit" class="command" disabled=${disabled}>${t("Play")}</button>
  </form>`;
}

export function GenericBoard({ ctx, state, busy }) {
  const groups = {};
  for (const command of state.legal) (groups[command.type] ||= []).push(command);
  return html`<div class="generic-board">
    <section class="controls" aria-labelledby="controls-h">
      <h2 id="controls-h">${t("Your move")}</h2>
      ${state.readOnly ? html`<p class="muted">${ctx.seat === null ? t("Spectators cannot move.")
            : t("You are looking at the past: go back to live to move.")}</p>`
        : state.legal.length === 0 ? html`<p class="muted">${["ended", "scored", "expired"].includes(state.status)
            ? t("The game is over.") : t("Nothing to do right now.")}</p>`
        : Object.entries(groups).map(([type, commands]) => html`<${CommandGroup} key=${type + state.version}
            type=${type} commands=${commands} submit=${ctx.api.submit} disabled=${busy} />`)}
    </section>
    <section class="view">
      <details open=${window.matchMedia?.("(min-width: 760px)").matches}>
        <summary><h2 id="view-h">${ctx.seat === null ? t("What everyone can see (version {version})",
          { version: state.version }) : t("What you can see (version {version})", { version: state.version })}</h2>
        </summary>
        <${Value} value=${state.view} depth=${0} />
      </details>
    </section>
  </div>`;
}
