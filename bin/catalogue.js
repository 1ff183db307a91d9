#!/usr/bin/env node
// The command runs the program compiled into lib/ (scripts/compile.mjs, run by `npm ci` and
// carried by the package): plain JavaScript, no TypeScript loader.
//
// This file is CommonJS (bin/package.json) and loads the compiled ES modules with require(),
// which Node does since 20.19 and 22.12: about 20 ms sooner than from an ES module entry, whose
// loader resolves each module asynchronously (a tenth of `catalogue --help`). A Node that cannot
// (22.0 to 22.11 without a flag) imports them.
//
// The main help is the one answer that needs no module: scripts/compile.mjs writes it into
// lib/help.txt as the compiled program prints it, and it is printed from there (the loading of
// the program's first ES modules is most of the time of `catalogue --help` otherwise).
const args = process.argv.slice(2);
if (args.length === 1 && ["--help", "-h", "help"].includes(args[0])) {
  try {
    process.stdout.write(
      require("node:fs").readFileSync(require("node:path").join(__dirname, "../lib/help.txt")),
    );
    return;
  } catch {
    // No help.txt (a compilation that stopped half-way): the program prints it.
  }
}
try {
  require("../lib/src/cli/main.js");
} catch (error) {
  if (error?.code !== "ERR_REQUIRE_ESM") throw error;
  import("../lib/src/cli/main.js");
}
