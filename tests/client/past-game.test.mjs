// past-game.js: how a finished game went for one seat, and its scores with the seat's
// own first; partners at a table of pairs win together and share one total.

import assert from "node:assert/strict";
import { test } from "node:test";

globalThis.document = /** @type {any} */ ({ documentElement: {} });

const { outcome, scoresMineFirst } = await import("../../src/rummykit/web/js/views/past-game.js");

test("a win shared with other players is a draw, one shared with a partner is not", () => {
  assert.equal(outcome([1], 1), "won");
  assert.equal(outcome([0, 1], 1), "drawn");
  assert.equal(outcome([0], 1), "lost");
  assert.equal(outcome([0, 2], 0, 2), "won");
  assert.equal(outcome([0, 2], 1, 3), "lost");
  assert.equal(outcome([0, 1, 2, 3], 2, 0), "drawn");
  assert.equal(outcome([], 0), null);
  assert.equal(outcome([0], null), null);
});

test("the scores start with the seat's own, each side's once at a table of pairs", () => {
  assert.equal(scoresMineFirst([280, 590], 1), "590 : 280");
  assert.equal(scoresMineFirst([5, 9, 7], 2), "7 : 5 : 9");
  assert.equal(scoresMineFirst([300, 120, 300, 120], 1, 3), "120 : 300");
  assert.equal(scoresMineFirst([300, 120, 300, 120], null), "300 : 120 : 300 : 120");
});
