// Messages in English, Hungarian and Russian: one JSON file of flat keys per language
// (i18n/<lang>.json), plus the engine's refusal texts (i18n/refusals.<lang>.json).
// A value is a string with {name} placeholders, or an object of plural forms
// ({one, few, many, other}) chosen through Intl.PluralRules by the `count` parameter, or
// by the parameter that its "count" member names ({"count": "retry_after", "one": ...}).
// The server's error codes (docs/protocol.md, "Error codes") are the `error.<code>` keys.

import { settings } from "./store.js";

/**
 * A message's plural forms (Intl.PluralRules categories); `count` names the parameter
 * that picks the form (by default the parameter `count`).
 * @typedef {{ count?: string } & Partial<Record<Intl.LDMLPluralRule, string>>} PluralForms
 */
/** @typedef {string | PluralForms} Message */
/**
 * An engine refusal's text: a message, or one chosen by the value of the parameter `by`.
 * @typedef {Message | { by: string, cases?: Record<string, Message>, other?: Message }} RefusalMessage
 */
/**
 * One language's files: its messages, the engine's refusals and the rank letters printed
 * on cards.
 * @typedef {object} LanguageCatalog
 * @property {Record<string, Message>} messages
 * @property {Record<string, RefusalMessage>} refusals
 * @property {Record<string, string>} rankSymbols
 */
/** A message's parameters, by name. @typedef {Record<string, unknown>} Params */
/**
 * An error as the server words it, wherever it comes from (an ApiError, a table's error
 * message, the reason a connection was refused): its code, the code's params and the
 * server's English message.
 * @typedef {{ code?: string | null, params?: Params | null, message?: string }} ServerError
 */

export const LANGUAGES = [
  { code: "en", name: "English" },
  { code: "hu", name: "Magyar" },
  { code: "ru", name: "Русский" },
];

/** @type {Record<string, LanguageCatalog>} */
const catalogs = {}; // lang -> {messages, refusals}
let current = "en";
/** @type {Set<(lang: string) => void>} */
const listeners = new Set();

/** @param {string} path */
function baseUrl(path) {
  return new URL(`../${path}`, import.meta.url).href;
}

/**
 * @param {string} path
 * @returns {Promise<any>} the file's JSON, as written in i18n/
 */
async function fetchJson(path) {
  const response = await fetch(baseUrl(path));
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return response.json();
}

/**
 * @param {string} lang
 * @returns {Promise<LanguageCatalog>}
 */
async function loadCatalog(lang) {
  if (catalogs[lang]) return catalogs[lang];
  const [messages, refusals] = await Promise.all([
    fetchJson(`i18n/${lang}.json`),
    fetchJson(`i18n/refusals.${lang}.json`).catch(() => ({})),
  ]);
  catalogs[lang] = {
    messages,
    refusals: refusals.refusals ?? {},
    rankSymbols: refusals.rank_symbols ?? {},
  };
  return catalogs[lang];
}

/**
 * The language to start in: the saved choice, else the browser's first known language.
 * @returns {string}
 */
export function initialLanguage() {
  const saved = settings.get().language;
  if (LANGUAGES.some((l) => l.code === saved)) return /** @type {string} */ (saved);
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const code = tag.slice(0, 2).toLowerCase();
    if (LANGUAGES.some((l) => l.code === code)) return code;
  }
  return "en";
}

/**
 * Switch language (loads its files first) and remember the choice.
 * @param {string} lang
 */
export async function setLanguage(lang) {
  await Promise.all([loadCatalog(lang), loadCatalog("en")]);
  current = lang;
  document.documentElement.lang = lang;
  if (settings.get().language !== lang) settings.set({ language: lang });
  for (const listener of listeners) listener(lang);
}

/** The current language's code. */
export function language() {
  return current;
}

/**
 * Call `listener` after each change of language; returns the function that stops it.
 * @param {(lang: string) => void} listener
 */
export function onLanguageChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * @param {string} text
 * @param {Params | undefined} params
 */
function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (/** @type {string} */ whole, /** @type {string} */ name) =>
    params && params[name] !== undefined && params[name] !== null ? String(params[name]) : whole,
  );
}

/**
 * @param {Message | undefined | null} value
 * @param {Params | undefined} params
 * @param {string} lang
 * @returns {string | undefined}
 */
function pick(value, params, lang) {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return fill(value, params);
  const count = Number(params?.[value.count ?? "count"] ?? 0);
  const form = new Intl.PluralRules(lang).select(count);
  return fill(value[form] ?? value.other ?? "", params);
}

/**
 * The message `key` in the current language (English, then the key itself, if missing).
 * @param {string} key
 * @param {Params} [params]
 * @returns {string}
 */
export function t(key, params) {
  const here = pick(catalogs[current]?.messages[key], params, current);
  if (here !== undefined) return here;
  const english = pick(catalogs.en?.messages[key], params, "en");
  return english !== undefined ? english : key;
}

/**
 * True when the current language (or English) has the key.
 * @param {string} key
 * @returns {boolean}
 */
export function has(key) {
  return key in (catalogs[current]?.messages ?? {}) || key in (catalogs.en?.messages ?? {});
}

/**
 * A server error in the player's language: the `error.<code>` message filled with the
 * error's params. The server's English `message` is shown only for a code this client
 * has no message for (a newer server's), and the code itself without one.
 * @param {ServerError} error
 * @returns {string}
 */
export function errorText({ code, params, message }) {
  // a refusal that names the rule it breaks has words of its own for that rule
  const rule = params && typeof params.rule === "string" ? `error.${code}.${params.rule}` : "";
  if (rule && has(rule)) return t(rule, params || {});
  if (code && has(`error.${code}`)) return t(`error.${code}`, params || {});
  return message || String(code || "error").replace(/_/g, " ");
}

/**
 * What a table refused, in the player's language: an engine refusal from its code and
 * params (card params shown with suit symbols), else a server error (errorText).
 * @param {ServerError & { code: string }} error
 * @returns {string}
 */
export function refusalText(error) {
  const { code, params } = error;
  /** @type {Params} */
  const shown = {};
  for (const [name, value] of Object.entries(params || {})) {
    if (name === "rank") shown[name] = rankSymbol(value);
    else if (name === "reason" && typeof value === "string") shown[name] = cardsInText(value);
    else shown[name] = displayParam(value);
  }
  for (const lang of [current, "en"]) {
    /** @type {RefusalMessage | undefined} */
    let entry = catalogs[lang]?.refusals?.[code];
    // {by: param, cases: {value: text}, other: text}: the text depends on one param
    if (entry && typeof entry === "object" && "by" in entry) {
      entry = entry.cases?.[/** @type {string} */ (params?.[entry.by])] ?? entry.other;
    }
    const text = pick(entry, shown, lang);
    if (text !== undefined) return text;
  }
  return errorText(error);
}

/**
 * The printed index of a rank letter in this language ("Q" is "D" in Hungarian).
 * @param {unknown} letter a rank letter (read as text)
 * @returns {string}
 */
export function rankSymbol(letter) {
  const key = String(letter).toUpperCase();
  return catalogs[current]?.rankSymbols?.[key] ?? catalogs.en?.rankSymbols?.[key] ?? (key === "T" ? "10" : key);
}

let cardFormatter = (/** @type {string} */ name) => name;
/**
 * Set by cards.js: how a card name ("Th") is written in text ("10♥").
 * @param {(name: string) => string} format
 */
export function setCardFormatter(format) {
  cardFormatter = format;
}

/** An engine's English explanation with its card names written as cards ("not 5h Js" →
 * "not 5♥ J♠"), a wild's meaning ("2h(=K)") in words ("2♥ as K"); the plural "2s" that
 * opens "2s cannot form a set" is a word, not a card.
 * @param {string} text
 * @returns {string}
 */
export function cardsInText(text) {
  return text.replace(
    /(^|[\s,(])([2-9TJQKA][cdhs]|Jk)(?:\(=([2-9TJQKA][cdhs]?)\))?(?=$|[\s,.;:)])/g,
    (/** @type {string} */ match, /** @type {string} */ before, /** @type {string} */ card, /** @type {string | undefined} */ meaning, /** @type {number} */ offset) => {
      if (offset === 0 && text.startsWith("2s cannot")) return match;
      if (!meaning) return before + cardFormatter(card);
      const stands = meaning.length === 1 ? rankSymbol(meaning) : cardFormatter(meaning);
      return before + t("card.wild_as", { card: cardFormatter(card), meaning: stands });
    },
  );
}

/**
 * A parameter as a message shows it: cards written as cards, lists joined by spaces.
 * @param {unknown} value
 * @returns {unknown}
 */
function displayParam(value) {
  if (Array.isArray(value)) return value.map(displayParam).join(" ");
  if (typeof value === "string" && /^([2-9TJQKA][cdhs]|Jk)$/i.test(value)) return cardFormatter(value);
  return value;
}

/**
 * Numbers in the current language's style.
 * @param {number} value
 * @returns {string}
 */
export function formatNumber(value) {
  return new Intl.NumberFormat(current).format(value);
}

/**
 * Names in a list, in the current language's words: all of them ("Ann and Bob", "Ann és
 * Bob", "Ann и Bob"), or one of them with `type` "disjunction" ("5♥ or 7♣").
 * @param {string[]} names
 * @param {"conjunction" | "disjunction"} [type]
 * @returns {string}
 */
export function formatList(names, type = "conjunction") {
  return new Intl.ListFormat(current, { type }).format(names);
}

/**
 * A day in the current language's style ("Dec 3, 2026", "2026. dec. 3.", "3 дек. 2026 г.").
 * @param {number} seconds since the epoch, as the server sends times
 * @returns {string}
 */
export function formatDate(seconds) {
  return new Intl.DateTimeFormat(current, { dateStyle: "medium" }).format(new Date(seconds * 1000));
}

/**
 * A day and time of day in the current language's style.
 * @param {number} seconds since the epoch, as the server sends times
 * @returns {string}
 */
export function formatDateTime(seconds) {
  return new Intl.DateTimeFormat(current, { dateStyle: "medium", timeStyle: "short" }).format(new Date(seconds * 1000));
}
