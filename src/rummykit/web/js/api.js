// The lobby's HTTP+JSON calls (docs/protocol.md). Every failure becomes an ApiError
// carrying the server's error code and params, which the page translates (i18n.js
// errorText); an answer that is not a typed error is `http_error` with its status, and no
// answer at all is `network`. A revealed seed arrives as decimal text (protocol version 2),
// so plain JSON.parse keeps it exact.

export class ApiError extends Error {
  constructor(status, code, params = {}, message = "") {
    super(message || code);
    this.status = status;
    this.code = code;
    this.params = params;
  }
}

function errorFrom(status, body) {
  const error = body?.error ?? body?.detail ?? body;
  if (error && typeof error === "object" && !Array.isArray(error) && error.code) {
    return new ApiError(status, error.code, error.params || {}, error.message || "");
  }
  if (Array.isArray(error)) return new ApiError(status, "invalid_request", {}, JSON.stringify(error));
  if (status === 401) return new ApiError(status, "no_session");
  return new ApiError(status, "http_error", {}, typeof error === "string" ? error.slice(0, 300) : "");
}

async function call(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      credentials: "same-origin",
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, "network");
  }
  const text = await response.text();
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
const tokenQuery = (token) => (token ? `?token=${encodeURIComponent(token)}` : "");

export const api = {
  me: () => call("GET", "/api/me"),
  guest: (nickname) => call("POST", "/api/session", { nickname }),
  register: (name, password) => call("POST", "/api/register", { name, password }),
  login: (name, password) => call("POST", "/api/login", { name, password }),
  logout: () => call("POST", "/api/logout", {}),
  catalog: () => call("GET", "/api/games/catalog"),
  tables: () => call("GET", "/api/tables"),
  table: (id, token = null) => call("GET", `/api/tables/${encodeURIComponent(id)}${tokenQuery(token)}`),
  createTable: (spec) => call("POST", "/api/tables", spec),
  playNow: (game) => call("POST", "/api/play-now", { game }),
  join: (id, body) => call("POST", `/api/tables/${encodeURIComponent(id)}/join`, body),
  watch: (id, body) => call("POST", `/api/tables/${encodeURIComponent(id)}/watch`, body),
  leave: (id) => call("POST", `/api/tables/${encodeURIComponent(id)}/leave`, {}),
  history: () => call("GET", "/api/history"),
  record: (id, token = null) => call("GET", `/api/tables/${encodeURIComponent(id)}/record${tokenQuery(token)}`),
  replay: (id, { seat = null, full = false, token = null } = {}) => {
    const query = new URLSearchParams();
    if (seat !== null) query.set("seat", String(seat));
    if (full) query.set("full", "true");
    if (token) query.set("token", token);
    return call("GET", `/api/tables/${encodeURIComponent(id)}/replay?${query}`);
  },
  startReview: (id) => call("POST", `/api/tables/${encodeURIComponent(id)}/review`, {}),
  review: (id) => call("GET", `/api/tables/${encodeURIComponent(id)}/review`),
};

/** Lists may come bare or wrapped ({tables: [...]}, {games: [...]}). */
export function listOf(data, key) {
  if (Array.isArray(data)) return data;
  return (data && data[key]) || [];
}
