import { isRealDate } from "../content/schema.ts";
import { UserError } from "../errors.ts";

const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of a YYYY-MM-DD date, so that windows are whole-day arithmetic. */
export function dayNumber(date: string): number {
  return Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / DAY_MS;
}

export function dateOfDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** The build date T: `--date`, else SOURCE_DATE_EPOCH (reproducible builds), else today in UTC. */
export function resolveBuildDate(option: string | undefined, env: NodeJS.ProcessEnv = process.env, now = new Date()): string {
  if (option !== undefined) {
    if (!isRealDate(option)) throw new UserError(`--date: expected a date YYYY-MM-DD, got ${JSON.stringify(option)}`);
    return option;
  }
  const epoch = env.SOURCE_DATE_EPOCH;
  if (epoch !== undefined && epoch !== "") {
    if (!/^\d{1,12}$/.test(epoch)) throw new UserError(`SOURCE_DATE_EPOCH: expected seconds since 1970, got ${JSON.stringify(epoch)}`);
    return new Date(Number(epoch) * 1000).toISOString().slice(0, 10);
  }
  return now.toISOString().slice(0, 10);
}
