// Build the console into services/api/console_assets/ (committed; shipped in the wheel).
// Deterministic: same lockfile, same sources -> same bytes (no timestamps, no hashes in names).
import { build } from "esbuild";
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const out = resolve(here, "../services/api/console_assets");
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
await build({
  entryPoints: [resolve(here, "src/main.ts")],
  bundle: true,
  minify: true,
  format: "esm",
  target: ["es2020"],
  outfile: resolve(out, "app.js"),
  legalComments: "linked",
  logLevel: "warning",
});
copyFileSync(resolve(here, "src/index.html"), resolve(out, "index.html"));
copyFileSync(resolve(here, "src/styles.css"), resolve(out, "styles.css"));
copyFileSync(resolve(here, "src/favicon.svg"), resolve(out, "favicon.svg"));
// axe-core is a test dependency: vendored for the browser tests, never served by the API.
copyFileSync(
  resolve(here, "node_modules/axe-core/axe.min.js"),
  resolve(here, "../tests/console/vendor/axe.min.js"),
);
console.log(`built ${out}`);
