// One table as the page sees it: the connection, the queue that shows other players'
// moves one at a time (long enough to follow), the chat, hints, refusals and the end.

import { TableConnection } from "./connection.js";
import { readObservation, eventKind } from "./model.js";
import { Store, paceMs } from "./store.js";
import { play } from "./sound.js";

const MAX_LOG = 200;
const CATCH_UP = 6; // with this many moves waiting, show them without pauses

export class TableController {
  constructor({ tableId, token }) {
    this.tableId = tableId;
    this.token = token;
    this.queue = [];
    this.waiting = false;
    this.holdUntil = 0; // until when the last move by someone else stays on screen
    this.received = []; // every message as it came (what the page was told)
    this.store = new Store({
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
    });
    this.errorId = 0;
    this.connection = new TableConnection(tableId, {
      token,
      handlers: {
        message: (message) => this.receive(message),
        status: (status, detail) => this.store.set({ status, statusDetail: detail || null }),
      },
    });
  }

  start() {
    this.connection.connect();
  }

  stop() {
    this.connection.close();
    clearTimeout(this.paceTimer);
  }

  receive(message) {
    this.received.push(message);
    switch (message.type) {
      case "state":
        this.queue.push(message);
        this.pump();
        break;
      case "error":
        this.refused(message);
        break;
      case "chat":
        this.store.set({ chat: [...this.store.get().chat, message].slice(-MAX_LOG) });
        play("chat");
        break;
      case "chat_history":
        this.store.set({ chat: (message.messages || []).slice(-MAX_LOG) });
        break;
      case "hint":
        this.store.set({ hint: message, hintPending: false });
        break;
      case "game_over":
        this.store.set({ gameOver: message });
        break;
      case "presence":
      case "players":
        if (message.players) this.store.set({ players: message.players });
        break;
      default:
        break;
    }
  }

  refused(message) {
    const errors = [...this.store.get().errors, { ...message, id: ++this.errorId }].slice(-3);
    this.store.set({ errors, pending: false, hintPending: false });
    play("error");
    // a stale state number means the page is behind: the next state message fixes it
  }

  dismissError(id) {
    this.store.set({ errors: this.store.get().errors.filter((e) => e.id !== id) });
  }

  /** Show the queued states in order; a move by someone else stays on screen for the
   * chosen pace before the next move by someone else replaces it, however soon that one
   * arrives (the player's own moves are never held back). */
  pump() {
    if (this.waiting || !this.queue.length) return;
    const message = this.queue[0];
    const last = message.last_action;
    const byOther = Boolean(last) && last.seat !== (message.seat ?? null);
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
    this.holdUntil = others ? Date.now() + paceMs() : 0;
    this.pump();
  }

  /** Put one state message on screen; true when it shows someone else's move. */
  show(message) {
    const game = message.game || this.store.get().game || guessGame(message.observation);
    const view = readObservation(game, message.observation);
    const seat = message.seat ?? null;
    const start = message.events_start ?? null;
    const known = this.store.get().log;
    const seenUpTo = known.length ? known[known.length - 1].index : -1;
    // events already shown (a reconnect repeats the latest few) are not news
    const events = (message.events || []).filter((_, i) => start === null || start + i > seenUpTo);
    const last = message.last_action;
    const others = last ? last.seat !== seat : events.some((e) => e.player !== undefined && e.player !== seat);
    const log = [...known];
    events.forEach((event, i) => {
      const index = start === null ? seenUpTo + 1 + i : start + (message.events.length - events.length) + i;
      log.push({ event, index, actor: i === events.length - 1 && last ? last.actor : null });
    });
    const previous = this.store.get().view;
    const mine = events.some((e) => e.player === seat);
    this.store.set({
      message,
      view,
      game,
      seat,
      players: message.players || this.store.get().players,
      legal: message.legal_actions || [],
      tableStatus: message.status || (view.gameOver ? "over" : "playing"),
      lastAction: last || null,
      turn: message.turn ? { ...message.turn, receivedAt: Date.now() } : null,
      log: log.slice(-MAX_LOG),
      lastEvents: events,
      pending: false,
      hint: previous && previous.turn !== view.turn ? null : this.store.get().hint,
      errors: mine ? [] : this.store.get().errors,
    });
    if (events.length) {
      const kinds = events.map(eventKind);
      if (kinds.some((k) => k === "hand_ended" || k === "round_ended")) play("end");
      else if (view.currentPlayer === seat && seat !== null && previous?.currentPlayer !== seat)
        play("turn");
      else play("card");
    }
    return others;
  }

  get stateNumber() {
    return this.store.get().message?.state_number;
  }

  /** Send an action in the engine's notation ("meld 3h 4h 5h"). */
  act(action) {
    if (this.store.get().pending) return false;
    const sent = this.connection.send({ type: "action", state_number: this.stateNumber, action });
    if (sent) this.store.set({ pending: true, hint: null });
    return sent;
  }

  chat(text) {
    return this.connection.send({ type: "chat", text });
  }

  askHint() {
    if (this.connection.send({ type: "hint" })) this.store.set({ hintPending: true, hint: null });
  }

  dismissHint() {
    this.store.set({ hint: null });
  }
}

function guessGame(observation) {
  return observation && "wild_rank" in observation ? "three-thirteen" : "burraco";
}
