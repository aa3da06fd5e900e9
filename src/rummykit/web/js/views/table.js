// A table page: joins or watches, then shows the game board with the players, the turn
// clock, the side panel (scores, moves, chat), refusals, hints and the end of the game.

import { html, useEffect, useMemo, useRef, useState } from "../html.js";
import { t, errorText, refusalText } from "../i18n.js";
import { api } from "../api.js";
import { session } from "../store.js";
import { useStore } from "../hooks.js";
import { TableController } from "../table-controller.js";
import { Dialog, NicknameForm, TopBar, seatName } from "./common.js";
import { MoveLog, describeEvent, standInText } from "./log.js";
import { LeaveTable } from "./leave-table.js";
import { KindBadge, TableIntro, WaitingRoom } from "./waiting-room.js";
import { guestName, sitAsGuest } from "../guest.js";
import { gameViews } from "../games.js";
import { turnCameWith } from "../model.js";
import { GameOverDialog } from "./game-over.js";
import { ClaimOffer } from "./claim.js";
import { SoundToggle } from "./sound-toggle.js";
import { secondsLeft } from "./player-plate.js";
import { useTicker } from "../hooks.js";
import { setTabBadge, setTabTitle } from "../tab-badge.js";

/**
 * @import { ChatBroadcast, ErrorMessage, Seat, TableSummary } from "../protocol-types"
 * @import { ConnectionStatus, StatusDetail } from "../connection.js"
 * @import { BoardState, TableState } from "../table-controller.js"
 * @import { InputChange } from "./common.js"
 * @import { GameViews } from "../games.js"
 * @import { ComponentChildren } from "../../vendor/preact.module.js"
 */
/** @typedef {(seat: Seat) => string} NameOf */
/**
 * The table's chat: the lines said so far and a field to say one.
 * @param {{ chat: ChatBroadcast[], controller: Pick<TableController, "chat">, nameOf: NameOf,
 *   canChat: boolean }} props
 */
function Chat({ chat, controller, nameOf, canChat }) {
  const [text, setText] = useState("");
  const end = useRef(/** @type {HTMLElement | null} */ (null));
  useEffect(() => end.current?.scrollIntoView({ block: "nearest" }), [chat.length]);
  const send = (/** @type {SubmitEvent} */ event) => {
    event.preventDefault();
    const value = text.trim();
    if (value && controller.chat(value)) setText("");
  };
  return html`<div class="chat">
    <ol class="chat-lines" aria-live="polite">
      ${chat.length === 0 ? html`<li class="muted">${t("chat.empty")}</li>` : null}
      ${chat.map(
        (line, i) => html`<li key=${i}><strong>${line.name || (line.seat !== null && line.seat !== undefined ? nameOf(line.seat) : t("table.watcher"))}:</strong> ${line.text}</li>`,
      )}
      <li ref=${end} aria-hidden="true"></li>
    </ol>
    <form class="chat-form" onSubmit=${send}>
      <input aria-label=${t("chat.message")} placeholder=${t("chat.placeholder")} maxlength="300"
        value=${text} disabled=${!canChat} onInput=${(/** @type {InputChange} */ e) => setText(e.target.value)}
        onKeyDown=${(/** @type {KeyboardEvent} */ e) => e.stopPropagation()} />
      <button type="submit" class="small" disabled=${!canChat || !text.trim()}>${t("chat.send")}</button>
    </form>
  </div>`;
}

/**
 * The side panel: scores, the move log and the chat, one at a time (`tab`); over the
 * table on a narrow screen while `open`.
 * @param {{ state: BoardState, controller: TableController, nameOf: NameOf, tab: string,
 *   setTab: (tab: string) => void, Scores: GameViews["Scores"], open: boolean,
 *   onClose: () => void, rated: boolean | null, tournament: boolean }} props `rated`:
 *   whether the table is rated, `tournament` whether it is a tournament's (said at the
 *   panel's top where the top bar has no room for it: a phone)
 */
function SidePanel({ state, controller, nameOf, tab, setTab, Scores, open, onClose, rated, tournament }) {
  const tabs = ["scores", "log", "chat"];
  const box = useRef(/** @type {HTMLElement | null} */ (null));
  // The focus goes back to the panel's button before the panel is hidden: a hidden
  // element loses the focus to the page, and the keyboard user would start over.
  const close = () => {
    if (box.current?.contains(document.activeElement)) /** @type {HTMLElement | null} */ (document.querySelector(".panel-toggle"))?.focus();
    onClose();
  };
  useEffect(() => {
    // the panel drawn over a narrow table: focus goes into it, Escape closes it
    if (!open) return undefined;
    /** @type {HTMLElement | null | undefined} */ (box.current?.querySelector(".tab.active"))?.focus();
    const onKey = (/** @type {KeyboardEvent} */ event) => {
      if (event.key !== "Escape" || document.querySelector(".dialog-backdrop")) return;
      event.stopImmediatePropagation();
      close();
    };
    window.addEventListener("keydown", onKey, true);
    return () => window.removeEventListener("keydown", onKey, true);
  }, [open]);
  return html`<aside class=${open ? "side-panel open" : "side-panel"} aria-label=${t("table.side_panel")} ref=${box}>
    ${rated === null ? null : html`<p class="side-kind"><${KindBadge} rated=${rated} tournament=${tournament} /></p>`}
    <div class="side-tabs">
      <div class="side-tablist" role="tablist">
      ${tabs.map(
        (name) => html`<button type="button" role="tab" aria-selected=${String(tab === name)}
          class=${tab === name ? "tab active" : "tab"} data-tab=${name} onClick=${() => setTab(name)}>
          ${t(`table.tab.${name}`)}${name === "chat" && state.chat.length ? html` <span class="count">${state.chat.length}</span>` : null}
        </button>`,
      )}
      </div>
      <button type="button" class="quiet side-close" aria-label=${t("common.close")} onClick=${close}>✕</button>
    </div>
    <div class="side-body" tabindex="0" role="region" aria-label=${t(`table.tab.${tab}`)}>
      ${tab === "scores" ? html`<${Scores} state=${state} nameOf=${nameOf} />` : null}
      ${tab === "log"
        ? // nothing is dealt to anyone before every seat is taken: the deal is told at the start
          html`<${MoveLog} log=${state.tableStatus === "waiting" ? [] : state.log} nameOf=${nameOf} seat=${state.seat} />`
        : null}
      ${tab === "chat" ? html`<${Chat} chat=${state.chat} controller=${controller} nameOf=${nameOf} canChat=${state.status === "open"} />` : null}
    </div>
    <${LeaveTable} tableId=${controller.tableId} status=${state.tableStatus} seated=${state.seat !== null && state.seat !== undefined} />
  </aside>`;
}

/**
 * The latest refusals, each said in the player's language for a few seconds, under
 * `children` (notices that stay while they hold).
 * @param {{ errors: (ErrorMessage & { id: number })[], controller: Pick<TableController, "dismissError">, children?: ComponentChildren }} props
 */
function Refusals({ errors, controller, children }) {
  useEffect(() => {
    if (!errors.length) return undefined;
    const id = setTimeout(() => controller.dismissError(errors[0].id), 6000);
    return () => clearTimeout(id);
  }, [errors]);
  return html`<div class="toasts" role="alert">
    ${children}
    ${errors.map(
      (error) => html`<div class="toast refusal" key=${error.id} data-code=${error.code}
        onClick=${() => controller.dismissError(error.id)}>${refusalText(error)}</div>`,
    )}
  </div>`;
}

/**
 * On the table, after the computer played for a person (the turn timer ran out, or the
 * player is away): who, and why, until a person moves again or the notice is tapped.
 * @param {{ state: TableState, nameOf: (seat: Seat) => string }} props
 */
function StandInNotice({ state, nameOf }) {
  const [dismissed, setDismissed] = useState(-1);
  if (state.tableStatus !== "playing") return null;
  let found = null;
  for (let i = state.log.length - 1; i >= 0; i -= 1) {
    const entry = state.log[i];
    if (entry.actor === "human") return null;
    if (entry.actor === "timeout" || entry.actor === "substitute") {
      found = entry;
      break;
    }
  }
  if (!found || found.index <= dismissed) return null;
  const text = standInText(found.actor, found.event.player, nameOf, state.seat);
  if (!text) return null;
  const index = found.index;
  return html`<div class="toast info stand-in-notice" role="status" data-testid="stand-in-notice"
    data-actor=${found.actor} onClick=${() => setDismissed(index)}>${text}</div>`;
}

/**
 * The connection's trouble, if any: reconnecting, closed, or refused (and why).
 * @param {{ status: ConnectionStatus, detail?: StatusDetail | null }} props
 */
function StatusBanner({ status, detail }) {
  if (status === "open" || status === "connecting") return null;
  const key = /** @type {Record<string, string>} */ ({ reconnecting: "table.reconnecting", closed: "table.closed", refused: "table.refused" })[status];
  // a refused connection says why, from the server's error code (no_session, private_table...)
  const why = status === "refused" && detail?.code && detail.code !== "refused"
    ? errorText(detail)
    : null;
  return html`<div class="banner" role="status" data-status=${status} data-code=${why ? /** @type {StatusDetail} */ (detail).code : null}>
    ${t(key || "table.reconnecting")}${why ? html` <span class="banner-reason">${why}</span>` : null}</div>`;
}

/**
 * What the visitor of a table's page does, once known: sit down or watch.
 * @typedef {"sit" | "watch"} Choice
 */

/**
 * What the page does with a table it opens, from the table's summary (null when it cannot
 * be read) and the page's player: sit at once (their own seat, or one kept for them), ask
 * (a free seat they may take), or watch, with a note saying why (no seat left, or a rated
 * table and a guest).
 * @param {TableSummary | null} summary
 * @param {{ player_id?: string, registered?: boolean } | null} me
 * @returns {{ choice: Choice | null, note: string | null }} choice null: ask
 */
function firstChoice(summary, me) {
  if (!summary) return { choice: me ? "sit" : null, note: null }; // the server decides
  const id = me?.player_id;
  if (id && summary.seats.some((s) => s.player_id === id || s.kept_for === id)) return { choice: "sit", note: null };
  if (summary.status === "over") return { choice: "watch", note: null };
  const free = summary.status === "waiting" && summary.seats.some((s) => s.kind === "human" && !s.taken && !s.kept_for);
  if (!free) return { choice: "watch", note: t("table.full_watching") };
  if (summary.rated && !me?.registered) return { choice: "watch", note: t("table.rated_watching") };
  return { choice: null, note: null };
}

/**
 * Sits down at the table (or watches it) before the board connects. The table is shown
 * first (game, rules, rated or casual, clock) and the visitor asked whether to sit down
 * or watch while a seat is free for them; without a session a nickname is asked to sit
 * down, and a watcher is given a guest name. A table with no seat left, or a rated one
 * for a guest, is watched. `onSummary` hears the table's summary once it is read;
 * `onReady` that the table may connect, with a note to show there (why the visitor
 * watches), if any.
 * @param {{ tableId: string, token: string | null, watch: boolean,
 *   onReady: (note: string | null) => void,
 *   onSummary?: (summary: TableSummary) => void }} props
 */
function JoinGate({ tableId, token, watch, onReady, onSummary }) {
  const { me } = useStore(session);
  const [error, setError] = useState(/** @type {string | null} */ (null));
  const [note, setNote] = useState(/** @type {string | null} */ (null));
  const ready = (/** @type {string | null} */ why = note) => onReady(why);
  // the table's summary: undefined while it is read, null when it cannot be
  const [summary, setSummary] = useState(/** @type {TableSummary | null | undefined} */ (undefined));
  // whether the server was asked who the page's player is (the page may have been told
  // "nobody" before a sign-in on this page: its cookie is the truth)
  const [asked, setAsked] = useState(Boolean(me));
  const [choice, setChoice] = useState(/** @type {Choice | null} */ (watch ? "watch" : null));
  useEffect(() => {
    let alive = true;
    api.table(tableId, token).then(
      (found) => {
        if (!alive) return;
        setSummary(found);
        onSummary?.(found);
      },
      () => alive && setSummary(null),
    );
    if (!me) {
      api.whoAmI().then(
        (found) => {
          if (alive && found?.name && !session.get().me) session.set({ me: found });
        },
        () => {},
      ).finally(() => alive && setAsked(true));
    }
    return () => {
      alive = false;
    };
  }, []);
  useEffect(() => {
    // decided once, when the table and the player are known
    if (choice || summary === undefined || !asked) return;
    const first = firstChoice(summary, me);
    if (first.choice) {
      setNote(first.note);
      setChoice(first.choice);
    }
  }, [summary, asked, me, choice]);
  useEffect(() => {
    // a watcher is never asked for a name: a guest name is given (a session the page's
    // cookie holds is kept)
    if (me || choice !== "watch") return;
    sitAsGuest(guestName()).catch((err) => setError(errorText(err)));
  }, [me, choice]);
  useEffect(() => {
    if (!me || !choice) return undefined;
    let alive = true;
    const watchIt = async (/** @type {string | null} */ why) => {
      try {
        await api.watch(tableId, token ? { token } : {});
        if (!alive) return;
        ready(why || note);
      } catch (err) {
        if (alive) setError(errorText(err));
      }
    };
    (async () => {
      if (choice === "watch") {
        await watchIt(null);
        return;
      }
      try {
        await api.join(tableId, token ? { token } : {});
        if (alive) ready();
      } catch (err) {
        if (!alive) return;
        if (["table_full", "table_started", "seat_taken"].includes(err.code)) await watchIt(t("table.full_watching"));
        else if (err.code === "rated_needs_account") await watchIt(t("table.rated_watching"));
        else if (err.code === "not_found") ready(); // the socket says so, and why
        else setError(errorText(err));
      }
    })();
    return () => {
      alive = false;
    };
  }, [me, choice]);
  if (error) {
    return html`<div class="gate"><p class="error-text" role="alert">${error}</p><p><a href="#/">${t("nav.lobby")}</a></p></div>`;
  }
  // sitting down or watching (the table comes), or not known yet which (nothing flashes
  // before a player's own table)
  if (choice || summary === undefined || !asked || firstChoice(summary, me).choice) return null;
  return html`<div class="gate">
    ${summary ? html`<${TableIntro} summary=${summary} />` : null}
    ${me
      ? html`<div class="panel gate-ask" data-testid="gate-ask">
          <p>${t("invite.question")}</p>
          <div class="gate-buttons">
            <button type="button" class="primary" data-testid="take-seat" onClick=${() => setChoice("sit")}>${t("invite.take_seat")}</button>
            <button type="button" data-testid="just-watch" onClick=${() => setChoice("watch")}>${t("invite.just_watch")}</button>
          </div>
        </div>`
      : null}
    ${!me
      ? html`<${NicknameForm} title=${t("table.join_title")} onDone=${() => setChoice("sit")} />
        ${summary ? html`<p class="gate-watch"><button type="button" class="quiet" data-testid="just-watch"
          onClick=${() => setChoice("watch")}>${t("invite.just_watch")}</button></p>` : null}`
      : null}
  </div>`;
}

/**
 * The tab's title and icon while the table is open: on the player's turn, "Your turn",
 * the seconds left on their clock (turn time and bank together) and a badge on the icon;
 * otherwise the game's name. Both go back to the site's when the table closes.
 * @param {{ state: TableState, game: string | null }} props
 */
function TabTurn({ state, game }) {
  const view = state.view;
  const mine = Boolean(view && !view.gameOver && state.seat !== null && state.seat !== undefined
    && view.currentPlayer === state.seat && state.tableStatus === "playing");
  useTicker(1000, mine && Boolean(state.turn));
  const named = game ? t(`game.${game}`) : null;
  // a game over days: no seconds in the title (the table shows the days left)
  const left = mine && !state.message?.days_per_move ? secondsLeft(state.turn) : null;
  const title = mine
    ? left === null
      ? t("tab.your_turn", { game: named ?? "rummykit" })
      : t("tab.your_turn_clock", { game: named ?? "rummykit", clock: t("table.clock_s", { seconds: Math.ceil(left) }) })
    : named ? `${named} — rummykit` : "rummykit"; // the site's name is no word to translate
  useEffect(() => setTabTitle(title), [title]);
  useEffect(() => setTabBadge(mine), [mine]);
  useEffect(() => () => {
    setTabTitle("rummykit");
    setTabBadge(false);
  }, []);
  return null;
}

/**
 * What a screen reader says, politely, while the table plays: the other players' moves as
 * the move log words them, and "Your turn" when the turn comes to the player. The text is
 * set as plain text (textContent): nothing received is read as markup.
 * @param {{ state: TableState, nameOf: NameOf }} props
 */
function Announcer({ state, nameOf }) {
  const region = useRef(/** @type {HTMLElement | null} */ (null));
  const told = useRef(/** @type {number | null} */ (null));
  const turnTold = useRef(/** @type {number | null} */ (null));
  const view = state.view;
  const seat = state.seat ?? null;
  const last = state.log.at(-1)?.index ?? -1;
  const mine = Boolean(view && !view.gameOver && seat !== null && view.currentPlayer === seat
    && state.tableStatus === "playing" && !state.readOnly);
  const cameWith = turnCameWith(state.log, seat);
  useEffect(() => {
    const box = region.current;
    if (!box) return;
    // what happened before the page came is in the move log, not read out
    const since = told.current ?? last;
    told.current = last;
    const lines = state.log
      .filter((entry) => entry.index > since && entry.event.player !== seat)
      .map((entry) => describeEvent(entry.event, nameOf, seat))
      .filter(Boolean);
    // the turn is told once each time it comes, after the moves that brought it: known by
    // the entry it came with, since the render between two turns may never happen (the
    // player's move and the next player's reply can arrive together)
    if (mine && turnTold.current !== cameWith) {
      lines.push(t("announce.your_turn"));
      turnTold.current = cameWith;
    }
    if (lines.length) box.textContent = lines.join(" ");
  }, [last, mine]);
  return html`<div class="visually-hidden" aria-live="polite" aria-atomic="true" data-testid="announcer" ref=${region}></div>`;
}

/**
 * The table page (#/table/ID, `?watch=1` to watch).
 * @param {{ tableId: string, token: string | null }} props
 */
export function TablePage({ tableId, token }) {
  const watch = new URLSearchParams(location.hash.split("?")[1] || "").get("watch") === "1";
  const controller = useMemo(() => new TableController({ tableId, token }), [tableId, token]);
  const [ready, setReady] = useState(false);
  const state = useStore(controller.store);
  const [tab, setTab] = useState("log");
  const [panelOpen, setPanelOpen] = useState(false);
  // the table's summary: its game for the title before the first state, whether it is rated
  const [summary, setSummary] = useState(/** @type {TableSummary | null} */ (null));
  // why the page watches, when it was not asked to (no seat left, a rated table)
  const [gateNote, setGateNote] = useState(/** @type {string | null} */ (null));
  useEffect(() => {
    window.rummykitTable = controller;
    return () => {
      controller.stop();
      if (window.rummykitTable === controller) window.rummykitTable = null;
    };
  }, [controller]);
  useEffect(() => {
    if (ready) controller.start();
  }, [ready]);
  const nameOf = (/** @type {Seat} */ seat) => seatName(state.players, seat);
  const game = state.game;
  const boards = gameViews(game); // none before the first state
  const named = game || summary?.game || null;
  const title = named ? t(`game.${named}`) : t("common.loading");
  return html`<div class=${`table-page game-${game || "none"}`}>
    <${TabTurn} state=${state} game=${named} />
    <${TopBar} title=${title} badge=${summary ? html`<${KindBadge} rated=${Boolean(summary.rated)} tournament=${summary.tournament_id != null} />` : null}>
      <${SoundToggle} />
      <button type="button" class="quiet panel-toggle" aria-expanded=${String(panelOpen)}
        onClick=${() => setPanelOpen(!panelOpen)} aria-label=${t("table.side_panel")}>☰</button>
    <//>
    <${StatusBanner} status=${state.status} detail=${state.statusDetail} />
    ${!ready ? html`<${JoinGate} tableId=${tableId} token=${token} watch=${watch} onSummary=${setSummary}
        onReady=${(/** @type {string | null} */ note) => {
          setGateNote(note);
          setReady(true);
        }} />` : null}
    ${gateNote
      ? html`<p class="gate-note" role="status"><span data-testid="gate-note">${gateNote}</span>
          <button type="button" class="quiet small" aria-label=${t("common.close")} title=${t("common.close")}
            onClick=${() => setGateNote(null)}>✕</button></p>`
      : null}
    ${ready && !state.view ? html`<p class="muted loading-table">${t("table.connecting")}</p>` : null}
    ${state.view && boards
      ? html`<div class="table-layout">
          <main class="felt">
            ${state.tableStatus === "waiting"
              ? html`<${WaitingRoom} state=${state} tableId=${tableId} token=${token} rated=${summary ? Boolean(summary.rated) : null} />`
              : html`<${boards.Board} state=${state} controller=${controller} nameOf=${nameOf} />`}
          </main>
          <${SidePanel} state=${state} controller=${controller} nameOf=${nameOf} tab=${tab} setTab=${setTab}
            Scores=${boards.Scores} open=${panelOpen} onClose=${() => setPanelOpen(false)}
            rated=${summary ? Boolean(summary.rated) : null} tournament=${summary?.tournament_id != null} />
        </div>`
      : null}
    ${state.view ? html`<${Announcer} state=${state} nameOf=${nameOf} />` : null}
    <${Refusals} errors=${state.errors} controller=${controller}>
      ${state.view ? html`<${StandInNotice} state=${state} nameOf=${nameOf} />` : null}
      ${state.view ? html`<${ClaimOffer} state=${state} controller=${controller} nameOf=${nameOf} />` : null}
    <//>
    ${state.view?.gameOver
      ? html`<${GameOverDialog} state=${state} nameOf=${nameOf} tableId=${tableId} token=${token} />`
      : null}
  </div>`;
}

export { Dialog };
