#!/usr/bin/env node
// The installed `hearsay` command. hearsay's packages are source-first TypeScript, so
// this registers tsx's loader and runs the CLI's entry module.
import { register } from "tsx/esm/api";

register();
await import("../src/main.ts");
