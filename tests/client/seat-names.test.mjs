// A seat's name: a computer keeps the number the server gives it (a tournament's
// entrant, the same number as in the standings), else its seat's, read with the real
// message files in each language.

import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { test } from "node:test";

globalThis.fetch = /** @type {any} */ (async (/** @type {string} */ url) => {
  const text = await readFile(new URL(url), "utf8");
  return { ok: true, status: 200, json: async () => JSON.parse(text) };
});
globalThis.document = /** @type {any} */ ({ documentElement: {} });

const { setLanguage } = await import("../../src/rummykit/web/js/i18n.js");
const { computerNumber, seatName, seatShortName } = await import("../../src/rummykit/web/js/views/common.js");

const bot = (/** @type {number} */ seat, /** @type {string} */ name) => ({ seat, name, kind: /** @type {const} */ ("bot"), level: "greedy" });
const person = (/** @type {number} */ seat, /** @type {string} */ name) => ({ seat, name, kind: /** @type {const} */ ("human") });

test("the number in a computer's given name", () => {
  assert.equal(computerNumber("Computer 7 (Medium)"), 7);
  assert.equal(computerNumber("Computer (Medium)"), null);
  assert.equal(computerNumber(null), null);
});

test("a tournament's computer keeps its entrant's number in every language", async () => {
  const players = [person(0, "Ann"), bot(1, "Computer 3 (Medium)"), bot(2, "Computer 7 (Medium)"), bot(3, "Computer 4 (Medium)")];
  await setLanguage("en");
  assert.equal(seatName(players, 1), "Computer 3 (Medium)");
  assert.equal(seatShortName(players, 2), "Computer 7");
  await setLanguage("hu");
  assert.equal(seatName(players, 3), "4. gép (közepes)");
  await setLanguage("ru");
  assert.equal(seatName(players, 1), "Компьютер 3 (средний)");
});

test("other computers are numbered by their seat when there are several", async () => {
  await setLanguage("en");
  const two = [person(0, "Ann"), bot(1, "Computer (Medium)"), bot(2, "Computer (Medium)")];
  assert.equal(seatName(two, 2), "Computer 3 (Medium)");
  assert.equal(seatName([person(0, "Ann"), bot(1, "Computer (Medium)")], 1), "Computer (Medium)");
});
