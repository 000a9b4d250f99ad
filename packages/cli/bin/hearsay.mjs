#!/usr/bin/env node
// The installed `hearsay` command: runs the CLI's built JavaScript (`pnpm run build`
// writes it in a checkout; a published package ships it).
await import("../dist/main.js");
