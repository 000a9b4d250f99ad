/**
 * Runs async jobs at most `limit` at a time and hands back each job's promise at once,
 * so a suite can start its child processes together in `beforeAll` and let each test
 * await its own. (Two cores: a handful of `hearsay` processes at once is the most that
 * helps.)
 */
export const runPool = <A>(
  jobs: ReadonlyArray<() => Promise<A>>,
  limit: number,
): ReadonlyArray<Promise<A>> => {
  let next = 0;
  const settled = jobs.map(() => {
    let resolve!: (a: A) => void;
    let reject!: (e: unknown) => void;
    const promise = new Promise<A>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise, resolve, reject };
  });
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      const i = next++;
      try {
        settled[i]!.resolve(await jobs[i]!());
      } catch (e) {
        settled[i]!.reject(e);
      }
    }
  };
  for (let w = 0; w < Math.min(limit, jobs.length); w++) void worker();
  // Keep an unawaited rejection from being reported before its test awaits it.
  for (const s of settled) s.promise.catch(() => {});
  return settled.map((s) => s.promise);
};
