// Compiles src/signScan.wat into src/signScanWasm.ts (the bytes, base64), which the
// package loads: run `npx tsx scripts/signScanWasm.ts` (in packages/retrieval) after
// editing the .wat (test/SignCodes.test.ts fails while the two differ).
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import wabtInit from "wabt";

const here = dirname(fileURLToPath(import.meta.url));
const watPath = join(here, "..", "src", "signScan.wat");

/** The .wat compiled, as base64. */
export const compileSignScan = async (): Promise<string> => {
  const wabt = await wabtInit();
  const module = wabt.parseWat("signScan.wat", readFileSync(watPath, "utf8"));
  const { buffer } = module.toBinary({});
  module.destroy();
  return Buffer.from(buffer).toString("base64");
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const base64 = await compileSignScan();
  writeFileSync(
    join(here, "..", "src", "signScanWasm.ts"),
    `/** src/signScan.wat compiled by scripts/signScanWasm.ts (do not edit by hand). */\nexport const SIGN_SCAN_WASM =\n  "${base64}";\n`,
  );
  console.log(`signScanWasm.ts: ${Buffer.from(base64, "base64").length} bytes of wasm`);
}
