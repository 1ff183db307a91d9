#!/usr/bin/env node
// The command runs the TypeScript sources directly: tsx registers its loader, then the CLI starts.
import { register } from "tsx/esm/api";

register();
await import("../src/cli/main.ts");
