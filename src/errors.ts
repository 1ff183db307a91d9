/**
 * Errors the user can act on (bad input, bad flags, an unreachable target) are `UserError`s: the
 * CLI prints their message without a stack trace and exits 1. Anything else is a bug: exit 2
 * with the chain of causes.
 */
export class UserError extends Error {
  override name = "UserError";
}

/** One problem found in the input, located as `FILE:LINE: column: message`. */
export interface Problem {
  file: string;
  line?: number;
  column?: string;
  message: string;
  /**
   * What the program does instead when the problem is only a warning ("ignored", "a cover drawn
   * from its row stands in"): printed with the warning, left out when `--strict` makes it an
   * error, since nothing is written then.
   */
  otherwise?: string;
}

export function formatProblem(problem: Problem): string {
  const where = problem.line === undefined ? problem.file : `${problem.file}:${problem.line}`;
  return problem.column === undefined
    ? `${where}: ${problem.message}`
    : `${where}: ${problem.column}: ${problem.message}`;
}

/** Sorts problems by file, then line, so every run prints them in the same order. */
export function sortProblems(problems: Problem[]): Problem[] {
  return [...problems].sort(
    (a, b) =>
      (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
      (a.line ?? 0) - (b.line ?? 0) ||
      (a.column ?? "").localeCompare(b.column ?? ""),
  );
}

/** Every problem of the input at once: the build stops before it touches the output. */
export class InputError extends UserError {
  override name = "InputError";
  readonly problems: Problem[];

  constructor(problems: Problem[]) {
    const sorted = sortProblems(problems);
    super(sorted.map(formatProblem).join("\n"));
    this.problems = sorted;
  }
}

/**
 * A warning as the command prints it: located like a problem, `FILE:LINE:`, then `warning:` where a
 * compiler puts it, so editors that jump to `FILE:LINE` still do and no one reads it as an error.
 */
export function formatWarning(problem: Problem): string {
  const where = problem.line === undefined ? problem.file : `${problem.file}:${problem.line}`;
  const otherwise = problem.otherwise === undefined ? "" : `; ${problem.otherwise}`;
  return `${where}: warning: ${problem.column === undefined ? "" : `${problem.column}: `}${problem.message}${otherwise}`;
}
