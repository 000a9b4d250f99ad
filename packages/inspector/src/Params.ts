/**
 * Reading an API request's query parameters: integers within bounds, ids, lists — each
 * bad value is a 400 naming the parameter.
 */
import { BadRequest } from "./InspectorError.ts";

export class Params {
  constructor(private readonly q: URLSearchParams) {}

  /** An optional integer in [min, max]. */
  int(name: string, min: number, max: number): number | undefined {
    const raw = this.q.get(name);
    if (raw === null || raw === "") return undefined;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) {
      throw new BadRequest({
        status: 400,
        detail: `${name}: expected an integer in ${min}..${max}, got "${raw}"`,
      });
    }
    return n;
  }

  /** An integer with a default. */
  intOr(name: string, fallback: number, min: number, max: number): number {
    return this.int(name, min, max) ?? fallback;
  }

  /** An optional string. */
  str(name: string): string | undefined {
    const raw = this.q.get(name);
    return raw === null || raw === "" ? undefined : raw;
  }

  /** A required string. */
  need(name: string): string {
    const v = this.str(name);
    if (v === undefined) throw new BadRequest({ status: 400, detail: `${name}: required` });
    return v;
  }

  /** One of `allowed`, or the default. */
  oneOf<const T extends string>(name: string, allowed: ReadonlyArray<T>, fallback: T): T {
    const v = this.str(name);
    if (v === undefined) return fallback;
    if (!allowed.includes(v as T)) {
      throw new BadRequest({
        status: 400,
        detail: `${name}: expected one of ${allowed.join(", ")}, got "${v}"`,
      });
    }
    return v as T;
  }

  /** A comma-separated list. */
  list(name: string): ReadonlyArray<string> {
    return (this.str(name) ?? "").split(",").filter((x) => x !== "");
  }
}
