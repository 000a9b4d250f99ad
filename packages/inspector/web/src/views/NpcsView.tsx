/** NPCs: the list at the cursor (where each is, what it does), and one NPC's page. */
import { useState } from "preact/hooks";
import type { ViewProps } from "../App.tsx";
import type { NpcRow, Page } from "../api.ts";
import { Pager } from "../components/Pager.tsx";
import { Status } from "../components/Status.tsx";
import { useApi } from "../useApi.ts";
import { NpcPageView } from "./NpcPageView.tsx";

export const NpcsView = (props: ViewProps) => {
  const { save, at } = props;
  const [q, setQ] = useState("");
  const [offset, setOffset] = useState(0);
  const list = useApi<Page<NpcRow>>(props.arg ? null : "npcs", { save, at, q, offset, limit: 50 });
  if (props.arg) return <NpcPageView {...props} npcId={props.arg} />;
  return (
    <section data-testid="view-npcs">
      <input
        type="search"
        placeholder="name, role, id or place…"
        value={q}
        onInput={(e) => {
          setQ(e.currentTarget.value);
          setOffset(0);
        }}
      />
      <Status loaded={list} />
      <table class="compact" data-testid="npc-list">
        <thead>
          <tr>
            <th>name</th>
            <th>role</th>
            <th>faction</th>
            <th>where</th>
            <th>doing</th>
          </tr>
        </thead>
        <tbody>
          {list.data?.rows.map((n) => (
            <tr key={n.npcId}>
              <td>
                <a href={`#/npc/${encodeURIComponent(n.npcId)}?at=${at}`} data-testid="npc-link">
                  {n.name}
                </a>
              </td>
              <td>{n.role}</td>
              <td>{n.factionId ?? ""}</td>
              <td>
                <code>{n.locationId}</code>
              </td>
              <td>{n.activity}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {list.data && <Pager {...list.data} onOffset={setOffset} />}
    </section>
  );
};
