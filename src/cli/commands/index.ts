import type { Command } from "../command.ts";
import { buildCommand } from "./build.ts";
import { configCommand } from "./config.ts";
import { deployCommand } from "./deploy.ts";
import { devCommand } from "./dev.ts";
import { initCommand } from "./init.ts";
import { publishCommand } from "./publish.ts";
import { serveCommand } from "./serve.ts";
import { validateCommand } from "./validate.ts";

/** Every subcommand, in the order `catalogue --help` lists them. */
export const commands: Command[] = [initCommand, buildCommand, validateCommand, publishCommand, deployCommand, serveCommand, devCommand, configCommand];
