/**
 * Serving the built web page: files under the bundle folder by path (never outside it),
 * `index.html` for any other page path so the page's own routes load, hashed assets
 * cached for good.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { createRequire } from "node:module";
import { dirname, extname, join, normalize, resolve, sep } from "node:path";
import { PageNotBuilt } from "./InspectorError.ts";

/**
 * Where `pnpm run build` writes the page: dist/web in this package's folder, found by
 * the package's name rather than by this module's place, because the `hearsay` command
 * bundles this module into its own files.
 */
export const defaultPageDir = (): string =>
  join(
    dirname(createRequire(import.meta.url).resolve("@hearsay/inspector/package.json")),
    "dist",
    "web",
  );

const types: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json",
  ".woff2": "font/woff2",
};

export class StaticPage {
  private readonly root: string;

  /** @throws PageNotBuilt when `dir` holds no index.html */
  constructor(dir: string) {
    this.root = resolve(dir);
    if (!existsSync(join(this.root, "index.html"))) throw new PageNotBuilt({ dir: this.root });
  }

  /** Answers a GET for the path of these (already percent-decoded) segments. */
  serve(segments: ReadonlyArray<string>, res: ServerResponse): void {
    const wanted = normalize(join(this.root, ...segments));
    const inside = wanted === this.root || wanted.startsWith(this.root + sep);
    const file =
      inside && existsSync(wanted) && statSync(wanted).isFile()
        ? wanted
        : join(this.root, "index.html");
    const isAsset = file.includes(`${sep}assets${sep}`);
    res.writeHead(200, {
      "content-type": types[extname(file)] ?? "application/octet-stream",
      "cache-control": isAsset ? "public, max-age=31536000, immutable" : "no-cache",
      "x-content-type-options": "nosniff",
    });
    res.end(readFileSync(file));
  }
}
