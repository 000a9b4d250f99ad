/** A hook that fetches an API route whenever its query changes, with loading and error. */
import { useEffect, useState } from "preact/hooks";
import { get } from "./api.ts";

export interface Loaded<T> {
  readonly data: T | null;
  readonly error: string | null;
  readonly loading: boolean;
}

export const useApi = <T>(
  route: string | null,
  query: Record<string, string | number | undefined | null>,
): Loaded<T> => {
  const [state, setState] = useState<Loaded<T>>({ data: null, error: null, loading: true });
  const key = JSON.stringify([route, query]);
  useEffect(() => {
    if (route === null) return;
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    get<T>(route, query).then(
      (data) => live && setState({ data, error: null, loading: false }),
      (e: unknown) =>
        live &&
        setState({ data: null, error: e instanceof Error ? e.message : String(e), loading: false }),
    );
    return () => {
      live = false;
    };
  }, [key]);
  return state;
};
