/**
 * Builds the inspector's web page (Preact, Pico CSS, Chart.js, Cytoscape) into
 * packages/inspector/dist/web, which `startInspector` serves. Offline: everything comes
 * from the workspace's lock file.
 */
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "./",
  logLevel: "warn",
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: {
    outDir: fileURLToPath(new URL("../dist/web", import.meta.url)),
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
  },
});
