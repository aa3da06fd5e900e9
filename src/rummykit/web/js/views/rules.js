// The rule pages (rules/<game>.<lang>.html), shown in the player's language.
//
// These pages are the only HTML the client ever inserts as markup, so they come only
// from the fixed list below: the route's game name and the language pick an entry,
// they are never put into a path (a name such as "../../api/tables" would otherwise
// fetch the API's data and show it as HTML).

import { html, useEffect, useState } from "../html.js";
import { LANGUAGES, language, t } from "../i18n.js";
import { TopBar } from "./common.js";

const GAMES = ["burraco", "three-thirteen"];

/** Every rule page there is, by game and language code. */
export const RULE_PAGES = Object.freeze(
  Object.fromEntries(
    GAMES.map((game) => [
      game,
      Object.freeze(Object.fromEntries(LANGUAGES.map(({ code }) => [code, `rules/${game}.${code}.html`]))),
    ]),
  ),
);

/** The rule page addresses to try for `game` in `lang` (then English); none for a name
 * that is not a game with rule pages.
 * @param {string} game
 * @param {string} lang
 * @returns {URL[]}
 */
export function rulePageUrls(game, lang) {
  const pages = Object.hasOwn(RULE_PAGES, game) ? RULE_PAGES[game] : null;
  if (!pages) return [];
  const codes = [lang, "en"].filter((code, i, all) => Object.hasOwn(pages, code) && all.indexOf(code) === i);
  return codes.map((code) => new URL(`../../${pages[code]}`, import.meta.url));
}

/**
 * The first of `urls` that answers with HTML, as text (null when none does).
 * @param {URL[]} urls
 * @returns {Promise<string | null>}
 */
async function fetchRulePage(urls) {
  for (const url of urls) {
    const response = await fetch(url, { credentials: "same-origin" });
    const type = response.headers.get("content-type") || "";
    if (response.ok && type.startsWith("text/html")) return response.text();
  }
  return null;
}

/**
 * The rules of `game` (#/rules/GAME) in the player's language.
 * @param {{ game: string }} props
 */
export function RulesPage({ game }) {
  const lang = language();
  const known = Object.hasOwn(RULE_PAGES, game);
  // The page fetched is kept with the game and language it is for, so that the rules of
  // the game left behind never show, even for the render before the new fetch starts.
  const wanted = `${game}/${lang}`;
  const [fetched, setFetched] = useState(/** @type {{ of: string, text: string } | null} */ (null));
  const content = fetched && fetched.of === wanted ? fetched.text : null;
  useEffect(() => {
    let alive = true;
    fetchRulePage(rulePageUrls(game, lang))
      .then((text) => alive && setFetched({ of: wanted, text: text ?? "" }))
      .catch(() => alive && setFetched({ of: wanted, text: "" }));
    return () => {
      alive = false;
    };
  }, [wanted]);
  return html`<${TopBar} title=${known ? t(`game.${game}`) : t("lobby.rules")} />
    <main class="rules-page">
      <nav class="rules-nav">
        <a href="#/">← ${t("nav.lobby")}</a>
        ${GAMES.map((g) => html`<a href=${`#/rules/${g}`} aria-current=${g === game ? "page" : null}>${t(`game.${g}`)}</a>`)}
      </nav>
      ${!known
        ? html`<p class="muted" data-testid="rules-unknown">${t("rules.unknown_game")}</p>`
        : content === null
          ? html`<p class="muted">${t("common.loading")}</p>`
          : content
            ? html`<div class="rules-body" dangerouslySetInnerHTML=${{ __html: content }}></div>`
            : html`<p class="muted">${t("rules.missing")}</p>`}
    </main>`;
}
