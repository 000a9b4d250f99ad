/**
 * Which NPCs a text names: every NPC whose full name occurs in it (as a substring, the
 * way a listener would notice it). Names are indexed by their first three characters,
 * so finding them costs one lookup per position of the text instead of one scan of the
 * text per NPC — with thousands of NPCs the scan was most of what leaving a scene cost.
 */
import type { NpcId } from "@hearsay/core";

const PREFIX = 3;

export class NameFinder {
  /** First PREFIX characters → the names starting so, each with its NPCs. */
  private readonly byPrefix = new Map<string, Map<string, Array<NpcId>>>();
  /** Names shorter than PREFIX, matched by a plain search. */
  private readonly short = new Map<string, Array<NpcId>>();

  add(id: NpcId, name: string): void {
    const table = name.length < PREFIX ? this.short : this.tableFor(name.slice(0, PREFIX));
    const holders = table.get(name);
    if (holders === undefined) table.set(name, [id]);
    else if (!holders.includes(id)) holders.push(id);
  }

  /** Every NPC whose name occurs in `text`, in no particular order. */
  find(text: string): Set<NpcId> {
    const found = new Set<NpcId>();
    for (const [name, holders] of this.short)
      if (text.includes(name)) for (const id of holders) found.add(id);
    for (let i = 0; i + PREFIX <= text.length; i++) {
      const names = this.byPrefix.get(text.slice(i, i + PREFIX));
      if (names === undefined) continue;
      for (const [name, holders] of names)
        if (text.startsWith(name, i)) for (const id of holders) found.add(id);
    }
    return found;
  }

  private tableFor(prefix: string): Map<string, Array<NpcId>> {
    let table = this.byPrefix.get(prefix);
    if (table === undefined) {
      table = new Map();
      this.byPrefix.set(prefix, table);
    }
    return table;
  }
}
