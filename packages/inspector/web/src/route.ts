/**
 * The page's address: `#/<view>/<arg>?save=…&at=…`, so every view at every cursor has a
 * link that can be shared or reloaded.
 */
import { useEffect, useState } from "preact/hooks";

export interface Route {
  readonly view: string;
  readonly arg: string | null;
  readonly at: number | null;
  readonly save: string | null;
}

export const parseRoute = (hash: string): Route => {
  const [path = "", query = ""] = hash.replace(/^#\/?/, "").split("?");
  const [view = "timeline", ...rest] = path.split("/").map(decodeURIComponent);
  const q = new URLSearchParams(query);
  const at = q.get("at");
  return {
    view: view || "timeline",
    arg: rest.length ? rest.join("/") : null,
    at: at === null ? null : Number(at),
    save: q.get("save"),
  };
};

export const href = (r: Route): string => {
  const q = new URLSearchParams();
  if (r.save) q.set("save", r.save);
  if (r.at !== null) q.set("at", String(r.at));
  return `#/${encodeURIComponent(r.view)}${r.arg ? `/${encodeURIComponent(r.arg)}` : ""}?${q}`;
};

/** The current route, following the address bar. */
export const useRoute = (): [Route, (r: Partial<Route>) => void] => {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const on = () => setRoute(parseRoute(location.hash));
    addEventListener("hashchange", on);
    return () => removeEventListener("hashchange", on);
  }, []);
  const go = (r: Partial<Route>) => {
    location.hash = href({ ...parseRoute(location.hash), ...r });
  };
  return [route, go];
};
