#!/usr/bin/env node
// The command runs the program compiled into lib/ (scripts/compile.mjs, run by `npm ci` and
// carried by the package): plain JavaScript, no TypeScript loader.
//
// This file is CommonJS (bin/package.json) and loads the compiled ES modules with require(),
// which Node does since 20.19 and 22.12: about 20 ms sooner than from an ES module entry, whose
// loader resolves each module asynchronously (a tenth of `catalogue --help`). A Node that cannot
// (22.0 to 22.11 without a flag) imports them.
try {
  require("../lib/src/cli/main.js");
} catch (error) {
  if (error?.code !== "ERR_REQUIRE_ESM") throw error;
  import("../lib/src/cli/main.js");
}
