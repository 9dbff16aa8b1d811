#!/usr/bin/env node
// `npm run bench [-- --sizes 1000,10000,100000] [--notes 100000] [--quick] [--out FILE] [--no-vsix] [--no-vscode] [--pairs 3]`
// `npm run bench -- --vscode-only [--sizes 1000,100000] [--pairs 3]`: only the real VS Code's activation to populated views (bench/populated.ts); BENCHMARKS.md untouched
// `npm run bench -- --text-cost [--sizes 100000] [--reps 3]`: the text index's figures alone (bench/textCost.ts)
// `npm run bench -- --tokens [--json]`: what Baton's tools and session-start hand-over cost a request (bench/tokens.ts)
// `npm run bench -- --import [--sessions 1000] [--mb 1] [--reps 3]`: importing a generated history of past sessions (bench/importHistory.ts)
//
// Builds what it measures into .bench/build/, never into dist/ (other work on
// this tree runs `npm run build` at any moment, and a bundle rewritten under a
// running benchmark would tear it):
//   dev/   the repository's own esbuild.js run over the current sources, as
//          `npm run build` does: dist/cli.js there is the CLI that is measured;
//   prod/  the same with --production, packaged by `vsce` exactly as
//          `npm run package` does: the .vsix that is weighed;
//   bench.js  bench/main.ts bundled, with sql-wasm.wasm beside it;
//   vscode/perf.js  what the real VS Code's extension host runs (bench/vscodePerfEntry.ts).
// Then runs bench.js. Not part of `npm test`.
'use strict';
const esbuild = require('esbuild');
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

const ROOT = path.resolve(__dirname, '..');
const OUT = path.join(ROOT, '.bench', 'build');

/** A folder that looks like the repository to esbuild.js and vsce, with the sources linked, not copied. */
function stage(name) {
  const dir = path.join(OUT, name);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  for (const link of ['src', 'node_modules']) fs.symlinkSync(path.join(ROOT, link), path.join(dir, link));
  for (const file of ['esbuild.js', 'package.json', 'README.md', 'LICENSE', 'CHANGELOG.md', '.vscodeignore', 'tsconfig.json']) {
    if (fs.existsSync(path.join(ROOT, file))) fs.copyFileSync(path.join(ROOT, file), path.join(dir, file));
  }
  if (fs.existsSync(path.join(ROOT, 'media'))) fs.cpSync(path.join(ROOT, 'media'), path.join(dir, 'media'), { recursive: true });
  return dir;
}

function run(cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed in ${cwd} (exit ${r.status})`);
}

async function main() {
  const args = process.argv.slice(2);
  fs.mkdirSync(OUT, { recursive: true });
  const dev = stage('dev');
  run(process.execPath, ['esbuild.js'], dev);
  let vsix = '';
  if (!args.includes('--no-vsix') && !args.includes('--text-cost') && !args.includes('--tokens') && !args.includes('--import')) {
    const prod = stage('prod');
    run(process.execPath, ['esbuild.js', '--production'], prod);
    vsix = path.join(prod, 'baton.vsix');
    const vsce = path.join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
    const r = spawnSync(process.execPath, [vsce, 'package', '--no-dependencies', '--no-rewrite-relative-links', '--allow-missing-repository', '--out', vsix], {
      cwd: prod,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (r.status !== 0 || !fs.existsSync(vsix)) {
      process.stderr.write(`bench: vsce package failed (exit ${r.status}); the .vsix is not weighed\n`);
      vsix = '';
    }
  }
  fs.copyFileSync(path.join(ROOT, 'node_modules', 'sql.js', 'dist', 'sql-wasm.wasm'), path.join(OUT, 'sql-wasm.wasm'));
  await esbuild.build({
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: true,
    logLevel: 'warning',
    absWorkingDir: ROOT,
    entryPoints: [path.join(ROOT, 'bench', 'main.ts')],
    outfile: path.join(OUT, 'bench.js'),
    // As esbuild.js: jsonc-parser's UMD build requires files esbuild cannot see (bench/tokens.ts reaches it through the hooks).
    alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
  });
  // The entry the VS Code extension host runs for the VS Code figures.
  await esbuild.build({
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    logLevel: 'warning',
    absWorkingDir: ROOT,
    external: ['vscode'],
    entryPoints: [path.join(ROOT, 'bench', 'vscodePerfEntry.ts')],
    outfile: path.join(OUT, 'vscode', 'perf.js'),
  });
  // The index's cold build starts its worker from beside the running bundle (src/adapters/index/parallelRead.ts).
  for (const dir of [OUT, path.join(OUT, 'vscode')]) fs.copyFileSync(path.join(dev, 'dist', 'indexWorker.js'), path.join(dir, 'indexWorker.js'));
  const benchArgs = args.filter((a) => a !== '--no-vsix');
  const r = spawnSync(process.execPath, [path.join(OUT, 'bench.js'), ...benchArgs], {
    stdio: 'inherit',
    cwd: ROOT,
    env: { ...process.env, BATON_BENCH_CLI: path.join(dev, 'dist', 'cli.js'), BATON_BENCH_VSIX: vsix },
  });
  process.exit(r.status ?? 1);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
