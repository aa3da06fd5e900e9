// One table as the page sees it: the connection, the queue that shows other players'
// moves one at a time (long enough to follow), the chat, hints, refusals and the end.

import { TableConnection } from "./connection.js";
import { readObservation, eventKind } from "./model.js";
import { Store, paceMs } from "./store.js";
import { cardSound, play } from "./sound.js";
import { stopTravel, travel, travelMs } from "./motion.js";

/**
 * @import { Card, ChatBroadcast, ErrorMessage, GameEvent, GameOverMessage, GameStateMessage,
 *   HintMessage, LastAction, PlayerInfo, RematchOffer, Seat, TableMessage, TurnInfo } from "./protocol-types"
 * @import { ConnectionStatus, StatusDetail } from "./connection.js"
 * @import { TableView } from "./model.js"
 */
/**
 * An event as this module reads it: its kind, and who acted when the kind has an actor.
 * @typedef {GameEvent & { player?: Seat }} ActedEvent
 */
/**
 * One line of the move log: the event, its index in the seat's event log, and who made
 * the move that produced it (the state's `last_action.actor`, on its last event only).
 * @typedef {{ event: ActedEvent, index: number, actor: LastAction["actor"] | null }} LogEntry
 */
/**
 * The state message on screen (a replay's has only its state number).
 * @typedef {Partial<GameStateMessage> & { state_number: number }} ShownMessage
 */
/**
 * A table as the boards draw it: the controller's store, or a replay's step.
 * @template {TableView} [View=TableView]
 * @typedef {object} TableState
 * @property {ConnectionStatus} status
 * @property {StatusDetail | null} [statusDetail]
 * @property {ShownMessage | null} message
 * @property {View | null} view its observation, normalised (null before the first state)
 * @property {string | null} game
 * @property {Seat | null} seat the seat this page plays (null for a watcher)
 * @property {(PlayerInfo | (Omit<PlayerInfo, "connected"> & { connected?: boolean }))[]} players
 * @property {string[]} legal the legal actions, for the seat to move
 * @property {(TurnInfo & { receivedAt: number }) | null} turn with when it arrived (ms)
 * @property {ChatBroadcast[]} chat
 * @property {LogEntry[]} log
 * @property {(ErrorMessage & { id: number })[]} errors the latest refusals
 * @property {HintMessage | null} hint
 * @property {boolean} [hintPending]
 * @property {GameOverMessage | null} [gameOver]
 * @property {RematchOffer | null} [rematch] another player of this finished table asked
 *   for a rematch: where it is
 * @property {boolean} [pending] an action sent and not yet answered
 * @property {ActedEvent[]} [lastEvents] the events of the state on screen
 * @property {"waiting" | "playing" | "over"} [tableStatus]
 * @property {LastAction | null} [lastAction]
 * @property {boolean} [readOnly] a replay: nothing can be played
 * @property {Seat | null} [ownSeat] a replay: the viewer's own seat, if any
 * @property {(Card[] | null)[] | null} [revealed] a finished game's replay: every hand
 */
/**
 * A table with a state on screen, as a board draws it.
 * @template {TableView} [View=TableView]
 * @typedef {TableState<View> & { view: View }} BoardState
 */
/**
 * What a board asks of the table: to play an action, to ask a hint and to say why a move
 * is not sent (a replay's stand-in does nothing).
 * @typedef {Pick<TableController, "act" | "askHint" | "explain">} BoardController
 */

const MAX_LOG = 200;
const CATCH_UP = 6; // with this many moves waiting, show them without pauses

export class TableController {
  /** @param {{ tableId: string, token: string | null }} table */
  constructor({ tableId, token }) {
    this.tableId = tableId;
    this.token = token;
    /** @type {GameStateMessage[]} */
    this.queue = [];
    this.waiting = false;
    this.holdUntil = 0; // until when the last move by someone else stays on screen
    /** @type {TableMessage[]} */
    this.received = []; // every message as it came (what the page was told)
    this.store = new Store(/** @type {TableState} */ ({
      status: "connecting",
      message: null, // the state message on screen
      view: null, // its observation, normalised
      game: null,
      seat: null,
      players: [],
      legal: [],
      turn: null,
      chat: [],
      log: [],
      errors: [],
      hint: null,
      hintPending: false,
      gameOver: null,
      pending: false,
      lastEvents: [],
    }));
    this.errorId = 0;
    /** @type {GameStateMessage | null} the newest state the server sent */
    this.latest = null;
    this.focusSentAt = -1; // the state number whose turn's focus loss was told
    this.onFocusLost = () => this.focusLost();
    /** @type {Map<string, string>} chat lines sent and not yet echoed, by their client id */
    this.unsaid = new Map();
    this.connection = new TableConnection(tableId, {
      token,
      handlers: {
        message: (message) => this.receive(message),
        status: (status, detail) => {
          this.store.set({ status, statusDetail: detail || null });
          if (status === "open") this.sayAgain();
        },
      },
    });
  }

  start() {
    this.connection.connect();
    document.addEventListener("visibilitychange", this.onFocusLost);
    window.addEventListener("blur", this.onFocusLost);
  }

  stop() {
    document.removeEventListener("visibilitychange", this.onFocusLost);
    window.removeEventListener("blur", this.onFocusLost);
    this.connection.close();
    clearTimeout(this.paceTimer);
    stopTravel();
  }

  /**
   * Take one message from the server: a state joins the queue, the rest show at once.
   * @param {TableMessage} message
   */
  receive(message) {
    this.received.push(message);
    switch (message.type) {
      case "state":
        this.latest = message;
        this.queue.push(message);
        this.pump();
        break;
      case "error":
        this.refused(message);
        break;
      case "chat":
        if (message.client_id && this.unsaid.delete(message.client_id)) {
          // the echo of a line said again after a reconnect: shown once
          if (this.store.get().chat.some((line) => line.client_id === message.client_id)) break;
        }
        this.store.set({ chat: [...this.store.get().chat, message].slice(-MAX_LOG) });
        play("chat");
        break;
      case "chat_history":
        for (const line of message.messages) {
          if (line.client_id) this.unsaid.delete(line.client_id);
        }
        this.store.set({ chat: message.messages.slice(-MAX_LOG) });
        break;
      case "hint":
        this.store.set({ hint: message, hintPending: false });
        break;
      case "game_over":
        this.store.set({ gameOver: message });
        break;
      case "rematch":
        this.store.set({ rematch: message });
        play("turn");
        break;
      default:
        break;
    }
  }

  /** @param {ErrorMessage} message */
  refused(message) {
    const errors = [...this.store.get().errors, { ...message, id: ++this.errorId }].slice(-3);
    this.store.set({ errors, pending: false, hintPending: false });
    play("error");
    // a stale state number means the page is behind: the next state message fixes it
  }

  /**
   * A move the page does not send because the server would refuse it (a card dropped on
   * the discard pile before drawing): said like the server's refusal, in its words.
   * @param {string} code the server's refusal code
   * @param {Record<string, unknown>} [params]
   */
  explain(code, params = {}) {
    this.refused({ type: "error", code, params, message: code });
  }

  /** @param {number} id the refusal's `id` in `errors` */
  dismissError(id) {
    this.store.set({ errors: this.store.get().errors.filter((e) => e.id !== id) });
  }

  /** Show the queued states in order; a move by someone else stays on screen for the
   * chosen pace before the next move by someone else replaces it, however soon that one
   * arrives (the player's own moves are never held back, but the next move by someone
   * else waits for their cards' flight). */
  pump() {
    if (this.waiting || !this.queue.length) return;
    const message = this.queue[0];
    const last = message.last_action;
    const byOther = Boolean(last) && /** @type {LastAction} */ (last).seat !== message.seat;
    const wait = byOther && this.queue.length < CATCH_UP ? this.holdUntil - Date.now() : 0;
    if (wait > 0) {
      this.waiting = true;
      this.paceTimer = setTimeout(() => {
        this.waiting = false;
        this.pump();
      }, wait);
      return;
    }
    this.queue.shift();
    const others = this.show(message);
    // the player's own move is never held, but the next move by someone else waits
    // until its cards have landed
    this.holdUntil = Date.now() + (others ? paceMs() : travelMs());
    this.pump();
  }

  /**
   * Put one state message on screen; true when it shows someone else's move.
   * @param {GameStateMessage} message
   * @returns {boolean}
   */
  show(message) {
    const { game, seat, events_start: start } = message;
    const view = readObservation(game, message.observation);
    // a game ended before its rules end it (abandoned, aborted) is over all the same
    if (message.status === "over") view.gameOver = true;
    const known = this.store.get().log;
    const seenUpTo = known.length ? known[known.length - 1].index : -1;
    // events already shown (a reconnect repeats the latest few) are not news
    /** @type {ActedEvent[]} */
    const events = message.events.filter((_, i) => start + i > seenUpTo);
    const last = message.last_action;
    const others = last ? last.seat !== seat : events.some((e) => e.player !== undefined && e.player !== seat);
    const log = [...known];
    events.forEach((event, i) => {
      const index = start + (message.events.length - events.length) + i;
      log.push({ event, index, actor: i === events.length - 1 && last ? last.actor : null });
    });
    const previous = this.store.get().view;
    const mine = events.some((e) => e.player === seat);
    // the cards that move are measured before the state is drawn, and travel after
    const land = travel(events, seat, previous !== null && this.queue.length < CATCH_UP);
    this.store.set({
      message,
      view,
      game,
      seat,
      players: message.players,
      legal: message.legal_actions,
      tableStatus: message.status,
      lastAction: last || null,
      turn: message.turn ? { ...message.turn, receivedAt: Date.now() } : null,
      log: log.slice(-MAX_LOG),
      lastEvents: events,
      pending: false,
      hint: previous && previous.turn !== view.turn ? null : this.store.get().hint,
      errors: mine ? [] : this.store.get().errors,
    });
    land();
    if (events.length) {
      const kinds = events.map(eventKind);
      if (kinds.includes("hand_ended")) play("end");
      else if (view.currentPlayer === seat && seat !== null && previous?.currentPlayer !== seat)
        play("turn");
      else play(cardSound(kinds));
    }
    return others;
  }

  get stateNumber() {
    return this.store.get().message?.state_number;
  }

  /**
   * Send an action in the engine's notation ("meld 3h 4h 5h"); false when it cannot go
   * (one already waits for its answer, or the connection is down).
   * @param {string} action
   * @returns {boolean}
   */
  act(action) {
    if (this.store.get().pending) return false;
    // the boards offer actions only while a state is on screen
    const sent = this.connection.send({ type: "action", state_number: /** @type {number} */ (this.stateNumber), action });
    if (sent) this.store.set({ pending: true, hint: null });
    return sent;
  }

  /**
   * Say `text` at the table; false when the connection is down.
   * @param {string} text
   * @returns {boolean}
   */
  chat(text) {
    const clientId = newClientId();
    const sent = this.connection.send({ type: "chat", text, client_id: clientId });
    if (sent) this.unsaid.set(clientId, text);
    return sent;
  }

  /**
   * Send again, with their ids, the lines said before the connection broke whose echo
   * never came: the server says each line once, however often it is sent.
   */
  sayAgain() {
    for (const [clientId, text] of this.unsaid) {
      this.connection.send({ type: "chat", text, client_id: clientId });
    }
  }

  /** Ask for a hint, unless the table gives none (a rated or tournament game). */
  askHint() {
    if (this.store.get().message?.hints === false) return;
    if (this.connection.send({ type: "hint" })) this.store.set({ hintPending: true, hint: null });
  }

  /** At a turn-based table whose mover's time ran out: let a stand-in play that move. */
  letSubstitutePlay() {
    this.connection.send({ type: "substitute" });
  }

  /** Claim the win over a side that abandoned the game (the server checks it may be). */
  claimWin() {
    this.connection.send({ type: "claim" });
  }

  /**
   * At a rated or tournament table (no hints), tell the server once a turn that the page
   * lost focus during the player's own turn: the fair-play assessment counts it.
   */
  focusLost() {
    const latest = this.latest;
    if (document.visibilityState === "visible" && document.hasFocus()) return;
    if (!latest || latest.hints !== false || latest.status !== "playing") return;
    if (latest.legal_actions.length === 0 || this.focusSentAt === latest.state_number) return;
    if (this.connection.send({ type: "focus_lost", state_number: latest.state_number })) {
      this.focusSentAt = latest.state_number;
    }
  }

  dismissHint() {
    this.store.set({ hint: null });
  }
}

/**
 * A random id for a chat line (what the server matches a line sent again by).
 * @returns {string}
 */
export function newClientId() {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
