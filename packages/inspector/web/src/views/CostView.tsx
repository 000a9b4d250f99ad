/**
 * Cost up to the cursor: model calls, tokens and latency per day, per purpose and per
 * NPC, calls by priority class when the run had a brain policy (CostByClass), and NPC wake-ups per day split into those that asked the brain and those that
 * significance gating kept to their routine.
 */
import type { ChartConfiguration } from "chart.js";
import { useMemo, useState } from "preact/hooks";
import type { ViewProps } from "../App.tsx";
import type { Cost } from "../api.ts";
import { Chart } from "../components/Chart.tsx";
import { Pager } from "../components/Pager.tsx";
import { Status } from "../components/Status.tsx";
import { useApi } from "../useApi.ts";
import { CostByClass } from "./CostByClass.tsx";

const n = (x: number) => Math.round(x).toLocaleString();

export const CostView = (props: ViewProps) => {
  const { save, at } = props;
  const [sort, setSort] = useState("calls");
  const [offset, setOffset] = useState(0);
  const cost = useApi<Cost>("cost", { save, at, sort, offset, limit: 20 });
  const c = cost.data;
  const charts = useMemo(() => {
    if (!c) return null;
    const labels = c.days.map((d) => String(d.day));
    const calls: ChartConfiguration = {
      type: "bar",
      data: {
        labels,
        datasets: [
          {
            type: "bar",
            label: "calls",
            data: c.days.map((d) => d.calls),
            backgroundColor: "#4c78a8",
            yAxisID: "y",
          },
          {
            type: "line",
            label: "tokens (prompt+output)",
            data: c.days.map((d) => d.promptTokens + d.outputTokens),
            borderColor: "#f58518",
            yAxisID: "y1",
          },
          {
            type: "line",
            label: "mean latency ms",
            data: c.days.map((d) => (d.calls ? d.latencyMs / d.calls : 0)),
            borderColor: "#54a24b",
            yAxisID: "y2",
          },
        ],
      },
      options: {
        scales: {
          x: { title: { display: true, text: "game day" } },
          y: { position: "left", title: { display: true, text: "calls" } },
          y1: {
            position: "right",
            grid: { drawOnChartArea: false },
            title: { display: true, text: "tokens" },
          },
          y2: {
            position: "right",
            grid: { drawOnChartArea: false },
            title: { display: true, text: "ms" },
          },
        },
      },
    };
    const gating: ChartConfiguration = {
      type: "bar",
      data: {
        labels,
        datasets: [
          {
            label: "asked the brain",
            data: c.days.map((d) => d.asked),
            backgroundColor: "#e45756",
            stack: "w",
          },
          {
            label: "gated (routine, no call)",
            data: c.days.map((d) => d.gated),
            backgroundColor: "#bab0ac",
            stack: "w",
          },
        ],
      },
      options: {
        scales: {
          x: { stacked: true, title: { display: true, text: "game day" } },
          y: { stacked: true, title: { display: true, text: "NPC wake-ups" } },
        },
      },
    };
    return { calls, gating };
  }, [c]);
  return (
    <section data-testid="view-cost">
      <Status loaded={cost} />
      {c && charts && (
        <>
          <p data-testid="cost-totals">
            <strong>{n(c.totals.calls)}</strong> model calls · {n(c.totals.promptTokens)} prompt +{" "}
            {n(c.totals.outputTokens)} output tokens · {(c.totals.latencyMs / 1000).toFixed(1)} s of
            latency · <strong>{n(c.totals.gated)}</strong> of {n(c.totals.wakeUps)} NPC wake-ups
            gated ({c.totals.wakeUps ? ((100 * c.totals.gated) / c.totals.wakeUps).toFixed(0) : 0}%)
            {!c.callsRecorded && (
              <em> — this run did not record its brain calls, so only gating is shown</em>
            )}
          </p>
          <div class="grid two">
            <article>
              <header>Calls, tokens and latency per day</header>
              <Chart config={charts.calls} testId="cost-chart" />
            </article>
            <article>
              <header>Wake-ups: asked vs gated</header>
              <Chart config={charts.gating} testId="gating-chart" />
            </article>
          </div>
          <div class="grid two">
            <article>
              <header>Per purpose</header>
              <table class="compact">
                <thead>
                  <tr>
                    <th>purpose</th>
                    <th>calls</th>
                    <th>prompt</th>
                    <th>output</th>
                    <th>mean ms</th>
                  </tr>
                </thead>
                <tbody>
                  {c.byPurpose.map((p) => (
                    <tr key={p.purpose}>
                      <td>{p.purpose}</td>
                      <td>{n(p.calls)}</td>
                      <td>{n(p.promptTokens)}</td>
                      <td>{n(p.outputTokens)}</td>
                      <td>{(p.latencyMs / Math.max(1, p.calls)).toFixed(0)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </article>
            <article>
              <header class="row">
                Per NPC
                <select
                  aria-label="sort NPCs"
                  value={sort}
                  onChange={(e) => {
                    setSort(e.currentTarget.value);
                    setOffset(0);
                  }}
                >
                  <option value="calls">by calls</option>
                  <option value="tokens">by tokens</option>
                  <option value="latency">by latency</option>
                </select>
              </header>
              <table class="compact">
                <thead>
                  <tr>
                    <th>NPC</th>
                    <th>calls</th>
                    <th>tokens</th>
                    <th>latency s</th>
                  </tr>
                </thead>
                <tbody>
                  {c.byNpc.rows.map((r) => (
                    <tr key={r.npcId}>
                      <td>
                        <a href={`#/npc/${encodeURIComponent(r.npcId)}?at=${at}`}>{r.name}</a>
                      </td>
                      <td>{n(r.calls)}</td>
                      <td>{n(r.promptTokens + r.outputTokens)}</td>
                      <td>{(r.latencyMs / 1000).toFixed(1)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <Pager {...c.byNpc} onOffset={setOffset} />
            </article>
          </div>
          {c.byClass.some((r) => r.priority !== null) && <CostByClass rows={c.byClass} />}
        </>
      )}
    </section>
  );
};
