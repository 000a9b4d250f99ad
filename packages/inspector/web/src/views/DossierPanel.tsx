/** The dossier an NPC would be handed at the cursor: each section's tokens against its budget, each item's score. */
import { useState } from "preact/hooks";
import type { DossierAnswer } from "../api.ts";
import { Meter } from "../components/Meter.tsx";
import { Status } from "../components/Status.tsx";
import { useApi } from "../useApi.ts";

export const DossierPanel = (props: {
  readonly save: string;
  readonly at: number;
  readonly npcId: string;
}) => {
  const [query, setQuery] = useState("");
  const answer = useApi<DossierAnswer>("dossier", {
    save: props.save,
    at: props.at,
    id: props.npcId,
    query,
  });
  const d = answer.data?.dossier;
  return (
    <article data-testid="dossier">
      <header class="row">
        <strong>Dossier at the cursor</strong>
        {d && (
          <small>
            {d.totalTokens} / {d.budget} tokens
          </small>
        )}
        <input
          type="search"
          placeholder="query (what it is asked about)…"
          value={query}
          onChange={(e) => setQuery(e.currentTarget.value)}
        />
      </header>
      <Status loaded={answer} />
      {answer.data && !answer.data.available && (
        <p class="muted">Dossier unavailable: {answer.data.reason}</p>
      )}
      {d?.sections.map((s) => (
        <details
          key={s.name}
          open={s.items.length > 0 && s.items.length <= 6}
          data-testid="dossier-section"
        >
          <summary>
            <span class="section-name">{s.name}</span> <Meter value={s.tokens} max={s.budget} />{" "}
            <small>
              {s.tokens} / {s.budget} tokens · {s.items.length} items
            </small>
          </summary>
          <table class="compact">
            <tbody>
              {s.items.map((i) => (
                <tr key={`${i.kind}:${i.id}`}>
                  <td>
                    <Meter value={i.score} max={1} label={`score ${i.score.toFixed(3)}`} />{" "}
                    {i.score.toFixed(2)}
                  </td>
                  <td>
                    <small>{i.kind}</small>
                  </td>
                  <td>
                    <small>{i.tokens} tok</small>
                  </td>
                  <td>
                    <small>{i.text}</small>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      ))}
    </article>
  );
};
