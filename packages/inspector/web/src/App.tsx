/**
 * The page: a header with the save, the day scrubber common to every view, tabs, and the
 * chosen view — each showing the world as it was at the scrubber's cursor.
 */
import type { Meta } from "./api.ts";
import { useRoute } from "./route.ts";
import { Scrubber } from "./Scrubber.tsx";
import { useApi } from "./useApi.ts";
import { CostView } from "./views/CostView.tsx";
import { KnowsView } from "./views/KnowsView.tsx";
import { NpcsView } from "./views/NpcsView.tsx";
import { TalkView } from "./views/TalkView.tsx";
import { TimelineView } from "./views/TimelineView.tsx";

/** What every view gets: the save, the cursor, and a way to move. */
export interface ViewProps {
  readonly save: string;
  readonly at: number;
  readonly arg: string | null;
  readonly go: (r: { view?: string; arg?: string | null; at?: number | null }) => void;
}

const tabs = [
  ["timeline", "Timeline"],
  ["knows", "Who knows what"],
  ["npcs", "NPCs"],
  ["talk", "Debates & talk"],
  ["cost", "Cost"],
] as const;

export const App = () => {
  const [route, go] = useRoute();
  const meta = useApi<Meta>("meta", { save: route.save });
  if (meta.error)
    return (
      <main class="container">
        <p class="error">{meta.error}</p>
      </main>
    );
  if (!meta.data)
    return (
      <main class="container">
        <p aria-busy="true">indexing the log…</p>
      </main>
    );
  const m = meta.data;
  const at = route.at ?? m.head;
  const props: ViewProps = { save: m.saveId, at, arg: route.arg, go };
  const view = route.view === "npc" ? "npcs" : route.view;
  return (
    <main class="container-fluid">
      <header class="top">
        <strong>hearsay inspector</strong>
        <small>
          {m.simulation ?? "?"} · seed {m.seed ?? "?"} · {m.brain ?? "?"} brain · {m.npcCount} NPCs
          · {m.head.toLocaleString()} events · {m.dbPath}
        </small>
        {m.saves.length > 1 && (
          <select
            aria-label="save"
            value={m.saveId}
            onChange={(e) => go({ at: null, save: e.currentTarget.value })}
          >
            {m.saves.map((s) => (
              <option key={s.saveId} value={s.saveId}>
                {s.saveId}
              </option>
            ))}
          </select>
        )}
      </header>
      <Scrubber meta={m} at={at} onAt={(seq) => go({ at: seq })} />
      <nav class="tabs">
        <ul>
          {tabs.map(([id, label]) => (
            <li key={id}>
              <a
                href={`#/${id}?at=${at}`}
                aria-current={view === id ? "page" : undefined}
                data-testid={`tab-${id}`}
              >
                {label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {view === "timeline" && <TimelineView {...props} />}
      {view === "knows" && <KnowsView {...props} />}
      {view === "npcs" && <NpcsView {...props} arg={route.view === "npc" ? route.arg : null} />}
      {view === "talk" && <TalkView {...props} />}
      {view === "cost" && <CostView {...props} />}
    </main>
  );
};
