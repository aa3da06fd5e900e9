// Entry point: language, session, then the page the address names.

import { html, render, useEffect, useState } from "./html.js";
import { initialLanguage, onLanguageChange, setLanguage } from "./i18n.js";
import { api } from "./api.js";
import { session, settings } from "./store.js";
import { useRoute } from "./router.js";
import { useStore } from "./hooks.js";
import { Lobby } from "./views/lobby.js";
import { TablePage } from "./views/table.js";
import { ReplayPage } from "./views/replay.js";
import { RulesPage } from "./views/rules.js";
import { LeaderboardPage } from "./views/leaderboard.js";
import { ProfilePage } from "./views/profile.js";
import { TournamentPage, TournamentsPage } from "./views/tournaments.js";
import { ModerationPage } from "./views/moderation.js";
import { MailLinkPage, NotificationsPage } from "./views/notifications.js";

function App() {
  const route = useRoute();
  const prefs = useStore(settings);
  const [, setLang] = useState(0);
  useEffect(() => onLanguageChange(() => setLang((n) => n + 1)), []);
  useEffect(() => {
    document.body.classList.toggle("four-colour", Boolean(prefs.fourColour));
  }, [prefs.fourColour]);
  switch (route.name) {
    case "table":
      return html`<${TablePage} key=${route.args[0]} tableId=${route.args[0]} token=${route.params.token || null} />`;
    case "replay":
      return html`<${ReplayPage} key=${route.args[0]} tableId=${route.args[0]} token=${route.params.token || null} />`;
    case "rules":
      return html`<${RulesPage} game=${route.args[0]} />`;
    case "leaderboard":
      return html`<${LeaderboardPage} game=${route.args[0] || ""}
        period=${route.params.period === "30d" ? "30d" : "all"} />`;
    case "tournaments":
      return html`<${TournamentsPage} />`;
    case "tournament":
      return html`<${TournamentPage} key=${route.args[0]} tournamentId=${route.args[0] || ""} pairToken=${route.params.pair ?? null} />`;
    case "mod":
      return html`<${ModerationPage} key=${route.args[0] || "queue"} playerId=${route.args[0] || null} />`;
    case "notifications":
      return html`<${NotificationsPage} />`;
    case "verify-email":
      return html`<${MailLinkPage} key=${route.params.token || ""} action="verify" token=${route.params.token || ""} />`;
    case "unsubscribe":
      return html`<${MailLinkPage} key=${route.params.token || ""} action="unsubscribe" token=${route.params.token || ""} />`;
    case "player":
      return html`<${ProfilePage} key=${route.args[0]} playerId=${route.args[0] || ""} />`;
    default:
      return html`<${Lobby} route=${route} />`;
  }
}

/** An invitation link of the server's form (/?table=ID&token=T) becomes the table route. */
function adoptInvitation() {
  const query = new URLSearchParams(location.search);
  const table = query.get("table");
  if (!table) return;
  const token = query.get("token");
  const hash = `#/table/${encodeURIComponent(table)}${token ? `?token=${encodeURIComponent(token)}` : ""}`;
  history.replaceState(null, "", `${location.pathname}${hash}`);
}

async function boot() {
  adoptInvitation();
  await setLanguage(initialLanguage());
  const [me, catalog] = await Promise.all([
    api.whoAmI().catch(() => null),
    api.catalog().catch(() => null),
  ]);
  session.set({ me: me && me.name ? me : null, catalog, checked: true });
  render(html`<${App} />`, /** @type {HTMLElement} index.html has it */ (document.getElementById("app")));
  window.rummykit = { session, settings };
}

boot();
