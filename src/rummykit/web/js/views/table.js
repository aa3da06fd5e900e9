// A table page: joins or watches, then shows the game board with the players, the turn
// clock, the side panel (scores, moves, chat), refusals, hints and the end of the game.

import { html, useEffect, useMemo, useRef, useState } from "../html.js";
import { t, errorText, refusalText } from "../i18n.js";
import { api } from "../api.js";
import { session } from "../store.js";
import { useStore } from "../hooks.js";
import { TableController } from "../table-controller.js";
import { Dialog, NicknameForm, TopBar, seatName } from "./common.js";
import { MoveLog, standInText } from "./log.js";
import { LeaveTable } from "./leave-table.js";
import { TableIntro, WaitingRoom } from "./waiting-room.js";
import { guestName, sitAsGuest } from "../guest.js";
import { gameViews } from "../games.js";
import { GameOverDialog } from "./game-over.js";
import { SoundToggle } from "./sound-toggle.js";

/**
 * @import { ChatBroadcast, ErrorMessage, Seat, TableSummary } from "../protocol-types"
 * @import { ConnectionStatus, StatusDetail } from "../connection.js"
 * @import { TableState } from "../table-controller.js"
 * @import { BoardState } from "./board-parts.js"
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
 *   onClose: () => void }} props
 */
function SidePanel({ state, controller, nameOf, tab, setTab, Scores, open, onClose }) {
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
    <div class="side-tabs" role="tablist">
      ${tabs.map(
        (name) => html`<button type="button" role="tab" aria-selected=${String(tab === name)}
          class=${tab === name ? "tab active" : "tab"} data-tab=${name} onClick=${() => setTab(name)}>
          ${t(`table.tab.${name}`)}${name === "chat" && state.chat.length ? html` <span class="count">${state.chat.length}</span>` : null}
        </button>`,
      )}
      <button type="button" class="quiet side-close" aria-label=${t("common.close")} onClick=${close}>✕</button>
    </div>
    <div class="side-body">
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
        onClick=${() => controller.dismissError(error.id)}>${refusalText(error.code, error.params, error.message)}</div>`,
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
    ? errorText(detail.code, detail.params, detail.message)
    : null;
  return html`<div class="banner" role="status" data-status=${status} data-code=${why ? /** @type {StatusDetail} */ (detail).code : null}>
    ${t(key || "table.reconnecting")}${why ? html` <span class="banner-reason">${why}</span>` : null}</div>`;
}

/**
 * Sits down at the table (or watches it) before the board connects: asks for a nickname
 * first when there is no session; a full table is watched instead. `onGame` hears the
 * table's game as soon as its summary names it.
 * @param {{ tableId: string, token: string | null, watch: boolean, onReady: () => void,
 *   onGame?: (game: string) => void }} props
 */
function JoinGate({ tableId, token, watch, onReady, onGame }) {
  const { me } = useStore(session);
  const [error, setError] = useState(/** @type {string | null} */ (null));
  const [note, setNote] = useState(/** @type {string | null} */ (null));
  // what the visitor will do: sit (a free seat) or watch (asked to, or no seat left)
  const [watching, setWatching] = useState(/** @type {boolean | null} */ (watch ? true : null));
  const onSummary = (/** @type {TableSummary | null} */ summary) => {
    if (summary?.game) onGame?.(summary.game);
    if (watch) return;
    const free = summary?.status === "waiting" && summary.seats.some((s) => !s.taken);
    setWatching(summary ? !free : false);
  };
  useEffect(() => {
    // a watcher is never asked to sit down: a guest name is given
    if (me || !watching) return;
    sitAsGuest(guestName()).catch((err) => setError(errorText(err.code, err.params, err.message)));
  }, [me, watching]);
  useEffect(() => {
    if (!me) return;
    let alive = true;
    (async () => {
      try {
        if (watch) await api.watch(tableId, token ? { token } : {});
        else await api.join(tableId, token ? { token } : {});
        if (alive) onReady();
      } catch (err) {
        if (!alive) return;
        if (["already_seated", "seated", "already_joined"].includes(err.code)) {
          onReady();
        } else if (!watch && ["table_full", "table_started", "seat_taken"].includes(err.code)) {
          // no seat left: watch instead
          try {
            await api.watch(tableId, token ? { token } : {});
            setNote(t("table.full_watching"));
            onReady();
          } catch (err2) {
            setError(errorText(err2.code, err2.params, err2.message));
          }
        } else if (err.status === 404 || err.status === 405 || err.code === "not_found") {
          // a server without join endpoints for this case: the socket decides
          onReady();
        } else {
          setError(errorText(err.code, err.params, err.message));
        }
      }
    })();
    return () => {
      alive = false;
    };
  }, [me]);
  if (me && !error) return note ? html`<p class="muted gate-note">${note}</p>` : null;
  return html`<div class="gate">
    ${error ? html`<p class="error-text" role="alert">${error}</p><p><a href="#/">${t("nav.lobby")}</a></p>` : null}
    ${!me ? html`<${TableIntro} tableId=${tableId} token=${token} onSummary=${onSummary} />` : null}
    ${!me && watching === false ? html`<${NicknameForm} title=${t("table.join_title")} />` : null}
  </div>`;
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
  // the game as the table's summary names it, for the title before the first state
  const [summaryGame, setSummaryGame] = useState(/** @type {string | null} */ (null));
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
  const named = game || summaryGame;
  const title = named ? t(`game.${named}`) : t("common.loading");
  return html`<div class=${`table-page game-${game || "none"}`}>
    <${TopBar} title=${title}>
      <${SoundToggle} />
      <button type="button" class="quiet panel-toggle" aria-expanded=${String(panelOpen)}
        onClick=${() => setPanelOpen(!panelOpen)} aria-label=${t("table.side_panel")}>☰</button>
    <//>
    <${StatusBanner} status=${state.status} detail=${state.statusDetail} />
    ${!ready ? html`<${JoinGate} tableId=${tableId} token=${token} watch=${watch} onReady=${() => setReady(true)}
        onGame=${setSummaryGame} />` : null}
    ${ready && !state.view ? html`<p class="muted loading-table">${t("table.connecting")}</p>` : null}
    ${state.view && boards
      ? html`<div class="table-layout">
          <main class="felt">
            ${state.tableStatus === "waiting"
              ? html`<${WaitingRoom} state=${state} tableId=${tableId} token=${token} />`
              : html`<${boards.Board} state=${state} controller=${controller} nameOf=${nameOf} />`}
          </main>
          <${SidePanel} state=${state} controller=${controller} nameOf=${nameOf} tab=${tab} setTab=${setTab}
            Scores=${boards.Scores} open=${panelOpen} onClose=${() => setPanelOpen(false)} />
        </div>`
      : null}
    <${Refusals} errors=${state.errors} controller=${controller}>
      ${state.view ? html`<${StandInNotice} state=${state} nameOf=${nameOf} />` : null}
    <//>
    ${state.view?.gameOver
      ? html`<${GameOverDialog} state=${state} nameOf=${nameOf} tableId=${tableId} token=${token} />`
      : null}
  </div>`;
}

export { Dialog };
