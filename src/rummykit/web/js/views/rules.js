// The rule pages (rules/<game>.<lang>.html), shown in the player's language.

import { html, useEffect, useState } from "../html.js";
import { language, t } from "../i18n.js";
import { TopBar } from "./common.js";

export function RulesPage({ game }) {
  const lang = language();
  const [content, setContent] = useState(null);
  useEffect(() => {
    let alive = true;
    const load = async () => {
      for (const code of [lang, "en"]) {
        const response = await fetch(new URL(`../../rules/${game}.${code}.html`, import.meta.url));
        if (response.ok) return response.text();
      }
      return null;
    };
    load()
      .then((text) => alive && setContent(text ?? ""))
      .catch(() => alive && setContent(""));
    return () => {
      alive = false;
    };
  }, [game, lang]);
  return html`<${TopBar} title=${t(`game.${game}`)} />
    <main class="rules-page">
      <nav class="rules-nav">
        <a href="#/">← ${t("nav.lobby")}</a>
        ${["burraco", "three-thirteen"].map((g) => html`<a href=${`#/rules/${g}`} aria-current=${g === game ? "page" : null}>${t(`game.${g}`)}</a>`)}
      </nav>
      ${content === null
        ? html`<p class="muted">${t("common.loading")}</p>`
        : content
          ? html`<div class="rules-body" dangerouslySetInnerHTML=${{ __html: content }}></div>`
          : html`<p class="muted">${t("rules.missing")}</p>`}
    </main>`;
}
