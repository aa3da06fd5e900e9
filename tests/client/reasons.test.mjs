// move-words.js reasonText: a bot's reason in the player's language, read with the real
// message files: a phrase that only names the move is left out beside the move, and the
// phrases are set apart by a dash and semicolons, not a chain of colons.

import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { test } from "node:test";

globalThis.fetch = /** @type {any} */ (async (/** @type {string} */ url) => {
  const text = await readFile(new URL(url), "utf8");
  return { ok: true, status: 200, json: async () => JSON.parse(text) };
});
globalThis.document = /** @type {any} */ ({ documentElement: {} });

const { setLanguage } = await import("../../src/rummykit/web/js/i18n.js");
const { reasonText } = await import("../../src/rummykit/web/js/move-words.js");

const DRAW_ONLY = [{ code: "draw_stock", params: {} }];
const TAKE = [
  { code: "take_card", params: { card: "Qd" } },
  { code: "deadwood_change", params: { before: 34, after: 25 } },
  { code: "tie_card_order", params: { count: 2 } },
];

test("beside its move, a reason that only names the move says nothing", async () => {
  await setLanguage("hu");
  assert.equal(reasonText(DRAW_ONLY, "draw from the stock", { named: true }), "");
  assert.equal(reasonText(DRAW_ONLY), "húzz a pakliból");
});

test("the move, a dash, then each reason after a semicolon", async () => {
  await setLanguage("en");
  assert.equal(
    reasonText(TAKE, "", { game: "three-thirteen" }),
    "take Q♦ — deadwood 34 → 25; of 2 equal choices, the first in card order",
  );
  assert.equal(
    reasonText(TAKE, "", { named: true, game: "three-thirteen" }),
    "deadwood 34 → 25; of 2 equal choices, the first in card order",
  );
});
