import type { Problem } from "../errors.ts";

/** Progress and warnings of a build; the CLI decides how (and whether) to show them. */
export interface Reporter {
  stage(name: string): void;
  warning(problem: Problem): void;
}
