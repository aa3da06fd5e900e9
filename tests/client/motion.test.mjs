// motion.js and sound.js without a page: how long a card's flight takes at each pace,
// no flight with the motion setting off or the system's reduced motion, and which card
// sound a state's events make.

import assert from "node:assert/strict";
import { test } from "node:test";

let reduce = false;
globalThis.matchMedia = /** @type {any} */ ((/** @type {string} */ query) => ({
  matches: reduce && query === "(prefers-reduced-motion: reduce)",
}));

const { settings } = await import("../../src/rummykit/web/js/store.js");
const { travelMs } = await import("../../src/rummykit/web/js/motion.js");
const { cardSound } = await import("../../src/rummykit/web/js/sound.js");

test("a flight takes longer at a slower pace, and none at the instant pace", () => {
  const times = ["slow", "normal", "fast", "instant"].map((pace) => {
    settings.set({ pace, motion: true });
    return travelMs();
  });
  assert.deepEqual(times, [650, 450, 280, 0]);
});

test("the motion setting and the system's reduced motion turn the flights off", () => {
  settings.set({ pace: "slow", motion: false });
  assert.equal(travelMs(), 0);
  settings.set({ motion: true });
  reduce = true;
  assert.equal(travelMs(), 0);
  reduce = false;
  assert.equal(travelMs(), 650);
});

test("a deal shuffles, a card laid down is placed, a card drawn slides", () => {
  assert.equal(cardSound(["hand_dealt"]), "shuffle");
  assert.equal(cardSound(["stock_drawn", "stock_reshuffled"]), "shuffle");
  assert.equal(cardSound(["melded", "pozzetto_taken"]), "place");
  assert.equal(cardSound(["discarded"]), "place");
  assert.equal(cardSound(["stock_drawn"]), "slide");
  assert.equal(cardSound(["pile_taken"]), "slide");
});
