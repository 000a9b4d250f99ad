/**
 * The cost view's brain-policy panel: per game day, how many calls the model answered
 * and how many fell back and why (the tick's budget held for higher classes, a budget
 * spent, the model failed); and, up to the cursor, the same per priority class and
 * purpose, highest class first.
 */
import type { ChartConfiguration } from "chart.js";
import { useMemo } from "preact/hooks";
import type { Cost } from "../api.ts";
import { Chart } from "../components/Chart.tsx";

const n = (x: number) => Math.round(x).toLocaleString();

/** Highest class first; calls recorded without a policy last. */
const order = ["critical", "high", "normal", "low", "scripted"];
const rank = (p: string | null) => (p === null ? order.length : order.indexOf(p));

type Row = Omit<Cost["byClass"][number], "day">;

export const CostByClass = ({ rows }: { rows: Cost["byClass"] }) => {
  const { chart, table } = useMemo(() => {
    const days = [...new Set(rows.map((r) => r.day))].sort((a, b) => a - b);
    const per = (f: (r: Cost["byClass"][number]) => number) =>
      days.map((d) => rows.filter((r) => r.day === d).reduce((s, r) => s + f(r), 0));
    const chart: ChartConfiguration = {
      type: "bar",
      data: {
        labels: days.map(String),
        datasets: [
          { label: "model", data: per((r) => r.model), backgroundColor: "#4c78a8", stack: "c" },
          {
            label: "held for higher classes",
            data: per((r) => r.held),
            backgroundColor: "#f58518",
            stack: "c",
          },
          {
            label: "budget spent",
            data: per((r) => r.budget),
            backgroundColor: "#e45756",
            stack: "c",
          },
          {
            label: "model failed",
            data: per((r) => r.failed),
            backgroundColor: "#b279a2",
            stack: "c",
          },
        ],
      },
      options: {
        scales: {
          x: { stacked: true, title: { display: true, text: "game day" } },
          y: { stacked: true, title: { display: true, text: "calls" } },
        },
      },
    };
    const sums = new Map<string, Row>();
    for (const r of rows) {
      const key = `${r.priority ?? ""}\u0000${r.purpose}`;
      const s = sums.get(key);
      sums.set(
        key,
        s === undefined
          ? { ...r }
          : {
              ...s,
              calls: s.calls + r.calls,
              model: s.model + r.model,
              fellBack: s.fellBack + r.fellBack,
              held: s.held + r.held,
              budget: s.budget + r.budget,
              failed: s.failed + r.failed,
            },
      );
    }
    const table = [...sums.values()].sort(
      (a, b) => rank(a.priority) - rank(b.priority) || (a.purpose < b.purpose ? -1 : 1),
    );
    return { chart, table };
  }, [rows]);
  return (
    <div class="grid two" data-testid="cost-by-class">
      <article>
        <header>Model or fallback per day, and why</header>
        <Chart config={chart} testId="class-chart" />
      </article>
      <article>
        <header>Per priority class and purpose</header>
        <table class="compact">
          <thead>
            <tr>
              <th>class</th>
              <th>purpose</th>
              <th>calls</th>
              <th>model</th>
              <th>fell back</th>
              <th>held</th>
              <th>budget</th>
              <th>failed</th>
            </tr>
          </thead>
          <tbody>
            {table.map((r) => (
              <tr key={`${r.priority}:${r.purpose}`}>
                <td>{r.priority ?? "(no policy)"}</td>
                <td>{r.purpose}</td>
                <td>{n(r.calls)}</td>
                <td>{n(r.model)}</td>
                <td>{n(r.fellBack)}</td>
                <td>{n(r.held)}</td>
                <td>{n(r.budget)}</td>
                <td>{n(r.failed)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </article>
    </div>
  );
};
