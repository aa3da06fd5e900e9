// The lobby's HTTP+JSON calls (docs/protocol.md). Every failure becomes an ApiError
// carrying the server's error code and params, which the page translates (i18n.js
// errorText); an answer that is not a typed error is `http_error` with its status, and no
// answer at all is `network`. A revealed seed arrives as decimal text (protocol version 2),
// so plain JSON.parse keeps it exact.

/**
 * @import { ApiRoutes, Card, Observation, Seat } from "./protocol-types"
 */
/**
 * What route `R` ("METHOD /path") answers (protocol-types.d.ts, from the OpenAPI document).
 * @template {keyof ApiRoutes} R
 * @typedef {Promise<ApiRoutes[R]["response"]>} Answer
 */
/**
 * The JSON body route `R` takes.
 * @template {keyof ApiRoutes} R
 * @typedef {ApiRoutes[R]["request"]} Body
 */
/**
 * One position of a replay: the action that led to it (null at the deal), the
 * observation of the replayed seat, and with `full` every player's hand.
 * @typedef {object} ReplayStep
 * @property {number} state_number
 * @property {Seat | null} seat who acted
 * @property {string | null} action
 * @property {string | null} actor
 * @property {Observation} observation
 * @property {Card[][]} [hands]
 */
/**
 * GET /api/tables/{id}/replay. The route answers a plain JSON object (no response
 * model, so the OpenAPI document does not say its fields): this is what
 * server/api/replay.py writes.
 * @typedef {object} Replay
 * @property {string} table_id
 * @property {string} game
 * @property {Record<string, unknown>} rules
 * @property {{ seat: Seat, name: string, kind: "human" | "bot", level: string | null }[]} players
 * @property {Seat} seat the seat whose view the steps show
 * @property {Seat | null} own_seat the caller's seat, if any
 * @property {boolean} over
 * @property {ReplayStep[]} steps
 */

/** A failed call: the HTTP status (0 without an answer) and the server's error code. */
export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} code
   * @param {Record<string, unknown>} [params]
   * @param {string} [message]
   */
  constructor(status, code, params = {}, message = "") {
    super(message || code);
    this.status = status;
    this.code = code;
    this.params = params;
  }
}

/**
 * @param {number} status
 * @param {any} body the answer's JSON, or its text when it is not JSON
 * @returns {ApiError}
 */
function errorFrom(status, body) {
  const error = body?.error;
  if (error && typeof error === "object" && error.code) {
    return new ApiError(status, error.code, error.params || {}, error.message || "");
  }
  if (status === 401) return new ApiError(status, "no_session");
  return new ApiError(status, "http_error", {}, typeof body === "string" ? body.slice(0, 300) : "");
}

/**
 * One call; its answer's JSON (each method of `api` says its type).
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<any>}
 */
async function call(method, path, body) {
  let response;
  let text;
  try {
    response = await fetch(path, {
      method,
      credentials: "same-origin",
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    text = await response.text(); // an answer broken off is no answer either
  } catch {
    throw new ApiError(0, "network");
  }
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = text;
  }
  if (!response.ok) throw errorFrom(response.status, data);
  return data;
}

/** A private table is read with its invitation token (docs/protocol.md). */
const tokenQuery = (/** @type {string | null} */ token) => (token ? `?token=${encodeURIComponent(token)}` : "");

export const api = {
  /** @type {() => Answer<"GET /api/me">} */
  me: () => call("GET", "/api/me"),
  /** Who is signed in, or null: no error (and none in the console) before anyone is.
   * @type {() => Answer<"GET /api/session">} */
  whoAmI: () => call("GET", "/api/session"),
  /**
   * A guest session under `nickname`; with `keepSession` a session the page's cookie
   * already holds is kept (and answered) instead.
   * @type {(nickname: string, keepSession?: boolean) => Answer<"POST /api/session">}
   */
  guest: (nickname, keepSession = false) =>
    call("POST", "/api/session", keepSession ? { nickname, keep_session: true } : { nickname }),
  /** @type {(name: string, password: string) => Answer<"POST /api/register">} */
  register: (name, password) => call("POST", "/api/register", { name, password }),
  /** @type {(name: string, password: string) => Answer<"POST /api/login">} */
  login: (name, password) => call("POST", "/api/login", { name, password }),
  /** @type {() => Answer<"POST /api/logout">} */
  logout: () => call("POST", "/api/logout", {}),
  /** @type {() => Answer<"GET /api/games/catalog">} */
  catalog: () => call("GET", "/api/games/catalog"),
  /** @type {() => Answer<"GET /api/tables">} */
  tables: () => call("GET", "/api/tables"),
  /** @type {(id: string, token?: string | null) => Answer<"GET /api/tables/{table_id}">} */
  table: (id, token = null) => call("GET", `/api/tables/${encodeURIComponent(id)}${tokenQuery(token)}`),
  /** @type {(spec: Body<"POST /api/tables">) => Answer<"POST /api/tables">} */
  createTable: (spec) => call("POST", "/api/tables", spec),
  /** @type {(game: Body<"POST /api/play-now">["game"]) => Answer<"POST /api/play-now">} */
  playNow: (game) => call("POST", "/api/play-now", { game }),
  /** @type {(id: string, body: Body<"POST /api/tables/{table_id}/join">) => Answer<"POST /api/tables/{table_id}/join">} */
  join: (id, body) => call("POST", `/api/tables/${encodeURIComponent(id)}/join`, body),
  /** @type {(id: string, body: Body<"POST /api/tables/{table_id}/watch">) => Answer<"POST /api/tables/{table_id}/watch">} */
  watch: (id, body) => call("POST", `/api/tables/${encodeURIComponent(id)}/watch`, body),
  /** @type {(id: string) => Answer<"POST /api/tables/{table_id}/leave">} */
  leave: (id) => call("POST", `/api/tables/${encodeURIComponent(id)}/leave`, {}),
  /** @type {(id: string) => Answer<"POST /api/tables/{table_id}/rematch">} */
  rematch: (id) => call("POST", `/api/tables/${encodeURIComponent(id)}/rematch`, {}),
  /** @type {() => Answer<"GET /api/current">} */
  current: () => call("GET", "/api/current"),
  /** @type {() => Answer<"GET /api/vacation">} */
  vacation: () => call("GET", "/api/vacation"),
  /** @type {(body: Body<"POST /api/vacation">) => Answer<"POST /api/vacation">} */
  takeVacation: (body) => call("POST", "/api/vacation", body),
  /** @type {() => Answer<"GET /api/history">} */
  history: () => call("GET", "/api/history"),
  /** @type {(id: string, token?: string | null) => Answer<"GET /api/tables/{table_id}/record">} */
  record: (id, token = null) => call("GET", `/api/tables/${encodeURIComponent(id)}/record${tokenQuery(token)}`),
  /**
   * @type {(id: string, options?: { seat?: Seat | null, full?: boolean, token?: string | null })
   *   => Promise<Replay>}
   */
  replay: (id, { seat = null, full = false, token = null } = {}) => {
    const query = new URLSearchParams();
    if (seat !== null) query.set("seat", String(seat));
    if (full) query.set("full", "true");
    if (token) query.set("token", token);
    return call("GET", `/api/tables/${encodeURIComponent(id)}/replay?${query}`);
  },
  /** @type {(id: string) => Answer<"POST /api/tables/{table_id}/review">} */
  startReview: (id) => call("POST", `/api/tables/${encodeURIComponent(id)}/review`, {}),
  /** @type {(id: string) => Answer<"GET /api/tables/{table_id}/review">} */
  review: (id) => call("GET", `/api/tables/${encodeURIComponent(id)}/review`),
  /** @type {(game: string, period: "all" | "30d") => Answer<"GET /api/leaderboard">} */
  leaderboard: (game, period) =>
    call("GET", `/api/leaderboard?${new URLSearchParams({ game, period })}`),
  /** @type {(id: string) => Answer<"GET /api/players/{player_id}">} */
  player: (id) => call("GET", `/api/players/${encodeURIComponent(id)}`),
  /** @type {(body: Body<"POST /api/reports">) => Answer<"POST /api/reports">} */
  report: (body) => call("POST", "/api/reports", body),
  /** @type {() => Answer<"GET /api/me/standing">} */
  standing: () => call("GET", "/api/me/standing"),
  /** @type {() => Answer<"GET /api/mod/reports">} */
  reportQueue: () => call("GET", "/api/mod/reports"),
  /** @type {(id: number, reason: string) => Answer<"POST /api/mod/reports/{report_id}/close">} */
  closeReport: (id, reason) => call("POST", `/api/mod/reports/${id}/close`, { reason }),
  /** @type {(id: string) => Answer<"GET /api/mod/players/{player_id}">} */
  playerCase: (id) => call("GET", `/api/mod/players/${encodeURIComponent(id)}`),
  /** @type {(id: string, body: Body<"POST /api/mod/players/{player_id}/actions">) => Answer<"POST /api/mod/players/{player_id}/actions">} */
  moderate: (id, body) => call("POST", `/api/mod/players/${encodeURIComponent(id)}/actions`, body),
  /** @type {() => Answer<"GET /api/mod/log">} */
  moderationLog: () => call("GET", "/api/mod/log"),
  /** @type {() => Answer<"GET /api/notifications">} */
  notifications: () => call("GET", "/api/notifications"),
  /** @type {(body: Body<"PUT /api/notifications">) => Answer<"PUT /api/notifications">} */
  chooseNotifications: (body) => call("PUT", "/api/notifications", body),
  /** @type {(email: string) => Answer<"POST /api/notifications/email">} */
  notificationEmail: (email) => call("POST", "/api/notifications/email", { email }),
  /** @type {(token: string) => Answer<"POST /api/notifications/email/verify">} */
  verifyEmail: (token) => call("POST", "/api/notifications/email/verify", { token }),
  /** @type {(token: string) => Answer<"POST /api/notifications/unsubscribe">} */
  unsubscribeEmail: (token) => call("POST", "/api/notifications/unsubscribe", { token }),
  /** @type {(body: Body<"POST /api/notifications/push">) => Answer<"POST /api/notifications/push">} */
  pushSubscribe: (body) => call("POST", "/api/notifications/push", body),
  /** @type {(endpoint: string) => Answer<"DELETE /api/notifications/push">} */
  pushUnsubscribe: (endpoint) => call("DELETE", "/api/notifications/push", { endpoint }),
  /** @type {() => Answer<"GET /api/tournaments">} */
  tournaments: () => call("GET", "/api/tournaments"),
  /** @type {(body: Body<"POST /api/tournaments">) => Answer<"POST /api/tournaments">} */
  createTournament: (body) => call("POST", "/api/tournaments", body),
  /** @type {(id: string) => Answer<"GET /api/tournaments/{tournament_id}">} */
  tournament: (id) => call("GET", `/api/tournaments/${encodeURIComponent(id)}`),
  /** @type {(id: string, body?: Body<"POST /api/tournaments/{tournament_id}/register">) => Answer<"POST /api/tournaments/{tournament_id}/register">} */
  registerTournament: (id, body = {}) => call("POST", `/api/tournaments/${encodeURIComponent(id)}/register`, body),
  /** @type {(id: string, name: string) => Answer<"POST /api/tournaments/{tournament_id}/invite">} */
  invitePartner: (id, name) => call("POST", `/api/tournaments/${encodeURIComponent(id)}/invite`, { name }),
  /** @type {(id: string) => Answer<"POST /api/tournaments/{tournament_id}/withdraw">} */
  withdrawTournament: (id) => call("POST", `/api/tournaments/${encodeURIComponent(id)}/withdraw`, {}),
  /** @type {(id: string) => Answer<"POST /api/tournaments/{tournament_id}/start">} */
  startTournament: (id) => call("POST", `/api/tournaments/${encodeURIComponent(id)}/start`, {}),
};
