#!/usr/bin/env node
// Compiles the suites that run outside the unit tier with esbuild (type
// checking stays with `tsc --noEmit`):
//   test/integration/**/*.ts -> out/test/integration/  (loaded by the extension host)
//   test/ui/**/*.ts          -> out/test/ui/           (run in Node by scripts/vscode-test/ui.js)
//   test/restricted/**/*.ts  -> out/test/restricted/ (loaded by the extension host in Restricted Mode: run.js --restricted)
//   test/smoke/**/*.ts       -> out/test/smoke/        (loaded by the extension host, against the installed .vsix: vsix.js)
// Each file is its own bundle so mocha can load them one by one; `vscode` is
// provided by the extension host and `mocha` is loaded from node_modules so
// every suite shares the runner's instance (and its describe/it globals).
'use strict';

const fs = require('fs');
const path = require('path');
const esbuild = require('esbuild');

const ROOT = path.resolve(__dirname, '..', '..');

function tsFiles(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? tsFiles(path.join(dir, e.name)) : /\.ts$/.test(e.name) && !/\.d\.ts$/.test(e.name) ? [path.join(dir, e.name)] : []));
}

const common = {
  bundle: true,
  // As in esbuild.js: jsonc-parser's UMD main cannot be bundled; its ESM build can.
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
};

async function main() {
  const tiers = [
    { src: 'test/integration', out: 'out/test/integration', options: { external: ['vscode', 'mocha'] } },
    { src: 'test/restricted', out: 'out/test/restricted', options: { external: ['vscode', 'mocha'] } },
    { src: 'test/smoke', out: 'out/test/smoke', options: { external: ['vscode', 'mocha'] } },
    // The UI tier runs in plain Node beside node_modules: nothing to bundle in.
    { src: 'test/ui', out: 'out/test/ui', options: { packages: 'external' } },
  ];
  for (const tier of tiers) {
    const entryPoints = tsFiles(path.join(ROOT, tier.src));
    const outdir = path.join(ROOT, tier.out);
    // Built beside, then swapped in: no stale suites from deleted files, and a
    // run already going in this tree never sees a half-written folder.
    const fresh = `${outdir}.build-${process.pid}`;
    const stale = `${outdir}.old-${process.pid}`;
    fs.rmSync(fresh, { recursive: true, force: true });
    if (entryPoints.length > 0) {
      await esbuild.build({ ...common, ...tier.options, entryPoints, outbase: path.join(ROOT, tier.src), outdir: fresh });
    }
    if (fs.existsSync(outdir)) fs.renameSync(outdir, stale);
    if (entryPoints.length > 0) fs.renameSync(fresh, outdir);
    fs.rmSync(stale, { recursive: true, force: true });
    if (entryPoints.length > 0) console.log(`build-tests: ${entryPoints.length} file(s) -> ${tier.out}/`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
