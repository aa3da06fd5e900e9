// cards.js: a card as logs and messages write it, in the language's letters and words
// (never the engine's notation: "Jk", "Qs").

import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { test } from "node:test";

globalThis.fetch = /** @type {any} */ (async (/** @type {string} */ url) => {
  const text = await readFile(new URL(url), "utf8");
  return { ok: true, status: 200, json: async () => JSON.parse(text) };
});
globalThis.document = /** @type {any} */ ({ documentElement: {} });

const { setLanguage } = await import("../../src/rummykit/web/js/i18n.js");
const { cardText, cardsText } = await import("../../src/rummykit/web/js/cards.js");

test("a joker is named in the player's language, other cards by letter and suit", async () => {
  await setLanguage("en");
  assert.equal(cardsText(["2s", "3s", "Jk"]), "2♠ 3♠ Joker");
  assert.equal(cardText("Qs"), "Q♠");
  await setLanguage("hu");
  assert.equal(cardText("Qs"), "D♠");
  await setLanguage("ru");
  assert.equal(cardsText(["Jk", "Ah"]), "Джокер Т♥");
});
