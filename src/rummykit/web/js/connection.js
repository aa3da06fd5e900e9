// One WebSocket per table (docs/protocol.md). It reconnects by itself with a growing,
// jittered delay, for as long as it takes, unless the server refuses it for good (no
// such table, no session...); a table between two servers is answered with close code
// 1012 or 1013, "try again". The server answers a new connection with the full table,
// so nothing reloads.
// Messages are plain JSON: the seed in game_over is decimal text (protocol version 2).

/** @import { ClientMessage, ErrorMessage, TableMessage } from "./protocol-types" */
/**
 * Where the connection stands: a first attempt, open, waiting to try again, closed by
 * the page, or refused by the server for good.
 * @typedef {"connecting" | "open" | "reconnecting" | "closed" | "refused"} ConnectionStatus
 */
/**
 * What comes with a status: the wait before the next attempt (`delay`, ms), or why the
 * server refused (its error message, or the close `reason` with `code` "refused").
 * @typedef {{ delay?: number, code?: string, params?: Record<string, unknown>,
 *   message?: string, reason?: string }} StatusDetail
 */
/**
 * @typedef {object} ConnectionHandlers
 * @property {(message: TableMessage) => void} message each message the server sends
 * @property {(status: ConnectionStatus, detail?: StatusDetail) => void} status
 */

const PING_MS = 20000;
const REFUSING_CODES = new Set([
  "no_session",
  "not_found",
  "private_table",
  "bad_origin",
  "too_many_sockets",
]);
const FIRST_DELAY_MS = 400;
const MAX_DELAY_MS = 8000;
/**
 * Close codes that mean "this table is there, try again": 1012 (service restart: the
 * table moved, its next host is reachable now) and 1013 (try again later: it cannot
 * be reached from this server at the moment). Even after an error message such a
 * close is never a refusal.
 */
const TRY_AGAIN_CODES = new Set([1012, 1013]);

/**
 * The wait before retry number `attempt` (1, 2, ...): doubling from 400 ms up to 8 s,
 * each a random part of that ("full jitter", so that the clients of a server that
 * just went away do not all come back in the same instant), never under 200 ms.
 * @param {number} attempt
 * @param {() => number} [random]
 * @returns {number}
 */
export function retryDelay(attempt, random = Math.random) {
  const ceiling = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.min(attempt - 1, 5));
  return Math.max(200, Math.round(ceiling * random()));
}

export class TableConnection {
  /**
   * handlers: {message(msg), status("connecting"|"open"|"reconnecting"|"closed"|"refused", detail)}
   * @param {string} tableId
   * @param {{ token?: string | null, handlers: ConnectionHandlers }} options
   */
  constructor(tableId, { token = null, handlers }) {
    this.tableId = tableId;
    this.token = token;
    this.handlers = handlers;
    /** @type {WebSocket | null} */
    this.socket = null;
    this.closedByUs = false;
    this.attempts = 0;
    /** @type {number | null} */
    this.timer = null;
    /** @type {number | null} */
    this.pinger = null;
    this.onOnline = () => this.retryNow();
    window.addEventListener("online", this.onOnline);
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const query = this.token ? `?token=${encodeURIComponent(this.token)}` : "";
    return `${scheme}://${location.host}/ws/tables/${encodeURIComponent(this.tableId)}${query}`;
  }

  connect() {
    this.closedByUs = false;
    clearTimeout(this.timer);
    this.handlers.status(this.attempts ? "reconnecting" : "connecting");
    let socket;
    try {
      socket = new WebSocket(this.url());
    } catch {
      this.scheduleRetry();
      return;
    }
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.attempts = 0;
      /** @type {ErrorMessage | null} the refusal that came before the socket closed, if any */
      this.refusal = null;
      this.handlers.status("open");
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.send({ type: "ping" }), PING_MS);
    });
    socket.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message.type === "state") this.everOpen = true;
      if (message.type === "error" && REFUSING_CODES.has(message.code) && !this.everOpen) {
        this.refusal = message;
      }
      this.handlers.message(message);
    });
    socket.addEventListener("close", (event) => {
      clearInterval(this.pinger);
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.closedByUs) {
        this.handlers.status("closed");
        return;
      }
      // the server refused this connection for good (no session, no such table, no token)
      const refused = this.refusal || event.code === 1008 || (event.code >= 4400 && event.code < 4500);
      if (refused && !TRY_AGAIN_CODES.has(event.code)) {
        this.handlers.status("refused", this.refusal || { code: "refused", reason: event.reason });
        return;
      }
      this.scheduleRetry();
    });
  }

  scheduleRetry() {
    this.attempts += 1;
    const delay = retryDelay(this.attempts);
    this.handlers.status("reconnecting", { delay });
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  retryNow() {
    if (this.socket || this.closedByUs) return;
    this.connect();
  }

  get isOpen() {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  /**
   * Send one message if the socket is open; false when it is not (nothing is queued).
   * @param {ClientMessage} message
   * @returns {boolean}
   */
  send(message) {
    if (!this.isOpen) return false;
    /** @type {WebSocket} open, so set */ (this.socket).send(JSON.stringify(message));
    return true;
  }

  close() {
    this.closedByUs = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    window.removeEventListener("online", this.onOnline);
    if (this.socket) this.socket.close(1000);
    this.socket = null;
  }
}
