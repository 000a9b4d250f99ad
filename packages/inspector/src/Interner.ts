/**
 * Strings as small integers, so the in-memory index can keep millions of locations,
 * activities and notes in typed arrays instead of objects.
 */
export class Interner {
  private readonly ids = new Map<string, number>();
  private readonly strings: Array<string> = [];

  /** The id of `s`, assigning the next one the first time. */
  id(s: string): number {
    let id = this.ids.get(s);
    if (id === undefined) {
      id = this.strings.length;
      this.strings.push(s);
      this.ids.set(s, id);
    }
    return id;
  }

  /** The string behind `id`. */
  text(id: number): string {
    return this.strings[id] ?? "";
  }
}
