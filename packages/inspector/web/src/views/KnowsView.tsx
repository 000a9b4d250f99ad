/**
 * Who knows what: pick a world event, debate or memory; see who knew it at the cursor
 * and how it spread — a graph from first-hand knowers along each telling or rumour hop,
 * edges labelled with the confidence that falls per hop — and add items to a matrix of
 * NPCs × items.
 */
import type { ElementDefinition } from "cytoscape";
import { useMemo, useState } from "preact/hooks";
import type { ViewProps } from "../App.tsx";
import type { ItemDetail, ItemSummary, Matrix, Page } from "../api.ts";
import { Graph } from "../components/Graph.tsx";
import { Pager } from "../components/Pager.tsx";
import { Status } from "../components/Status.tsx";
import { viaColour } from "../palette.ts";
import { useApi } from "../useApi.ts";
import { KnowersTable } from "./KnowersTable.tsx";

const keyOf = (i: { kind: string; id: string }) => `${i.kind}:${i.id}`;

/** Nodes for every knower; an edge per hop (from → to), first-hand knowers from a source node. */
const spreadElements = (d: ItemDetail): Array<ElementDefinition> => {
  const nodes = new Map<string, string>();
  const els: Array<ElementDefinition> = [
    { data: { id: "∗", label: d.item.kind === "memory" ? "recorded" : "happened", color: "#222" } },
  ];
  for (const k of d.knowers) nodes.set(k.npcId, k.name);
  for (const [id, name] of nodes) {
    const via = d.knowers.find((k) => k.npcId === id)?.via ?? "";
    els.push({ data: { id, label: name, color: viaColour[via] ?? "#999" } });
  }
  for (const s of d.spread) {
    const from = s.from !== null && nodes.has(s.from) ? s.from : "∗";
    const hop = s.via === "told" || s.via === "rumor";
    els.push({
      data: {
        id: `${from}→${s.to}`,
        source: from,
        target: s.to,
        label: hop ? `${s.via} ${s.confidence.toFixed(2)}` : "",
        color: viaColour[s.via] ?? "#999",
        width: hop ? 1 + 3 * s.confidence : 0.6,
      },
    });
  }
  return els;
};

export const KnowsView = (props: ViewProps) => {
  const { save, at } = props;
  const [kind, setKind] = useState("world_event");
  const [sort, setSort] = useState("knowers");
  const [q, setQ] = useState("");
  const [offset, setOffset] = useState(0);
  const [chosen, setChosen] = useState<ReadonlyArray<string>>([]);
  const [mOffset, setMOffset] = useState(0);
  const items = useApi<Page<ItemSummary>>("items", { save, at, kind, sort, q, offset, limit: 25 });
  const picked = props.arg;
  const detail = useApi<ItemDetail>(picked ? "item" : null, { save, at, item: picked });
  const matrix = useApi<Matrix>(chosen.length ? "matrix" : null, {
    save,
    at,
    items: chosen.join(","),
    knowersOnly: 1,
    offset: mOffset,
    limit: 40,
  });
  const elements = useMemo(() => (detail.data ? spreadElements(detail.data) : []), [detail.data]);
  const layout = useMemo(
    () => ({ name: "breadthfirst", directed: true, roots: ["∗"], spacingFactor: 0.9 }) as never,
    [elements],
  );
  const toggle = (key: string) =>
    setChosen((c) => (c.includes(key) ? c.filter((x) => x !== key) : [...c, key].slice(-24)));
  return (
    <section data-testid="view-knows">
      <div class="grid two">
        <article>
          <header class="row">
            <select
              aria-label="item kind"
              value={kind}
              onChange={(e) => {
                setKind(e.currentTarget.value);
                setOffset(0);
              }}
            >
              <option value="world_event">world events</option>
              <option value="debate">debates</option>
              <option value="memory">memories</option>
            </select>
            <select aria-label="sort" value={sort} onChange={(e) => setSort(e.currentTarget.value)}>
              <option value="knowers">most known</option>
              <option value="recent">most recent</option>
            </select>
            <input
              type="search"
              placeholder="text contains…"
              value={q}
              onInput={(e) => {
                setQ(e.currentTarget.value);
                setOffset(0);
              }}
            />
          </header>
          <Status loaded={items} />
          <table class="compact" data-testid="items">
            <tbody>
              {items.data?.rows.map((i) => (
                <tr key={keyOf(i)} class={picked === keyOf(i) ? "picked" : ""}>
                  <td>
                    <input
                      type="checkbox"
                      aria-label="add to matrix"
                      checked={chosen.includes(keyOf(i))}
                      onChange={() => toggle(keyOf(i))}
                    />
                  </td>
                  <td>
                    <a
                      href={`#/knows/${encodeURIComponent(keyOf(i))}?at=${at}`}
                      data-testid="item-link"
                    >
                      {i.text.slice(0, 110)}
                    </a>
                  </td>
                  <td>
                    <small>{i.time}</small>
                  </td>
                  <td title="NPCs who knew it">{i.knowers}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {items.data && <Pager {...items.data} onOffset={setOffset} />}
        </article>
        <article data-testid="item-detail">
          {!picked && <p>Pick an item to see who knew it and how it spread.</p>}
          <Status loaded={detail} />
          {picked && detail.data && (
            <>
              <header>
                <strong>{detail.data.item.kind}</strong> <code>{detail.data.item.id}</code> ·{" "}
                {detail.data.item.time} · known by{" "}
                <strong data-testid="knower-count">{detail.data.knowers.length}</strong> at the
                cursor
              </header>
              <p>{detail.data.item.text}</p>
              <Graph
                elements={elements}
                layout={layout}
                height={340}
                testId="spread-graph"
                onNode={(id) => id !== "∗" && props.go({ view: "npc", arg: id })}
              />
              <KnowersTable knowers={detail.data.knowers} at={at} />
            </>
          )}
        </article>
      </div>
      {chosen.length > 0 && (
        <article data-testid="matrix">
          <header class="row">
            <strong>NPCs × chosen items</strong>{" "}
            <small>(NPCs who knew at least one; cell: how)</small>
            <button type="button" class="outline small" onClick={() => setChosen([])}>
              clear
            </button>
          </header>
          <Status loaded={matrix} />
          {matrix.data && (
            <div class="scroll">
              <table class="compact matrix">
                <thead>
                  <tr>
                    <th />
                    {matrix.data.items.map((i) => (
                      <th key={keyOf(i)} title={i.text}>
                        {i.id.slice(0, 18)}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {matrix.data.npcs.rows.map((n) => (
                    <tr key={n.npcId}>
                      <td>{n.name}</td>
                      {n.cells.map((c, i) => (
                        <td
                          key={i}
                          style={
                            c
                              ? {
                                  background: viaColour[c.via] ?? "#999",
                                  color: "#fff",
                                  opacity: 0.4 + 0.6 * c.confidence,
                                }
                              : {}
                          }
                        >
                          {c ? c.via : ""}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
              <Pager {...matrix.data.npcs} onOffset={setMOffset} />
            </div>
          )}
        </article>
      )}
    </section>
  );
};
