// The lobby: who you are, one click to play the computer, open tables, a new table, past games.

import { html, useEffect, useState } from "../html.js";
import { t, errorText, formatDate } from "../i18n.js";
import { api } from "../api.js";
import { session } from "../store.js";
import { useStore } from "../hooks.js";
import { go, tableHref } from "../router.js";
import { readCatalog } from "../catalog.js";
import { TopBar, levelName } from "./common.js";
import { CreateTableDialog } from "./create-table.js";
import { CurrentGames } from "./current-games.js";
import { clockText } from "./waiting-room.js";
import { PastResult } from "./past-game.js";
import { QuickSeat } from "./quick-seat.js";
import { CardSvg } from "../card-svg.js";
import { gameViews } from "../games.js";
import { IconBot, IconPerson } from "../icons.js";
import { leaderboardHref, profileHref } from "./leaderboard.js";

/**
 * @import { Card, PlayNow, TableSummary } from "../protocol-types"
 * @import { GameInfo } from "../catalog.js"
 * @import { Route } from "../router.js"
 * @import { Session } from "../store.js"
 * @import { InputChange } from "./common.js"
 */
/** @typedef {Session["me"]} Me */

/**
 * Who the player is, with a way out; or the forms to play as a guest, log in or register.
 * @param {{ me: Me }} props
 */
function Identity({ me }) {
  const [mode, setMode] = useState("guest");
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState(/** @type {string | null} */ (null));
  const [busy, setBusy] = useState(false);
  if (me) {
    const logout = async () => {
      await api.logout().catch(() => null);
      session.set({ me: null });
    };
    return html`<div class="identity signed-in">
      <span>${t("lobby.playing_as")} <strong data-testid="me">${me.name}</strong></span>
      ${me.registered ? null : html`<span class="muted">${t("lobby.guest")}</span>`}
      ${me.player_id ? html`<a class="my-profile" href=${profileHref(me.player_id)}>${t("lobby.my_profile")}</a>` : null}
      <button type="button" class="small quiet logout" onClick=${logout}>${t("lobby.logout")}</button>
    </div>`;
  }
  const submit = async (/** @type {SubmitEvent} */ event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const who =
        mode === "guest"
          ? await api.guest(name.trim())
          : mode === "login"
            ? await api.login(name.trim(), password)
            : await api.register(name.trim(), password);
      const me2 = await api.me().catch(() => who);
      session.set({ me: me2 || who || { name: name.trim() } });
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return html`<form class="identity panel" onSubmit=${submit}>
    <div class="identity-tabs" role="tablist">
      ${["guest", "login", "register"].map(
        (m) => html`<button type="button" role="tab" aria-selected=${String(mode === m)}
          class=${mode === m ? "tab active" : "tab"} onClick=${() => setMode(m)}>${t(`lobby.mode.${m}`)}</button>`,
      )}
    </div>
    <div class="identity-fields">
      <label class="field"><span>${mode === "guest" ? t("lobby.nickname") : t("lobby.name")}</span>
        <input name="nickname" autocomplete=${mode === "guest" ? "nickname" : "username"} required
          minlength=${mode === "guest" ? 1 : 3} maxlength=${mode === "guest" ? 24 : 32} value=${name} onInput=${(/** @type {InputChange} */ e) => setName(e.target.value)} /></label>
      ${mode !== "guest"
        ? html`<label class="field"><span>${t("lobby.password")}</span>
            <input type="password" name="password" required minlength=${mode === "register" ? 8 : 1}
              autocomplete=${mode === "register" ? "new-password" : "current-password"}
              value=${password} onInput=${(/** @type {InputChange} */ e) => setPassword(e.target.value)} /></label>`
        : null}
      <button class="primary" type="submit" disabled=${busy || !name.trim()}>
        ${mode === "guest" ? t("lobby.sit_down") : mode === "login" ? t("lobby.login") : t("lobby.register")}</button>
    </div>
    ${mode === "register" ? html`<p class="muted form-rules" id="name-rules">${t("lobby.name_rules")}</p>` : null}
    ${error ? html`<p class="error-text" role="alert">${error}</p>` : null}
  </form>`;
}

/**
 * A game's tile: play the computer at once, make a table, read the rules.
 * @param {{ game: GameInfo, me: Me, onCreate: (game: string) => void,
 *   onError: (text: string) => void }} props
 */
function GameTile({ game, me, onCreate, onError }) {
  const [busy, setBusy] = useState(false);
  // no name yet: "Play now" asks for one in place (a guest name offered), then plays
  const [naming, setNaming] = useState(false);
  const playNow = async () => {
    if (!session.get().me) {
      setNaming(true);
      return;
    }
    setBusy(true);
    try {
      const table = await api.playNow(/** @type {PlayNow["game"]} */ (game.name));
      go(tableHref(table.table_id, table.invite_token));
    } catch (err) {
      onError(errorText(err));
      setBusy(false);
    }
  };
  const views = gameViews(game.name);
  return html`<article class="game-tile" data-game=${game.name}>
    <div class="tile-fan" aria-hidden="true">
      ${views?.fan.map(
        (name, i) => html`<span class="card" style=${`--i:${i - 2}`}><${CardSvg} name=${name}
          wild=${views.wildInFan(name)} /></span>`,
      )}
    </div>
    <div class="tile-text">
      <h2>${t(`game.${game.name}`)}</h2>
      <p class="muted">${t(`game.${game.name}.tagline`)}</p>
      <div class="tile-actions">
        <button type="button" class="primary play-now" data-game=${game.name} disabled=${busy}
          onClick=${playNow}>▶ ${t("lobby.play_now")}</button>
        <button type="button" class="create-table" disabled=${!me} onClick=${() => onCreate(game.name)}>
          ${t("lobby.create_table")}</button>
        <a class="rules-link" href=${`#/rules/${game.name}`}>${t("lobby.rules")}</a>
        <a class="leaderboard-link" href=${leaderboardHref(game.name)}>${t("lobby.leaderboard")}</a>
        <a class="tournaments-link" href="#/tournaments">${t("lobby.tournaments")}</a>
      </div>
      ${naming && !me ? html`<${QuickSeat} onSeated=${() => { setNaming(false); playNow(); }} onCancel=${() => setNaming(false)} />` : null}
    </div>
  </article>`;
}

/**
 * Who sits at a listed table. Where partners pick each other by their seats (Burraco
 * for four), each free seat is a button that sits the player there (`onSit`), saying
 * whose partner that seat is.
 * @param {{ table: TableSummary, onSit?: (seat: number) => void }} props
 */
function SeatSummary({ table, onSit }) {
  const seats = table.seats;
  const partnerOf = gameViews(table.game)?.partnerOf;
  return seats.map((seat, i) => {
    const partner = partnerOf ? partnerOf(i, seats.length) : null;
    if (onSit && partner !== null && seat.kind === "human" && !seat.name && !seat.kept_for) {
      const mate = seats[partner];
      const mateName = mate?.kind === "bot" ? t("table.bot", { level: levelName(mate.level) }) : mate?.name;
      return html`<button type="button" class="small seat-pick" data-seat=${i} onClick=${() => onSit(i)}>
        ${t("lobby.sit_at", { n: i + 1 })}${mateName ? html` <span class="muted">· ${t("lobby.partner_of", { name: mateName })}</span>` : null}</button>`;
    }
    if (seat.kind === "bot") return html`<span class="seat-summary"><${IconBot} /> ${t("table.bot", { level: levelName(seat.level) })}</span>`;
    if (seat.name && seat.player_id) {
      return html`<span class="seat-summary"><${IconPerson} /> <a href=${profileHref(seat.player_id)}>${seat.name}</a></span>`;
    }
    return seat.name
      ? html`<span class="seat-summary"><${IconPerson} /> ${seat.name}</span>`
      : html`<span class="seat-summary free">${t("lobby.free_seat")}</span>`;
  });
}

/**
 * The open tables, asked again every few seconds, to join or watch.
 * @param {{ me: Me, onError: (text: string) => void }} props
 */
function OpenTables({ me, onError }) {
  const [tables, setTables] = useState(/** @type {TableSummary[] | null} */ (null));
  useEffect(() => {
    let alive = true;
    const load = () =>
      api
        .tables()
        .then((found) => alive && setTables(found))
        .catch(() => alive && setTables((old) => old || []));
    load();
    const id = setInterval(load, 5000);
    return () => {
      alive = false;
      clearInterval(id);
    };
  }, []);
  const enter = async (/** @type {TableSummary} */ table, /** @type {"join" | "watch"} */ how, /** @type {number | undefined} */ seat = undefined) => {
    const id = table.table_id;
    try {
      if (how === "join") await api.join(id, seat === undefined ? {} : { seat });
      else await api.watch(id, {});
      go(tableHref(id) + (how === "watch" ? "?watch=1" : ""));
    } catch (err) {
      onError(errorText(err));
    }
  };
  return html`<section class="panel open-tables" aria-labelledby="open-tables-title">
    <h2 id="open-tables-title">${t("lobby.open_tables")}</h2>
    ${tables === null
      ? html`<p class="muted">${t("common.loading")}</p>`
      : tables.length === 0
        ? html`<p class="muted">${t("lobby.no_tables")}</p>`
        : html`<ul class="table-list">
            ${tables.map((table) => {
              const free = table.seats.some((s) => s.kind === "human" && !s.name);
              return html`<li class="table-row" data-table=${table.table_id}>
                <span class="table-game">${t(`game.${table.game}`)}</span>
                ${table.rated ? html`<span class="badge rated">${t("rating.rated")}</span>` : null}
                <span class="table-seats"><${SeatSummary} table=${table} onSit=${me ? (/** @type {number} */ seat) => enter(table, "join", seat) : undefined} /></span>
                <span class="table-time muted">${clockText(table)}</span>
                <span class="table-buttons">
                  <button type="button" class="small primary" disabled=${!me || !free}
                    onClick=${() => enter(table, "join")}>${t("lobby.join")}</button>
                  <button type="button" class="small" disabled=${!me} onClick=${() => enter(table, "watch")}>
                    ${t("lobby.watch")}</button>
                </span>
              </li>`;
            })}
          </ul>`}
  </section>`;
}

/**
 * The player's finished games, with their results and replays.
 * @param {{ me: Me }} props
 */
function PastGames({ me }) {
  const [games, setGames] = useState(/** @type {TableSummary[] | null} */ (null));
  useEffect(() => {
    if (!me) return;
    api
      .history()
      .then(setGames)
      .catch(() => setGames([]));
  }, [me]);
  if (!me) return null;
  return html`<section class="panel past-games" aria-labelledby="past-games-title">
    <h2 id="past-games-title">${t("lobby.past_games")}</h2>
    ${games === null
      ? html`<p class="muted">${t("common.loading")}</p>`
      : games.length === 0
        ? html`<p class="muted">${t("lobby.no_past_games")}</p>`
        : html`<ul class="history-list">
            ${games.slice(0, 20).map((game) => {
              const id = game.table_id;
              const seats = game.seats;
              const seat = seats.find((s) => s.kind === "human" && s.player_id === me.player_id)?.seat ?? null;
              const when = formatDate(game.finished_at ?? game.created_at);
              return html`<li class="history-row" data-table=${id}>
                <${PastResult} own game=${game.game} players=${seats} seat=${seat} winners=${game.winners} totals=${game.totals}
                  link=${(/** @type {number} */ s) => {
                    const pid = seats.find((x) => x.seat === s)?.player_id;
                    return pid ? profileHref(pid) : null;
                  }} />
                <span class="muted past-date" data-testid="past-date">${when}</span>
                <a class="past-replay" href=${`#/replay/${encodeURIComponent(id)}`}>${t("lobby.replay")}</a>
              </li>`;
            })}
          </ul>`}
  </section>`;
}

/**
 * The lobby page (#/, and #/new/GAME with the new-table dialog open).
 * @param {{ route: Route }} props
 */
export function Lobby({ route }) {
  const { me, catalog } = useStore(session);
  const { games } = readCatalog(catalog);
  const [creating, setCreating] = useState(/** @type {string | null | undefined} */ (route.name === "new" ? route.args[0] || games[0]?.name : null));
  const [error, setError] = useState(/** @type {string | null} */ (null));
  return html`<${TopBar} />
    <main class="lobby">
      <section class="lobby-hero">
        <h1>${t("lobby.welcome")}</h1>
        <p class="muted">${t("lobby.intro")}</p>
        <${Identity} me=${me} />
      </section>
      ${error ? html`<p class="error-text lobby-error" role="alert">${error}</p>` : null}
      <${CurrentGames} me=${me} />
      <section class="game-tiles">
        ${games.map((game) => html`<${GameTile} game=${game} me=${me} onCreate=${setCreating} onError=${setError} />`)}
      </section>
      <div class="lobby-lists">
        <${OpenTables} me=${me} onError=${setError} />
        <${PastGames} me=${me} />
      </div>
    </main>
    ${creating ? html`<${CreateTableDialog} gameName=${creating} onClose=${() => setCreating(null)} />` : null}`;
}
