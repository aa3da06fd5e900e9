// The table connection's retries: a jittered, capped, growing wait, and which closes
// are refusals for good and which say "try again".
import { test } from "node:test";
import assert from "node:assert/strict";

class FakeSocket {
  /** @type {FakeSocket[]} */
  static made = [];
  static OPEN = 1;
  constructor(url) {
    this.url = url;
    this.readyState = 0;
    /** @type {Record<string, Function[]>} */
    this.listeners = {};
    FakeSocket.made.push(this);
  }
  addEventListener(kind, listener) {
    (this.listeners[kind] ||= []).push(listener);
  }
  emit(kind, event) {
    for (const listener of this.listeners[kind] || []) listener(event);
  }
  close() {}
}

globalThis.window = /** @type {any} */ ({ addEventListener() {}, removeEventListener() {} });
globalThis.location = /** @type {any} */ ({ protocol: "http:", host: "example.test" });
globalThis.WebSocket = /** @type {any} */ (FakeSocket);

const { TableConnection, retryDelay } = await import("../../src/rummykit/web/js/connection.js");

test("the wait doubles up to a cap, each a random part of it", () => {
  assert.equal(retryDelay(1, () => 1), 400);
  assert.equal(retryDelay(2, () => 1), 800);
  assert.equal(retryDelay(5, () => 1), 6400);
  assert.equal(retryDelay(9, () => 1), 8000);
  assert.equal(retryDelay(40, () => 1), 8000);
  assert.equal(retryDelay(4, () => 0.5), 1600);
  assert.equal(retryDelay(3, () => 0), 200); // never a busy loop
});

/** A connection whose first socket was refused with `code` and closed with `closeCode`. */
function refusedWith(code, closeCode) {
  FakeSocket.made = [];
  /** @type {string[]} */
  const statuses = [];
  const connection = new TableConnection("t1", {
    handlers: { message() {}, status: (status) => statuses.push(status) },
  });
  connection.connect();
  const socket = FakeSocket.made[0];
  socket.emit("open", {});
  socket.emit("message", { data: JSON.stringify({ type: "error", code, message: "m" }) });
  socket.emit("close", { code: closeCode, reason: code });
  connection.close();
  return statuses;
}

test("no such table, closed as a policy violation: refused for good", () => {
  assert.equal(refusedWith("not_found", 1008).at(-1), "refused");
});

test("a table that cannot be reached for now is tried again", () => {
  assert.equal(refusedWith("table_unavailable", 1013).at(-1), "reconnecting");
  // even a refusal's code, when the close says "try again later" or "service restart"
  assert.equal(refusedWith("not_found", 1013).at(-1), "reconnecting");
  assert.equal(refusedWith("not_found", 1012).at(-1), "reconnecting");
});
