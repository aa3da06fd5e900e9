// The fair-deal panel: the commitment shown from the start, the seed revealed at the end,
// the check done in this browser, and the command that re-derives every deal.

import { html, useEffect, useState } from "../html.js";
import { t } from "../i18n.js";
import { checkCommitment } from "../fairness.js";

/**
 * The fair-deal panel of a finished (or running: no seed yet) game; a tournament's table
 * (`heldForRound`) keeps its seed until every table of its round is over.
 * @param {{ seed: string | null, nonce?: string | null, commitment: string | null,
 *   tableId: string | null, token?: string | null, heldForRound?: boolean }} props
 */
export function FairDeal({ seed, nonce = null, commitment, tableId, token = null, heldForRound = false }) {
  const [verdict, setVerdict] = useState(/** @type {boolean | null} */ (null));
  useEffect(() => {
    let alive = true;
    checkCommitment({ seed, commitment, nonce }).then((ok) => alive && setVerdict(ok));
    return () => {
      alive = false;
    };
  }, [seed, commitment, nonce]);
  return html`<section class="fair-deal" data-testid="fair-deal">
    <h3>${t("fair.title")}</h3>
    <p class="muted">${t(seed === null && heldForRound ? "fair.explain_round" : "fair.explain")}</p>
    <dl>
      <dt>${t("fair.commitment")}</dt><dd><code data-testid="commitment">${commitment || "—"}</code></dd>
      <dt>${t("fair.seed")}</dt><dd><code data-testid="seed">${seed ?? t(heldForRound ? "fair.seed_round" : "fair.seed_hidden")}</code></dd>
      ${nonce ? html`<dt>${t("fair.nonce")}</dt><dd><code data-testid="nonce">${nonce}</code></dd>` : null}
    </dl>
    ${verdict === true ? html`<p class="verdict ok" data-testid="fair-verdict">✔ ${t("fair.ok")}</p>` : null}
    ${verdict === false ? html`<p class="verdict bad" data-testid="fair-verdict">✘ ${t("fair.bad")}</p>` : null}
    <p class="muted">${t("fair.command")}</p>
    <pre class="command" tabindex="0"><code>rummykit verify ${tableId ? `${tableId}.json` : "RECORD.json"}</code></pre>
    ${tableId ? html`<a class="button small" href=${`/api/tables/${encodeURIComponent(tableId)}/record${token ? `?token=${encodeURIComponent(token)}` : ""}`} download=${`${tableId}.json`}>${t("fair.download")}</a>` : null}
  </section>`;
}
