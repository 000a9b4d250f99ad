/**
 * The day scrubber: a slider over the save's game days (the cursor goes to the day's
 * last event) and buttons that step one event or one day at a time. Every view follows.
 */
import { useEffect, useState } from "preact/hooks";
import type { CursorAnswer, Meta } from "./api.ts";
import { get } from "./api.ts";
import { useApi } from "./useApi.ts";

export const Scrubber = (props: {
  readonly meta: Meta;
  readonly at: number;
  readonly onAt: (seq: number) => void;
}) => {
  const { meta, at } = props;
  const here = useApi<CursorAnswer>("cursor", { save: meta.saveId, at });
  const [day, setDay] = useState<number | null>(null);
  useEffect(() => setDay(null), [at]);
  const c = here.data?.cursor;
  const toDay = (d: number) =>
    get<CursorAnswer>("cursor", { save: meta.saveId, day: d }).then((a) =>
      props.onAt(a.cursor.seq),
    );
  const shownDay = day ?? c?.day ?? meta.lastDay;
  return (
    <section class="scrubber" data-testid="scrubber">
      <div class="scrub-row">
        <button
          type="button"
          class="outline"
          title="previous day"
          data-testid="prev-day"
          disabled={!c || c.day <= meta.firstDay}
          onClick={() => c && toDay(c.day - 1)}
        >
          « day
        </button>
        <button
          type="button"
          class="outline"
          title="previous event"
          data-testid="prev-event"
          disabled={!here.data?.prevSeq}
          onClick={() => here.data?.prevSeq && props.onAt(here.data.prevSeq)}
        >
          ◀ event
        </button>
        <input
          type="range"
          aria-label="game day"
          data-testid="day-slider"
          min={meta.firstDay}
          max={meta.lastDay}
          value={shownDay}
          onInput={(e) => setDay(Number(e.currentTarget.value))}
          onChange={(e) => toDay(Number(e.currentTarget.value))}
        />
        <button
          type="button"
          class="outline"
          title="next event"
          data-testid="next-event"
          disabled={!here.data?.nextSeq}
          onClick={() => here.data?.nextSeq && props.onAt(here.data.nextSeq)}
        >
          event ▶
        </button>
        <button
          type="button"
          class="outline"
          title="next day"
          data-testid="next-day"
          disabled={!c || c.day >= meta.lastDay}
          onClick={() => c && toDay(c.day + 1)}
        >
          day »
        </button>
      </div>
      <div class="scrub-label" data-testid="cursor">
        <strong>{c ? c.time : `day ${shownDay}`}</strong> · event {at.toLocaleString()} /{" "}
        {meta.head.toLocaleString()}
        {c && (
          <>
            {" "}
            · <code>{c.type}</code> {c.summary}
          </>
        )}
        {day !== null && day !== c?.day && <em> → day {day}</em>}
      </div>
    </section>
  );
};
