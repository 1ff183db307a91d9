#!/usr/bin/env node
// The command runs the program compiled into lib/ (scripts/compile.mjs, run by `npm ci` and
// carried by the package): plain JavaScript, no TypeScript loader.
await import("../lib/src/cli/main.js");
