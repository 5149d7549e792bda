// A game page's first requests start now, beside the modules, not after every import has loaded (and before
// the stylesheet, which would hold this script back); api.js takes each response once, for the same token.
// A file of its own: the page's Content-Security-Policy runs no inline script (services/api/security_headers.py).
window.__prefetched = {};
(function () {
  const m = /^#\/game\/([A-Za-z0-9_-]+)$/.exec(location.hash);
  if (!m) return;
  const id = m[1];
  const seats = JSON.parse(localStorage.getItem("taproom.seatTokens") || "{}");
  const token = seats[id] || localStorage.getItem("taproom.token");
  const headers = token ? { Accept: "application/json", Authorization: "Bearer " + token }
    : { Accept: "application/json" };
  const paths = token ? ["/games/" + id + "/view", "/games/" + id + "/legal"] : ["/games/" + id];
  paths.forEach(function (path) {
    window.__prefetched[path] = { token: token || null, response: fetch(path, { headers: headers }) };
  });
})();
