/** Who knew an item: how, when, from whom, how sure. */
import type { Knower } from "../api.ts";
import { viaColour } from "../palette.ts";

export const KnowersTable = (props: {
  readonly knowers: ReadonlyArray<Knower>;
  readonly at: number;
}) => (
  <table class="compact" data-testid="knowers">
    <thead>
      <tr>
        <th>NPC</th>
        <th>how</th>
        <th>from</th>
        <th>confidence</th>
        <th>when</th>
      </tr>
    </thead>
    <tbody>
      {props.knowers.map((k) => (
        <tr key={k.npcId}>
          <td>
            <a href={`#/npc/${encodeURIComponent(k.npcId)}?at=${props.at}`}>{k.name}</a>
          </td>
          <td>
            <span class="via" style={{ background: viaColour[k.via] ?? "#999" }}>
              {k.via}
            </span>
          </td>
          <td>{k.fromNpcId ?? ""}</td>
          <td>{k.confidence.toFixed(2)}</td>
          <td>
            <small>{k.time}</small>
          </td>
        </tr>
      ))}
    </tbody>
  </table>
);
