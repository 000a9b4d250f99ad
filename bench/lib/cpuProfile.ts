/**
 * What the bench's profiling scripts share: a V8 CPU profile recorded through
 * `node:inspector` (so set-up before it, such as loading a million-row view, is not in
 * it), GC counts by kind, and the profile read as self time per function and inclusive
 * time per named frame.
 */
import { Session } from "node:inspector";
import { type GcTally, startGcTally } from "./gcTally.ts";

export interface ProfileNode {
  readonly id: number;
  readonly callFrame: {
    readonly functionName: string;
    readonly url: string;
    readonly lineNumber: number;
    readonly columnNumber: number;
  };
  readonly hitCount?: number;
  readonly children?: ReadonlyArray<number>;
}

const post = <T>(s: Session, method: string, params?: object) =>
  new Promise<T>((res, rej) => {
    s.post(method, params ?? {}, (err, r) => (err ? rej(err) : res(r as T)));
  });

/** Starts a CPU profile (100 µs sampling) and a GC profile; `stop` ends both. */
export const startProfiling = async (): Promise<{
  stop(): Promise<{
    /** The whole profile, as a `.cpuprofile` file holds it. */
    readonly profile: { readonly nodes: ReadonlyArray<ProfileNode> };
    readonly nodes: ReadonlyArray<ProfileNode>;
    readonly gcs: GcTally;
  }>;
}> => {
  const session = new Session();
  session.connect();
  await post(session, "Profiler.enable");
  await post(session, "Profiler.setSamplingInterval", { interval: 100 });
  await post(session, "Profiler.start");
  const gc = startGcTally();
  return {
    stop: async () => {
      const gcs = gc.stop();
      const { profile } = await post<{ profile: { nodes: Array<ProfileNode> } }>(
        session,
        "Profiler.stop",
      );
      session.disconnect();
      return { profile, nodes: profile.nodes, gcs };
    },
  };
};

export const printGcs = (gcs: GcTally): void => {
  for (const [kind, g] of gcs)
    console.log(`gc ${kind}: ${g.count}×, ${g.ms.toFixed(1)} ms, longest ${g.max.toFixed(1)} ms`);
};

/**
 * Self time per function (its name, file and line — and column, since tsx emits a module
 * on one line and the column tells functions apart), highest first, and the samples in all.
 */
export const selfTimes = (
  nodes: ReadonlyArray<ProfileNode>,
): { readonly rows: Array<[string, number]>; readonly total: number } => {
  const self = new Map<string, number>();
  let total = 0;
  for (const node of nodes) {
    const f = node.callFrame;
    const file = f.url.split("/").slice(-1)[0] ?? "";
    const key = `${f.functionName || "(anon)"} ${file}:${f.lineNumber + 1}:${f.columnNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (node.hitCount ?? 0));
    total += node.hitCount ?? 0;
  }
  return { rows: [...self.entries()].sort((a, b) => b[1] - a[1]), total };
};

/** Samples under each named frame, a sample counted once however often a name recurs. */
export const inclusiveTimes = (nodes: ReadonlyArray<ProfileNode>): Map<string, number> => {
  const byId = new Map(nodes.map((x) => [x.id, x]));
  const inclusive = new Map<string, number>();
  const walk = (node: ProfileNode, stack: ReadonlyArray<string>) => {
    const name = node.callFrame.functionName;
    const next = name ? [...stack, name] : stack;
    const h = node.hitCount ?? 0;
    if (h > 0) for (const nm of new Set(next)) inclusive.set(nm, (inclusive.get(nm) ?? 0) + h);
    for (const c of node.children ?? []) walk(byId.get(c)!, next);
  };
  if (nodes[0] !== undefined) walk(nodes[0], []);
  return inclusive;
};

/** One line of a share: `  12.3%  name`. */
export const shareLine = (v: number, total: number, name: string): string =>
  `${((100 * v) / total).toFixed(1).padStart(5)}%  ${name}`;
