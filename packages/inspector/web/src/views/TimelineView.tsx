/**
 * Timeline: events per game day by type as stacked bars; click a bar for that day's
 * events (filter by type, a page at a time), click an event for its payload, where and
 * when it happened, and who came to know it by the cursor.
 */
import type { ChartConfiguration } from "chart.js";
import { useMemo, useState } from "preact/hooks";
import type { ViewProps } from "../App.tsx";
import type { EventDetail, EventRow, Page, Timeline } from "../api.ts";
import { Chart } from "../components/Chart.tsx";
import { Pager } from "../components/Pager.tsx";
import { Status } from "../components/Status.tsx";
import { colourOf } from "../palette.ts";
import { useApi } from "../useApi.ts";
import { KnowersTable } from "./KnowersTable.tsx";

const hidden = new Set(["ClockAdvanced", "Checkpoint"]);

export const TimelineView = (props: ViewProps) => {
  const { save, at } = props;
  const timeline = useApi<Timeline>("timeline", { save, at });
  const cursor = useApi<{ cursor: { day: number } }>("cursor", { save, at });
  const [picked, setPicked] = useState<number | null>(null);
  const [type, setType] = useState("");
  const [offset, setOffset] = useState(0);
  const [seq, setSeq] = useState<number | null>(null);
  const day = picked ?? cursor.data?.cursor.day ?? null;
  const events = useApi<Page<EventRow>>(day === null ? null : "events", {
    save,
    at,
    day,
    type,
    offset,
    limit: 50,
  });
  const detail = useApi<EventDetail>(seq === null ? null : "event", { save, at, seq });
  const t = timeline.data;
  const config = useMemo((): ChartConfiguration | null => {
    if (!t) return null;
    const types = t.types.filter((x) => !hidden.has(x));
    return {
      type: "bar",
      data: {
        labels: t.days.map((d) => String(d.day)),
        datasets: types.map((ty) => ({
          label: ty,
          data: t.days.map((d) => d.counts[ty] ?? 0),
          backgroundColor: colourOf(ty, t.types),
          stack: "events",
        })),
      },
      options: {
        scales: {
          x: { stacked: true, title: { display: true, text: "game day" } },
          y: { stacked: true },
        },
        plugins: { legend: { position: "right", labels: { boxWidth: 10, font: { size: 10 } } } },
        onClick: (_e, els) => {
          const el = els[0];
          if (el) {
            setPicked(t.days[el.index]!.day);
            setOffset(0);
          }
        },
      },
    };
  }, [t]);
  return (
    <section data-testid="view-timeline">
      <Status loaded={timeline} />
      {config && <Chart config={config} height={280} testId="timeline-chart" />}
      <div class="grid two">
        <article>
          <header class="row">
            <strong>Day {day ?? "…"}</strong>
            <select
              aria-label="event type"
              value={type}
              onChange={(e) => {
                setType(e.currentTarget.value);
                setOffset(0);
              }}
            >
              <option value="">every type</option>
              {t?.types.map((x) => (
                <option key={x} value={x}>
                  {x}
                </option>
              ))}
            </select>
          </header>
          <Status loaded={events} />
          <table class="compact" data-testid="day-events">
            <tbody>
              {events.data?.rows.map((e) => (
                <tr
                  key={e.seq}
                  class={e.seq === seq ? "picked" : e.seq > at ? "future" : ""}
                  onClick={() => setSeq(e.seq)}
                >
                  <td>
                    <small>{e.time.replace(/^day \d+, /, "")}</small>
                  </td>
                  <td>
                    <code>{e.type}</code>
                  </td>
                  <td>{e.summary}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {events.data && <Pager {...events.data} onOffset={setOffset} />}
        </article>
        <article data-testid="event-detail">
          {seq === null ? (
            <p>Click an event to see its payload, where and when, and who came to know it.</p>
          ) : (
            <>
              <Status loaded={detail} />
              {detail.data && (
                <>
                  <header>
                    <strong>
                      #{detail.data.event.seq} {detail.data.event.type}
                    </strong>{" "}
                    · {detail.data.event.time}
                    {detail.data.locationId && (
                      <>
                        {" "}
                        · at <code>{detail.data.locationId}</code>
                      </>
                    )}
                    <button
                      type="button"
                      class="outline small"
                      onClick={() => props.go({ at: detail.data!.event.seq })}
                    >
                      move cursor here
                    </button>
                  </header>
                  <p>{detail.data.event.summary}</p>
                  <pre class="payload">{JSON.stringify(detail.data.event.payload, null, 2)}</pre>
                  {detail.data.item && (
                    <>
                      <h6>
                        Who knew {detail.data.item.kind} <code>{detail.data.item.id}</code> by the
                        cursor ({detail.data.knowers.length}){" "}
                        <a
                          href={`#/knows/${encodeURIComponent(`${detail.data.item.kind}:${detail.data.item.id}`)}?at=${at}`}
                        >
                          spread ›
                        </a>
                      </h6>
                      <KnowersTable knowers={detail.data.knowers} at={at} />
                    </>
                  )}
                </>
              )}
            </>
          )}
        </article>
      </div>
    </section>
  );
};
