/**
 * Which test files run in which vitest project (vitest.config.ts). Every file under test/ that
 * ends in .test.ts is named in exactly one list; test/projects.test.ts fails otherwise, so a new
 * test file has to be placed on purpose.
 *
 * unit: the code in this process, on small generated catalogues: no server, browser, S3,
 * nginx or Caddy, no compiled lib/ (nothing spawns bin/catalogue.js) and no large build.
 * `npm run test:unit` is what to run while editing.
 *
 * e2e: everything else. Its global setup compiles lib/, which the command the tests start runs.
 */

export const UNIT = [
  "test/api/pages.test.ts",
  "test/api/serialize.test.ts",
  "test/architecture/layers.test.ts",
  "test/cli/idle.test.ts",
  "test/cli/init.test.ts",
  "test/content/csv.test.ts",
  "test/content/encoding.test.ts",
  "test/content/images.test.ts",
  "test/content/schema.test.ts",
  "test/content/validation.test.ts",
  "test/dev/watch.test.ts",
  "test/docs.test.ts",
  "test/docs/links.test.ts",
  "test/exports/columns.test.ts",
  "test/exports/keys.test.ts",
  "test/exports/rows.test.ts",
  "test/exports/write.test.ts",
  "test/exports/xlsx.test.ts",
  "test/exports/zip-writer.test.ts",
  "test/media/images.test.ts",
  "test/model/listing.test.ts",
  "test/model/order.test.ts",
  "test/output/batch.test.ts",
  "test/output/entries.test.ts",
  "test/output/manifest.test.ts",
  "test/output/packed-batch.test.ts",
  "test/output/tree.test.ts",
  "test/projects.test.ts",
  "test/publish/build-info.test.ts",
  "test/publish/cli.test.ts",
  "test/publish/digests.test.ts",
  "test/publish/directory.test.ts",
  "test/publish/offline.test.ts",
  "test/publish/plan.test.ts",
  "test/publish/record-cache.test.ts",
  "test/publish/scope.test.ts",
  "test/serve/routes.test.ts",
  "test/i18n/locale.test.ts",
  "test/i18n/texts-keys.test.ts",
  "test/i18n/texts.test.ts",
  "test/look/look.test.ts",
  "test/site/eleventy.test.ts",
  "test/site/empty.test.ts",
  "test/site/page-meta.test.ts",
  "test/site/render.test.ts",
  "test/site/search.test.ts",
  "test/site/seo.test.ts",
  "test/site/text.test.ts",
  "test/support/requires.test.ts",
  "test/util/memory.test.ts",
];

export const E2E = [
  // The command as a user runs it (bin/catalogue.js on lib/), or lib/ itself.
  "test/cli/build.test.ts",
  "test/cli/startup.test.ts",
  "test/edge/netlify.test.ts",
  "test/build/fingerprint.test.ts",
  "test/program.test.ts",
  "test/reliability/crash.test.ts",
  "test/reliability/fuzz-content.test.ts",
  "test/reliability/hostile-content.test.ts",
  "test/reliability/write-errors.test.ts",
  "test/workers/script.test.ts",
  // Large builds: several builds of hundreds of works with their images, or of whole sites.
  "test/build/domain-inputs.test.ts",
  "test/site/incremental.test.ts",
  // Site builds in several languages (Eleventy and Pagefind for each).
  "test/i18n/multilingual.test.ts",
  "test/i18n/not-found.test.ts",
  "test/i18n/pages.test.ts",
  // Servers: catalogue serve, nginx, Caddy, the edge function, workerd.
  "test/edge/cloudflare.test.ts",
  "test/edge/worker.test.ts",
  "test/publish/archive.test.ts",
  "test/reliability/hostile-requests.test.ts",
  "test/serve/conformance.test.ts",
  "test/serve/server.test.ts",
  // S3 (s3rver).
  "test/publish/changes.test.ts",
  "test/publish/deploy.test.ts",
  "test/publish/faults.test.ts",
  "test/publish/lease.test.ts",
  "test/publish/network.test.ts",
  "test/publish/prune.test.ts",
  "test/publish/records.test.ts",
  "test/publish/s3-sdk-uploads.test.ts",
  "test/publish/s3.test.ts",
  "test/publish/s3-region-clock.test.ts",
  "test/util/code-version.test.ts",
  "test/cli/librarian.test.ts",
  "test/dev/preview.test.ts",
  "test/publish/targets.test.ts",
  // Chromium.
  "test/dev/dev.test.ts",
  "test/publish/offline-browser.test.ts",
  "test/reliability/xss.test.ts",
  "test/site/browser.test.ts",
  "test/i18n/browser.test.ts",
  "test/site/lighthouse.test.ts",
];
