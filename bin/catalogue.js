#!/usr/bin/env node
// The command runs the program compiled into lib/: plain JavaScript, no TypeScript loader. In
// this repository `npm run compile` writes lib/ (`npm ci` does not); the package carries it,
// compiled by `npm pack`.
//
// This file is CommonJS (bin/package.json) and loads the compiled ES modules with require(),
// which every supported Node does (node-version.js): sooner than from an ES module entry, whose
// loader resolves each module asynchronously. An older Node is refused here in one line, before
// anything else loads, rather than failing later on a missing language or library feature.
//
// The main help is the one answer that needs no module: scripts/compile.mjs writes it into
// lib/help.txt as the compiled program prints it, and it is printed from there (loading the
// program's first ES modules is most of the time of `catalogue --help` otherwise).
const refused = require("./node-version.js").refusal(process.versions.node);
if (refused !== null) {
  process.stderr.write(`${refused}\n`);
  process.exit(1);
}
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
require("../lib/src/cli/main.js");
