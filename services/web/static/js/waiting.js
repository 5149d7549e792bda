// What every page shares about the player's games: how many wait for them (the nav's count and the tab
// title's), and whether the browser is online. The count comes from the inbox, asked once a minute while the
// page is visible, when it comes back into view or online, and when a game page sees its turn change.
import { useEffect, useState } from "preact/hooks";
import { auth, get } from "./api.js";
import { titleText } from "./format.js";

const POLL_MS = 60_000; // one small request a minute: far below the per-address rate limit

let waiting = 0;
let title = { text: "Taproom", turns: 0 };
let asking = null;
const listeners = new Set();

function publish(n) {
  if (n === waiting) return;
  waiting = n;
  showTitle();
  for (const listener of listeners) listener(n);
}

function showTitle() {
  document.title = titleText(title.text, Math.max(waiting, title.turns));
}

// The tab title of the page shown; `turns`: games this page itself knows wait (a game page on its turn).
export function setTitle(text, turns = 0) {
  title = { text, turns };
  showTitle();
}

// An inbox answer another page already has (the inbox page): no second request.
export function noteInbox(inbox) {
  publish(inbox?.awaiting?.length || 0);
}

export function refreshWaiting() {
  if (!auth.token()) {
    publish(0);
    return Promise.resolve();
  }
  asking ??= get("/inbox", auth.token()).then(noteInbox).catch(() => {}).finally(() => { asking = null; });
  return asking;
}

// Called once by the shell: keeps the count current on every page.
export function followWaiting() {
  refreshWaiting();
  const wake = () => document.visibilityState === "visible" && refreshWaiting();
  const timer = setInterval(() => document.visibilityState === "visible" && refreshWaiting(), POLL_MS);
  window.addEventListener("online", wake);
  document.addEventListener("visibilitychange", wake);
  return () => {
    clearInterval(timer);
    window.removeEventListener("online", wake);
    document.removeEventListener("visibilitychange", wake);
  };
}

export function useWaiting() {
  const [n, setN] = useState(waiting);
  useEffect(() => {
    listeners.add(setN);
    setN(waiting);
    return () => listeners.delete(setN);
  }, []);
  return n;
}

// navigator.onLine and its events: false as soon as the browser knows it has no network.
export function useOnline() {
  const [online, setOnline] = useState(navigator.onLine);
  useEffect(() => {
    const on = () => setOnline(true);
    const off = () => setOnline(false);
    window.addEventListener("online", on);
    window.addEventListener("offline", off);
    setOnline(navigator.onLine);
    return () => {
      window.removeEventListener("online", on);
      window.removeEventListener("offline", off);
    };
  }, []);
  return online;
}
