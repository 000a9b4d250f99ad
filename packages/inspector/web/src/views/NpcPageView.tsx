/**
 * One NPC at the cursor: who it is, where and what it is doing, its directed
 * relationship edges as a graph (its view of others and theirs of it are separate arcs),
 * tasks, open threads, memories with importance and lifetime, and its dossier.
 */
import type { ElementDefinition } from "cytoscape";
import { useMemo, useState } from "preact/hooks";
import type { ViewProps } from "../App.tsx";
import type { MemoryRow, NpcPage, Page } from "../api.ts";
import { Graph } from "../components/Graph.tsx";
import { Meter } from "../components/Meter.tsx";
import { Pager } from "../components/Pager.tsx";
import { Status } from "../components/Status.tsx";
import { useApi } from "../useApi.ts";
import { DossierPanel } from "./DossierPanel.tsx";

const trustColour = (trust: number) =>
  trust >= 0.15 ? "#54a24b" : trust <= -0.15 ? "#e45756" : "#8c8c8c";

const edgeElements = (p: NpcPage): Array<ElementDefinition> => {
  const self = p.npc.npcId;
  const names = new Map<string, string>([[self, p.npc.name]]);
  for (const e of p.edges) {
    names.set(e.from, e.fromName);
    names.set(e.to, e.toName);
  }
  return [
    ...[...names].map(([id, name]) => ({
      data: { id, label: name, color: id === self ? "#1f77b4" : "#bbb" },
    })),
    ...p.edges.map((e) => ({
      data: {
        id: `${e.from}→${e.to}`,
        source: e.from,
        target: e.to,
        label: `${e.trust.toFixed(2)}`,
        color: trustColour(e.trust),
        width: 1 + 3 * Math.abs(e.trust),
      },
    })),
  ];
};

const lifetime = (m: MemoryRow) =>
  m.lifetime === null ? "permanent" : `${(m.lifetime / 1440).toFixed(m.lifetime < 1440 ? 2 : 0)} d`;

export const NpcPageView = (props: ViewProps & { readonly npcId: string }) => {
  const { save, at, npcId } = props;
  const page = useApi<NpcPage>("npc", { save, at, id: npcId });
  const [mOffset, setMOffset] = useState(0);
  const [state, setState] = useState("all");
  const memories = useApi<Page<MemoryRow>>("memories", {
    save,
    at,
    id: npcId,
    state,
    offset: mOffset,
    limit: 20,
  });
  const elements = useMemo(() => (page.data ? edgeElements(page.data) : []), [page.data]);
  const layout = useMemo(
    () =>
      ({
        name: "concentric",
        concentric: (n: { id(): string }) => (n.id() === npcId ? 2 : 1),
        levelWidth: () => 1,
        minNodeSpacing: 30,
      }) as never,
    [elements],
  );
  const p = page.data;
  return (
    <section data-testid="view-npc">
      <p>
        <a href={`#/npcs?at=${at}`}>‹ all NPCs</a>
      </p>
      <Status loaded={page} />
      {p && (
        <>
          <hgroup>
            <h3 data-testid="npc-name">{p.npc.name}</h3>
            <p>
              {p.npc.role}
              {p.npc.factionId ? ` · ${p.npc.factionId}` : ""} · {p.npc.activity} at{" "}
              <code>{p.npc.locationId}</code>
              {p.destination ? (
                <>
                  {" "}
                  → <code>{p.destination}</code>
                </>
              ) : null}{" "}
              — <em>{p.note}</em> · traits: {p.npc.traits.join(", ")}
            </p>
          </hgroup>
          <div class="grid two">
            <article>
              <header>
                <strong>Relationships</strong>{" "}
                <small>(arrow A→B: how A regards B; colour and label: trust)</small>
              </header>
              {p.edges.length === 0 ? (
                <p>No edges yet.</p>
              ) : (
                <Graph
                  elements={elements}
                  layout={layout}
                  height={360}
                  testId="edge-graph"
                  onNode={(id) => id !== npcId && props.go({ view: "npc", arg: id })}
                />
              )}
              <table class="compact" data-testid="edges">
                <thead>
                  <tr>
                    <th>from → to</th>
                    <th>trust</th>
                    <th>respect</th>
                    <th>suspicion</th>
                    <th>why</th>
                  </tr>
                </thead>
                <tbody>
                  {p.edges.map((e) => (
                    <tr key={`${e.from}→${e.to}`}>
                      <td>
                        {e.fromName} → {e.toName}
                      </td>
                      <td>{e.trust.toFixed(2)}</td>
                      <td>{e.respect.toFixed(2)}</td>
                      <td>{e.suspicion.toFixed(2)}</td>
                      <td>
                        <small>{e.summary}</small>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </article>
            <article>
              <header>
                <strong>Profile</strong>
              </header>
              {p.profile ? (
                <ProfileCard profile={p.profile as Record<string, unknown>} />
              ) : (
                <p>No profile yet at the cursor.</p>
              )}
              <header>
                <strong>Tasks</strong>
              </header>
              {p.tasks.length === 0 ? (
                <p>None.</p>
              ) : (
                <ul>
                  {p.tasks.map((t) => (
                    <li key={t.taskId}>
                      <span class={`status ${t.status}`}>{t.status}</span> {t.title}{" "}
                      <small>({t.role})</small>
                    </li>
                  ))}
                </ul>
              )}
              <header>
                <strong>Open threads</strong> <small>(talk in the last game day)</small>
              </header>
              {p.threads.length === 0 ? (
                <p>None.</p>
              ) : (
                <ul>
                  {p.threads.map((t) => (
                    <li key={t.conversationId}>
                      with {t.partnerName}: “{t.lastLine}”
                      {t.summary && <small> — {t.summary}</small>}
                    </li>
                  ))}
                </ul>
              )}
              <p>
                <small>With it now: {p.present.length ? p.present.join(", ") : "nobody"}</small>
              </p>
            </article>
          </div>
          <DossierPanel save={save} at={at} npcId={npcId} />
          <article data-testid="memories">
            <header class="row">
              <strong>Memories</strong>
              <select
                aria-label="memory state"
                value={state}
                onChange={(e) => {
                  setState(e.currentTarget.value);
                  setMOffset(0);
                }}
              >
                <option value="all">all recorded so far</option>
                <option value="live">live at the cursor</option>
              </select>
            </header>
            <Status loaded={memories} />
            <table class="compact">
              <thead>
                <tr>
                  <th>recorded</th>
                  <th>category</th>
                  <th>importance</th>
                  <th>lifetime</th>
                  <th>state</th>
                  <th>text</th>
                </tr>
              </thead>
              <tbody>
                {memories.data?.rows.map((m) => (
                  <tr key={m.memoryId} class={m.state === "live" ? "" : "future"}>
                    <td>
                      <small>day {Math.floor(m.recordedAt / 1440)}</small>
                    </td>
                    <td>{m.category}</td>
                    <td>
                      <Meter value={m.importance} max={1} label={m.importance.toFixed(2)} />{" "}
                      {m.importance.toFixed(2)}
                    </td>
                    <td>{lifetime(m)}</td>
                    <td>{m.state}</td>
                    <td>
                      <small>{m.text}</small>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            {memories.data && <Pager {...memories.data} onOffset={setMOffset} />}
          </article>
        </>
      )}
    </section>
  );
};

const ProfileCard = (props: { readonly profile: Record<string, unknown> }) => (
  <dl class="profile">
    {Object.entries(props.profile).map(([k, v]) => (
      <div key={k}>
        <dt>{k}</dt>
        <dd>{Array.isArray(v) ? v.join("; ") : String(v)}</dd>
      </div>
    ))}
  </dl>
);
