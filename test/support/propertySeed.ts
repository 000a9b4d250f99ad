/**
 * Property tests draw from one fixed seed in the everyday suite, so a commit's `pnpm test`
 * gives the same answer on every machine and in CI; `pnpm test:deep` (HEARSAY_DEEP) draws
 * fresh seeds and many more runs to find new cases. `HEARSAY_FC_SEED=<n>` picks the seed
 * by hand, e.g. to replay one a deep run printed. A property that names its own seed keeps it.
 */
import fc from "fast-check";

const chosen = process.env.HEARSAY_FC_SEED;
const seed =
  chosen !== undefined && chosen !== ""
    ? Number(chosen)
    : process.env.HEARSAY_DEEP
      ? undefined
      : 20_261_126;

if (seed !== undefined) {
  if (!Number.isSafeInteger(seed))
    throw new Error(`HEARSAY_FC_SEED: "${chosen}" is not an integer; give a whole number`);
  fc.configureGlobal({ ...fc.readConfigureGlobal(), seed });
}
