#!/usr/bin/env node
// The `presend` CLI. It runs the TypeScript sources through tsx's loader, so a fresh clone needs
// no build step: `npm install`, then `npx presend check 0x...`.
import { tsImport } from "tsx/esm/api";

const { main } = await tsImport("../src/cli/main.ts", import.meta.url);
process.exitCode = await main(process.argv.slice(2));
