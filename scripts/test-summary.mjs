// Prints vitest's totals as one plain line ("N passed, N failed, N skipped"), which CI reads.
import { readFileSync } from "node:fs";

const report = JSON.parse(readFileSync("test-results/vitest.json", "utf8"));
console.log(`${report.numPassedTests} passed, ${report.numFailedTests} failed, ${report.numPendingTests + report.numTodoTests} skipped`);
process.exitCode = report.success ? 0 : 1;
