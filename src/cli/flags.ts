import { statSync } from "node:fs";
import { UserError } from "../errors.ts";
import { resolveBuildDate } from "../util/dates.ts";

/**
 * The flags that name something, checked before the content is read (and, with --strict, before
 * its warnings), so that a mistyped flag is the first and only thing said: `--date`, `--site`
 * (a folder), and `--domain` against domains.csv's hosts. The build checks them again where it
 * uses them.
 */
export async function checkFlags(values: {
  content: string;
  date?: string;
  site?: string;
  "no-site"?: boolean;
  domain?: string[];
}): Promise<void> {
  if (values.date !== undefined) resolveBuildDate(values.date);
  const { site, domain: domains } = values;
  if (site !== undefined && values["no-site"] !== true && !isFolder(site))
    throw new UserError(
      `--site: ${site} is not a folder (the library's own site folder: assets/, pages/, _includes/, i18n/)`,
    );
  if (domains !== undefined && domains.length > 0) {
    const { checkDomainFlag } = await import("../content/domain-names.ts");
    await checkDomainFlag(values.content, domains);
  }
}

function isFolder(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
