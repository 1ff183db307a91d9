// Prints vitest's totals as one plain line ("N passed, N failed, N skipped"), which CI reads,
// then the test files that failed outside any test (an error while loading, a failing hook): the
// totals count tests only, so such a file would otherwise show as "0 failed".
// `npm test` removes the report before its checks, so a run stopped by the format check, the
// linter or tsc has none: then no test ran, which is said instead of an old run's totals.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

const REPORT = "test-results/vitest.json";
if (!existsSync(REPORT)) {
  console.log("no test ran: a check before the tests failed (npm run lint, tsc), see above");
  process.exit(1);
}
const report = JSON.parse(readFileSync(REPORT, "utf8"));
console.log(
  `${report.numPassedTests} passed, ${report.numFailedTests} failed, ${report.numPendingTests + report.numTodoTests} skipped`,
);
const outside = report.testResults.filter(
  (file) =>
    file.status === "failed" && !file.assertionResults.some((test) => test.status === "failed"),
);
if (outside.length > 0) {
  console.log(`${outside.length} test file(s) failed outside their tests:`);
  for (const file of outside)
    console.log(
      `  ${path.relative(process.cwd(), file.name)}: ${String(file.message ?? "").split("\n")[0]}`,
    );
}
process.exitCode = report.success ? 0 : 1;
