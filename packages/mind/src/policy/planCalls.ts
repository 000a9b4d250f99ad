/**
 * How a batch of calls — a phase of a tick, asked together — spends a model budget: in
 * priority order, highest first, ties in request order. So when the budget runs out
 * within a batch it is the lowest classes that fall back to the scripted brain, never a
 * higher one because it was asked later. `scripted` calls never take the budget;
 * `critical` ones always get the model (they are counted, never refused).
 */
import { type PriorityClass, type Route, rankOf } from "./BrainPolicy.ts";

/** A call's route with the decision: the model, or the scripted brain and why. */
export interface PlannedRoute extends Route {
  readonly model: boolean;
  /** Why the budget refused it the model, or null. */
  readonly refused: string | null;
}

/** Takes one model call from the budget; null when granted, else why not. */
export type GrantCall = (index: number, priority: PriorityClass) => string | null;

/** The order calls spend in: highest class first, then request order. */
export const spendingOrder = (routes: ReadonlyArray<Route>): Array<number> =>
  routes
    .map((_, i) => i)
    .sort((a, b) => rankOf(routes[b]!.priority) - rankOf(routes[a]!.priority) || a - b);

/** Decides model or scripted for each call of a batch, spending in priority order. */
export const planCalls = (
  routes: ReadonlyArray<Route>,
  grant: GrantCall,
): ReadonlyArray<PlannedRoute> => {
  const planned: Array<PlannedRoute> = routes.map((r) => ({ ...r, model: false, refused: null }));
  for (const i of spendingOrder(routes)) {
    const route = routes[i]!;
    if (route.priority === "scripted") continue;
    const refused = grant(i, route.priority);
    planned[i] = { ...route, model: refused === null, refused };
  }
  return planned;
};
