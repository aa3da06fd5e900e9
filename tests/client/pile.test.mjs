// burraco.js pileCardsShown: how many of the discard pile's newest cards one row holds,
// each showing the corner of the one under it; the rest go under the button that opens
// the whole pile, which then needs its own room.

import assert from "node:assert/strict";
import { test } from "node:test";

globalThis.document = /** @type {any} */ ({ documentElement: {} });

const { pileCardsShown } = await import("../../src/rummykit/web/js/views/burraco.js");

test("a pile that fits the row is shown whole", () => {
  assert.equal(pileCardsShown(0, 200, 38, 50), 0);
  assert.equal(pileCardsShown(1, 200, 38, 50), 1);
  // 38 px for the top card and 14.44 px for each card under it: 11 cards in 182.4 px
  assert.equal(pileCardsShown(11, 183, 38, 50), 11);
});

test("a longer pile keeps its newest cards and leaves room for the button", () => {
  const shown = pileCardsShown(60, 220, 38, 50);
  assert.ok(shown < 60);
  assert.ok(38 + (shown - 1) * 38 * 0.38 + 50 <= 220, `${shown} cards and the button overflow`);
  assert.ok(38 + shown * 38 * 0.38 + 50 > 220, `${shown + 1} cards would still fit`);
});

test("at least the top card shows however narrow the row", () => {
  assert.equal(pileCardsShown(40, 10, 38, 50), 1);
});
