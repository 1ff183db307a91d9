#!/usr/bin/env node
/**
 * The package as a user gets it (.ci/run runs this after the tests): `npm pack`, an install of the
 * tarball into an empty temporary folder (dependencies from the registry), then there `catalogue
 * init`, `catalogue build`, a request against `catalogue serve`, and the browser test of `catalogue
 * dev` (test/dev/dev.e2e.test.ts) run against the installed command. Fails when the install holds
 * TypeScript or tsx, when anything is written inside the installed package, when the tarball lacks
 * the LICENSE or a doc the README links to, when npm warns about the package's scripts at install,
 * or when init prints commands that do not run in the project or writes no .gitignore.
 *
 *   node scripts/check-package.mjs [--keep]
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const work = mkdtempSync(path.join(tmpdir(), "catalogue-package-"));
const project = path.join(work, "project");
const say = (line) => console.error(`check-package: ${line}`);
const run = (file, args, cwd) =>
  execFileSync(file, args, { cwd, stdio: ["ignore", "pipe", "inherit"], encoding: "utf8" });

/** Runs a command that must succeed; returns its stdout and stderr together. */
function both(file, args, cwd) {
  const result = spawnSync(file, args, { cwd, encoding: "utf8" });
  if (result.status !== 0)
    throw new Error(
      `check-package: ${file} ${args.join(" ")} exited with ${result.status}:\n${result.stdout}${result.stderr}`,
    );
  return result.stdout + result.stderr;
}

/** GET with a Host header of its own. */
function get(url, host) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { Host: host } }, (res) => {
        let body = "";
        res.setEncoding("utf8").on("data", (chunk) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode, body }));
      })
      .on("error", reject);
  });
}

function check(ok, message) {
  if (!ok) throw new Error(`check-package: ${message}`);
}

/** Every file under `dir` with its size and mtime. */
function snapshot(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => {
      const file = path.join(e.parentPath, e.name);
      const info = statSync(file);
      return `${path.relative(dir, file)} ${info.size} ${info.mtimeMs}`;
    })
    .sort()
    .join("\n");
}

/**
 * The library's own look from the installed package (docs/site.md, "Your own look"): init's
 * example site/ shows; then a logo, the Liquid header, a stylesheet, a Markdown page and a text
 * override show on every page kind; a broken template stops the build with its FILE:LINE and
 * leaves the output as it was.
 */
function checkOwnLook(bin) {
  const north = path.join(project, "dist/biblioteques-llevant.example");
  const read = (rel) => readFileSync(path.join(north, rel), "utf8");
  check(
    read("about/index.html").includes("<h1>Sobre la xarxa</h1>") &&
      read("es/about/index.html").includes("<h1>Sobre la red</h1>"),
    "init's example page is not at /about/ in Catalan and /es/about/ in Spanish",
  );
  check(
    read("index.html").includes('href="assets/site.css"') &&
      statSync(path.join(north, "assets/site.css")).isFile(),
    "init's site.css is not linked or copied",
  );
  check(
    read("index.html").includes('<a href="about/">Sobre la xarxa</a>'),
    "init's example page is not in the navigation",
  );
  // A logo, the example header (renamed to use it), a text override.
  const domains = path.join(project, "content/domains.csv");
  const csv = readFileSync(domains, "utf8").split("\n");
  csv[0] += ",logo,theme_color";
  csv[1] += ",covers/nosferatu.jpg,#1d4f73";
  writeFileSync(
    domains,
    csv
      .join("\n")
      .replace(/\n*$/, "\n")
      .replace(/^(library-south[^\n]*)$/m, "$1,,"),
  );
  renameSync(
    path.join(project, "site/_includes/header.liquid.example"),
    path.join(project, "site/_includes/header.liquid"),
  );
  writeFileSync(
    path.join(project, "site/i18n/ca.json"),
    '{ "skip": "Salta directament al contingut" }\n',
  );
  renameSync(
    path.join(project, "site/content-security.json.example"),
    path.join(project, "site/content-security.json"),
  );
  run(bin, ["build"], project);
  const info = JSON.parse(readFileSync(path.join(project, "dist/_catalogue/build.json"), "utf8"));
  check(
    info.domains.every(
      (d) => d.content_security?.["frame-src"]?.[0] === "https://www.youtube-nocookie.com",
    ),
    "init's content-security.json did not reach build.json",
  );
  const pages = [
    "index.html",
    "ordering/-year/index.html",
    "audiovisual-detail/5/nosferatu/index.html",
    "director/f-w-murnau/index.html",
    "category/peliculas/index.html",
    "404.html",
    "about/index.html",
  ].filter((rel) => existsSync(path.join(north, rel)));
  check(pages.length >= 7, `page kinds missing: ${pages.join(", ")}`);
  for (const rel of pages) {
    const page = read(rel);
    check(
      /<a class="brand" href="[^"]*"><img src="[^"]+" alt="Xarxa de Biblioteques de Llevant"/.test(
        page,
      ),
      `${rel}: the Liquid header does not show the logo`,
    );
    check(
      page.includes("Salta directament al contingut"),
      `${rel}: the text override is not shown`,
    );
    check(
      page.includes("assets/site.css") &&
        page.includes('<meta name="theme-color" content="#1d4f73">'),
      `${rel}: no site.css or theme colour`,
    );
    check(
      /<a href="[^"]*about\/"[^>]*>Sobre la xarxa<\/a>/.test(page),
      `${rel}: the own page is not in the navigation`,
    );
  }
  // A broken template: FILE:LINE, exit 1, the output kept.
  const header = path.join(project, "site/_includes/header.liquid");
  const good = readFileSync(header, "utf8");
  writeFileSync(header, `${good}\n{% if site.logo %}\n`);
  const before = snapshot(path.join(project, "dist"));
  const broken = spawnSync(bin, ["build"], { cwd: project, encoding: "utf8" });
  check(
    broken.status === 1 && /site\/_includes\/header\.liquid:\d+: /.test(broken.stderr),
    `a broken template: exit ${broken.status}, ${broken.stderr}`,
  );
  check(snapshot(path.join(project, "dist")) === before, "a broken template changed the output");
  writeFileSync(header, good);
  say(
    "the example site/, a logo, a Liquid header, a stylesheet, a page, a text and the policy setting showed on every page kind; a broken template named its line",
  );
}

try {
  const packed = JSON.parse(run("npm", ["pack", "--json", "--pack-destination", work], ROOT))[0];
  const tarball = path.join(work, packed.filename);
  const names = packed.files.map((f) => f.path);
  say(`${packed.filename}: ${names.length} files, ${(packed.size / 1024).toFixed(0)} kB`);
  check(
    names.includes("lib/src/cli/main.js") &&
      names.includes("lib/.eleventy.js") &&
      names.includes("lib/src/output/writer-thread.js"),
    "the tarball lacks the compiled program",
  );
  check(
    !names.some(
      (n) =>
        n.endsWith(".ts") ||
        n.startsWith("src/") ||
        n.startsWith("test/") ||
        n.includes("tsbuildinfo"),
    ),
    `the tarball carries sources: ${names.filter((n) => n.endsWith(".ts")).join(", ")}`,
  );
  check(names.includes("LICENSE"), "the tarball has no LICENSE");
  // The README's links to docs/ lead somewhere in the installed package.
  const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
  const linked = [...new Set([...readme.matchAll(/\]\((docs\/[^)#\s]+)/g)].map((m) => m[1]))];
  const dead = linked.filter((doc) => !names.includes(doc));
  check(dead.length === 0, `the README links to files the tarball lacks: ${dead.join(", ")}`);
  const manifest = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8"));
  // npm warns at install about lifecycle scripts of a dependency (prepare included, which it would not even run).
  const installScripts = ["preinstall", "install", "postinstall", "prepare"].filter(
    (name) => manifest.scripts?.[name] !== undefined,
  );
  check(
    installScripts.length === 0,
    `package.json has install-time scripts, which npm warns about when installing the package: ${installScripts.join(", ")}`,
  );

  execFileSync("mkdir", ["-p", project]);
  const install = both("npm", ["install", "--no-audit", "--no-fund", tarball], project);
  // (Its dependencies' own install scripts, sharp's, are theirs to answer for.)
  check(
    !install.includes(`${packed.name}@`),
    `installing the package warned about its scripts:\n${install}`,
  );
  const installed = path.join(project, "node_modules", packed.name);
  check(
    !statSync(path.join(project, "node_modules/tsx"), { throwIfNoEntry: false }),
    "tsx was installed: the package must run without a TypeScript loader",
  );
  // Read-only, as a system-wide install is (root ignores the modes: the snapshot below checks it too).
  execFileSync("chmod", ["-R", "a-w", installed]);
  const before = snapshot(installed);
  const bin = path.join(project, "node_modules/.bin/catalogue");

  say(run(bin, ["--version"], project).trim());
  const init = both(bin, ["init"], project);
  check(
    init.includes("npx catalogue build"),
    `init does not print the commands as they run in the project (npx catalogue …):\n${init}`,
  );
  const ignore = readFileSync(path.join(project, ".gitignore"), "utf8");
  for (const entry of ["/dist/", "/.dist.versions/", "/.cache/"])
    check(
      ignore.split("\n").includes(entry),
      `init's .gitignore lacks ${entry}: ${JSON.stringify(ignore)}`,
    );
  run(bin, ["build"], project);
  check(
    statSync(path.join(project, "dist/_catalogue/build.json")).isFile(),
    "no build in the project's dist/",
  );
  check(
    statSync(path.join(project, ".cache/catalogue")).isDirectory(),
    "the image cache is not in the project's .cache/",
  );
  checkOwnLook(bin);

  const serve = spawn(bin, ["serve", "--port", "0"], {
    cwd: project,
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    const url = await new Promise((resolve, reject) => {
      let out = "";
      serve.stdout.on("data", (chunk) => {
        out += chunk;
        const found = /on (http:\/\/\S+) /.exec(out);
        if (found) resolve(found[1]);
      });
      serve.once("exit", (code) => reject(new Error(`serve exited with ${code}`)));
    });
    // The second domain (fetch cannot set Host): its shorter list, newest first.
    const api = await get(
      new URL("api/v1/videos/audiovisuals/?ordering=-year", url),
      "library-south.example",
    );
    const body = JSON.parse(api.body);
    check(
      api.status === 200 &&
        body.count === 2 &&
        body.results[0].name === "El maquinista de La General",
      `the API answered ${api.status} ${api.body.slice(0, 200)}`,
    );
    const home = await fetch(url);
    check(
      home.status === 200 && (await home.text()).includes("Nosferatu"),
      "the HTML catalogue's first page lacks the starter's works",
    );
    const policy = home.headers.get("content-security-policy") ?? "";
    check(
      policy.includes("; frame-src https://www.youtube-nocookie.com") &&
        policy.includes("script-src 'self' https://stats.example.org"),
      `serve's policy lacks the library's sources: ${policy}`,
    );
    say(`serve answered the API and the HTML catalogue on ${url}`);
  } finally {
    serve.kill("SIGINT");
  }

  // The browser test of dev, on the installed command.
  execFileSync(path.join(ROOT, "node_modules/.bin/vitest"), ["run", "test/dev/dev.e2e.test.ts"], {
    cwd: ROOT,
    stdio: "inherit",
    env: { ...process.env, CATALOGUE_BIN: path.join(installed, "bin/catalogue.js") },
  });

  check(snapshot(installed) === before, "something was written inside the installed package");
  say("the installed package initialised, built, served and ran dev without writing inside itself");
} finally {
  if (!process.argv.includes("--keep")) {
    try {
      execFileSync("chmod", ["-R", "u+w", work]);
    } catch {
      // Nothing to make writable: rmSync below says what is wrong, if anything.
    }
    rmSync(work, { recursive: true, force: true });
  } else say(`kept ${work}`);
}
