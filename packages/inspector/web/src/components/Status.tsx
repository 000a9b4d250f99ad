/** What a panel shows while its data loads or when it failed. */
import type { Loaded } from "../useApi.ts";

export const Status = <T,>(props: { readonly loaded: Loaded<T> }) => {
  if (props.loaded.error) return <p class="error">{props.loaded.error}</p>;
  if (props.loaded.loading && props.loaded.data === null) return <p aria-busy="true">loading…</p>;
  return null;
};
