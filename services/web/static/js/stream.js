// Follow a game's server-sent events. EventSource cannot send headers and the long-lived token must not
// go into a URL, so a seated player trades it for a 60-second, one-game stream ticket before each connect.
import { post } from "./api.js";

const EVENT_NAMES = ["game_event", "view", "status", "scored", "chat"];

// onEvent(event, gap): each new event; ``gap`` when versions were skipped (the page cannot trust its view then).
// onView({view, legal?}): after a run of events, the caller's view and legal commands at its last version.
export function follow(gameId, { after, token, onEvent, onView, onStatus, onEnd, onConnection, onChat }) {
  let source = null;
  let stopped = false;
  let last = after;
  let retry = 500;
  let timer = null;

  async function connect() {
    if (stopped) return;
    const params = new URLSearchParams({ after: String(last) });
    if (token) {
      try {
        const { ticket } = await post(`/games/${gameId}/stream-ticket`, {}, token);
        params.set("ticket", ticket);
      } catch (err) {
        if (err.code !== "not_your_seat") return reconnect();
        // a player watching a game they do not sit in follows as a spectator: the public stream, with the
        // spectators' chat and their own mutes
        const watching = await post(`/games/${gameId}/stream-ticket?watch=true`, {}, token).catch(() => null);
        if (watching) params.set("ticket", watching.ticket);
      }
    }
    if (stopped) return;
    source = new EventSource(`/games/${gameId}/stream?${params}`);
    source.onopen = () => {
      retry = 500;
      onConnection?.("live");
    };
    for (const name of EVENT_NAMES) {
      source.addEventListener(name, (message) => {
        const data = JSON.parse(message.data || "{}");
        if (name === "game_event") {
          if (data.version <= last) return; // a replayed duplicate after a reconnect
          const gap = data.version !== last + 1;
          last = data.version;
          onEvent(data, gap);
        } else if (name === "view") {
          onView?.(data);
        } else if (name === "chat") {
          onChat?.(data);
        } else {
          onStatus?.(name, data);
        }
      });
    }
    source.addEventListener("end", (message) => {
      // a stream is bounded: "reconnect: true" (a timeout) means follow on, anything else means the game is over
      const data = message.data ? JSON.parse(message.data) : {};
      if (data.reconnect) {
        retry = 0;
        return reconnect();
      }
      close();
      onConnection?.("ended");
      onEnd?.();
    });
    // Resume from the last version seen, with a fresh ticket (EventSource's own retry would reuse the old URL).
    source.onerror = () => reconnect();
  }

  function close() {
    if (source) source.close();
    source = null;
  }

  function reconnect() {
    close();
    if (stopped) return;
    onConnection?.("reconnecting");
    clearTimeout(timer);
    timer = setTimeout(connect, retry);
    retry = Math.min(Math.max(retry * 2, 500), 10000);
  }

  // back on the network: reconnect now, not when the backoff (up to 10 s) runs out
  const onOnline = () => {
    if (source?.readyState === EventSource.OPEN) return;
    retry = 0;
    reconnect();
  };
  window.addEventListener("online", onOnline);

  connect();
  return {
    stop() {
      stopped = true;
      window.removeEventListener("online", onOnline);
      clearTimeout(timer);
      close();
    },
    get version() {
      return last;
    },
  };
}
