/**
 * Strings to small integers and back (NPC ids, locations, factions, entity names), so
 * the in-memory read model stores numbers in arrays instead of repeated strings.
 */
export class Interner {
  private readonly index = new Map<string, number>();
  private readonly values: Array<string> = [];

  /** The number for `s`, assigning the next one if it is new. */
  intern(s: string): number {
    let i = this.index.get(s);
    if (i === undefined) {
      i = this.values.length;
      this.values.push(s);
      this.index.set(s, i);
    }
    return i;
  }

  /** The number for `s`, or -1 when it was never interned. */
  find(s: string): number {
    return this.index.get(s) ?? -1;
  }

  /** The string for a number. */
  value(i: number): string {
    return this.values[i]!;
  }

  /** Every string, by number. */
  list(): ReadonlyArray<string> {
    return this.values;
  }

  get size(): number {
    return this.values.length;
  }
}
