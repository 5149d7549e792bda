// Taproom's service worker: Web Push only (no caching, no fetch handler). Served at /sw.js so that its
// scope is the whole site. The server's payload is {kind, title, body, url, game_id}, nothing private.

function show(data) {
  let message = {};
  try {
    message = data ? data.json() : {};
  } catch (err) {
    message = { body: data ? data.text() : "" };
  }
  const title = message.title || "Taproom";
  return self.registration.showNotification(title, {
    body: message.body || "",
    tag: message.game_id ? `game-${message.game_id}-${message.kind || ""}` : undefined,
    data: { url: message.url || "/", kind: message.kind, game_id: message.game_id },
  });
}

// waitUntil keeps the worker alive until the notification shows; a synthetic (untrusted) event, as a test
// dispatches, may not call it (InvalidStateError), so that failure is ignored.
function keep(event, promise) {
  try {
    event.waitUntil(promise);
  } catch (err) {
    // not a real push: nothing to keep alive
  }
  return promise;
}

self.addEventListener("push", (event) => keep(event, show(event.data)));

// Open the game's page, or focus a tab already showing it.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url || "/", self.location.origin).href;
  keep(event, (async () => {
    const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const open = windows.find((w) => w.url === url);
    if (open) return open.focus();
    return self.clients.openWindow(url);
  })());
});

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));
