// The shell: hash routes (the server serves one page at "/"), the navigation, sign-in links.
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { html } from "./html.js";
import { auth } from "./api.js";
import { followWaiting, refreshWaiting, useWaiting } from "./waiting.js";
import { StartPage } from "./pages/start.js";
import { HowToPage, LearnPage } from "./pages/learn.js";
import { LobbyPage } from "./pages/lobby.js";
import { InboxPage } from "./pages/inbox.js";
import { GamePage } from "./pages/game.js";
import { SettingsPage } from "./pages/settings.js";
import { FriendsPage } from "./pages/friends.js";
import { LeaderboardPage, ProfilePage } from "./pages/players.js";
import { FairPlayPage } from "./pages/fairplay.js";

function parseRoute() {
  const raw = location.hash.replace(/^#\/?/, "");
  const [path, query = ""] = raw.split("?");
  return { parts: path.split("/").filter(Boolean), params: new URLSearchParams(query) };
}

// A sign-in link carries the token in the fragment, which browsers never send to a server (so it is not logged).
function takeSignInLink() {
  const { parts, params } = parseRoute();
  if (parts[0] !== "signin" || !parts[1]) return;
  auth.signIn(decodeURIComponent(parts[1]), params.get("name"), params.get("player"));
  history.replaceState(null, "", "#/inbox");
  refreshWaiting();
}

function Nav({ route }) {
  const here = route.parts[0] || "";
  const waiting = useWaiting();
  const link = (href, label, key) =>
    html`<a href=${href} aria-current=${here === key ? "page" : undefined}>${label}</a>`;
  const label = `: ${waiting} waiting for you`;
  const count = waiting ? html` <span class="count" aria-label=${label}>${waiting}</span>` : null;
  const inbox = html`Inbox${count}`;
  return html`<header class="top">
    <a class="brand" href="#/">Taproom</a>
    <nav aria-label="Main">
      ${link("#/lobby", "Lobby", "lobby")}
      ${auth.token() ? link("#/inbox", inbox, "inbox") : link("#/", "Sign in", "")}
      ${auth.token() ? link("#/friends", "Friends", "friends") : null}
      ${link("#/leaderboard", "Ratings", "leaderboard")}
      ${auth.token() && auth.playerId() ? link("#/player/me", "Profile", "player") : null}
      ${auth.token() ? link("#/settings", "Settings", "settings") : null}
    </nav>
  </header>`;
}

function App() {
  const [route, setRoute] = useState(parseRoute());
  useEffect(() => {
    const onHash = () => {
      takeSignInLink();
      setRoute(parseRoute());
      window.scrollTo(0, 0);
    };
    window.addEventListener("hashchange", onHash);
    const stopWaiting = followWaiting();
    // A hash change between the first render and this effect fired no listener: pick it up now.
    const now = parseRoute();
    const same = (r) => r.parts.join("/") === now.parts.join("/") && r.params.toString() === now.params.toString();
    setRoute((r) => (same(r) ? r : now));
    return () => {
      window.removeEventListener("hashchange", onHash);
      stopWaiting();
    };
  }, []);
  const [page, arg] = route.parts;
  let body;
  if (page === "lobby") body = html`<${LobbyPage} params=${route.params} />`;
  else if (page === "inbox") body = html`<${InboxPage} />`;
  else if (page === "settings") body = html`<${SettingsPage} />`;
  else if (page === "friends") body = html`<${FriendsPage} />`;
  else if (page === "game" && arg) body = html`<${GamePage} key=${arg} gameId=${arg} params=${route.params} />`;
  else if (page === "rules" && arg) body = html`<${HowToPage} key=${arg} game=${arg} />`;
  else if (page === "learn" && arg) body = html`<${LearnPage} key=${arg} game=${arg} />`;
  else if (page === "player" && arg) body = html`<${ProfilePage} key=${arg} playerId=${arg} />`;
  else if (page === "leaderboard") body = html`<${LeaderboardPage} key=${arg || ""} game=${arg} />`;
  else if (page === "fair-play") body = html`<${FairPlayPage} />`;
  else body = html`<${StartPage} />`;
  return html`<${Nav} route=${route} /><main id="main">${body}</main>
    <footer class="foot"><a href="#/fair-play">Fair play</a></footer>`;
}

takeSignInLink();
const root = document.getElementById("app");
root.textContent = ""; // the "Loading…" placeholder
render(html`<${App} />`, root);
