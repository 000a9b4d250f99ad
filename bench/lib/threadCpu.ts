/**
 * This process's CPU time split by thread: the main thread (where the engine, the store
 * and retrieval run) against every other (V8's optimizing compiler and its parallel GC
 * helpers, libuv's pool). `process.cpuUsage` counts all of them, so a part timed with it
 * also holds whatever the other threads did meanwhile. Read from /proc (Linux); null
 * elsewhere.
 */
import { readdirSync, readFileSync } from "node:fs";

/** CPU seconds so far: the main thread's and the other threads' together. */
export interface ThreadCpu {
  readonly main: number;
  readonly others: number;
}

/** The kernel's clock ticks per second (`getconf CLK_TCK`, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** user + system time of one thread, seconds (fields 14 and 15 of its stat). */
export const threadSeconds = (tid: string): number => {
  const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
  // The command name may hold spaces: fields are counted after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
};

export const threadCpu = (): ThreadCpu | null => {
  try {
    let main = 0;
    let others = 0;
    for (const tid of readdirSync("/proc/self/task")) {
      // A thread may end between listing and reading it: it is left out.
      let s = 0;
      try {
        s = threadSeconds(tid);
      } catch {
        continue;
      }
      if (tid === String(process.pid)) main += s;
      else others += s;
    }
    return { main, others };
  } catch {
    return null;
  }
};

/**
 * Seconds the main thread has spent runnable but waiting for a core (the second field of
 * its schedstat): wall time the run lost to other threads and programs, not to its own
 * work. Null where the kernel does not keep it.
 */
export const mainRunQueueSeconds = (): number | null => {
  try {
    const fields = readFileSync(`/proc/self/task/${process.pid}/schedstat`, "utf8").split(" ");
    const ns = Number(fields[1]);
    return Number.isFinite(ns) ? ns / 1e9 : null;
  } catch {
    return null;
  }
};
