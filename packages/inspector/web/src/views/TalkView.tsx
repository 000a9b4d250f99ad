/** Debates up to the cursor and the cursor day's conversations: who took part, the outcome, what each took away. */
import { useState } from "preact/hooks";
import type { ViewProps } from "../App.tsx";
import type { ConversationRow, DebateRow, Page } from "../api.ts";
import { Pager } from "../components/Pager.tsx";
import { Status } from "../components/Status.tsx";
import { useApi } from "../useApi.ts";

const Takeaways = (props: { readonly rows: ReadonlyArray<{ npcId: string; text: string }> }) =>
  props.rows.length === 0 ? null : (
    <details>
      <summary>
        <small>what each took away ({props.rows.length})</small>
      </summary>
      <ul>
        {props.rows.map((r, i) => (
          <li key={i}>
            <code>{r.npcId}</code>: <small>{r.text}</small>
          </li>
        ))}
      </ul>
    </details>
  );

export const TalkView = (props: ViewProps) => {
  const { save, at } = props;
  const [dOffset, setDOffset] = useState(0);
  const [cOffset, setCOffset] = useState(0);
  const debates = useApi<Page<DebateRow>>("debates", { save, at, offset: dOffset, limit: 10 });
  const talks = useApi<Page<ConversationRow>>("conversations", {
    save,
    at,
    offset: cOffset,
    limit: 10,
  });
  const who = (ps: ReadonlyArray<{ npcId: string; name: string }>) =>
    ps.map((p, i) => (
      <span key={p.npcId}>
        {i > 0 && ", "}
        <a href={`#/npc/${encodeURIComponent(p.npcId)}?at=${at}`}>{p.name}</a>
      </span>
    ));
  return (
    <section class="grid two" data-testid="view-talk">
      <div>
        <h5>Debates so far</h5>
        <Status loaded={debates} />
        {debates.data?.rows.map((d) => (
          <article key={d.debateId} data-testid="debate">
            <header>
              <strong>{d.topic}</strong> · <small>{d.time}</small>
            </header>
            <p>
              <small>{who(d.participants)}</small>
            </p>
            <p>{d.summary}</p>
            <p>
              <strong>Outcome:</strong> {d.outcome}
            </p>
            <Takeaways rows={d.takeaways} />
          </article>
        ))}
        {debates.data && <Pager {...debates.data} onOffset={setDOffset} />}
      </div>
      <div>
        <h5>Conversations on the cursor's day</h5>
        <Status loaded={talks} />
        {talks.data?.rows.length === 0 && <p>None that day.</p>}
        {talks.data?.rows.map((c) => (
          <article key={c.conversationId} data-testid="conversation">
            <header>
              <small>
                {c.time} · <code>{c.locationId ?? ""}</code> · {who(c.participants)}
              </small>
            </header>
            {c.turns.map((t, i) => (
              <p key={i} class="turn">
                <strong>
                  {c.participants.find((p) => p.npcId === t.speakerId)?.name ?? t.speakerId}:
                </strong>{" "}
                {t.text}
              </p>
            ))}
            <Takeaways rows={c.takeaways} />
          </article>
        ))}
        {talks.data && <Pager {...talks.data} onOffset={setCOffset} />}
      </div>
    </section>
  );
};
