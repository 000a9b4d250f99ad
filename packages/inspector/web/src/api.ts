/**
 * The page's client of the inspector's JSON API: one typed GET per route, with the save
 * and the scrubber's cursor added to every request.
 */
export type * from "../../src/ApiTypes.ts";

type Query = Readonly<Record<string, string | number | undefined | null>>;

/** GETs `/api/<route>` with `query`; throws the server's one-line error. */
export const get = async <T>(route: string, query: Query = {}): Promise<T> => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query))
    if (v !== undefined && v !== null && v !== "") q.set(k, String(v));
  const res = await fetch(`./api/${route}?${q}`);
  const body = (await res.json()) as T & { error?: string };
  if (!res.ok) throw new Error(body.error ?? `${route}: HTTP ${res.status}`);
  return body;
};
