import { build } from "../../src/build.ts";
const [content, out, date, ...rest] = process.argv.slice(2);
const t0 = performance.now();
const s = await build({ contentDir: content!, outDir: out!, date: date!, site: rest.includes("--site"),
  reporter: { stage: (n) => console.error(`${((performance.now() - t0) / 1000).toFixed(2)} ${process.hrtime.bigint() / 1000n} ${n}`), warning() {} } });
console.error(`${((performance.now() - t0) / 1000).toFixed(2)} done written=${s.written}`);
