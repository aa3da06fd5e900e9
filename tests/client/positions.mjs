// The positions of tests/client/fixtures/*.json: real games' state messages, made by
// tests/client/make_fixtures.py and checked against the engine by test_fixtures.py.

import { readFileSync } from "node:fs";

/** The fixture of `game` ("burraco" or "three-thirteen"). */
export function fixture(game) {
  return JSON.parse(readFileSync(new URL(`./fixtures/${game}.json`, import.meta.url), "utf8"));
}

/** The state message of the position `name` of `game`'s fixture. */
export function position(game, name) {
  const found = fixture(game).positions[name];
  if (!found) throw new Error(`${game} has no position ${name}`);
  return found.message;
}

/** Every position's message of `game`, by name. */
export function positions(game) {
  return Object.fromEntries(Object.entries(fixture(game).positions).map(([name, p]) => [name, p.message]));
}
