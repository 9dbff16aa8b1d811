// Bundles the extension, the CLI and the MCP server. The sql.js WASM binary is
// copied beside the bundles because sql.js loads it from disk at run time.
const esbuild = require('esbuild');
const fs = require('fs');
const path = require('path');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
  outdir: 'dist',
};

async function main() {
  fs.mkdirSync('dist', { recursive: true });
  fs.copyFileSync(
    path.join(__dirname, 'node_modules', 'sql.js', 'dist', 'sql-wasm.wasm'),
    path.join(__dirname, 'dist', 'sql-wasm.wasm'),
  );
  const builds = [
    { ...common, entryPoints: { extension: 'src/extension.ts' }, external: ['vscode'] },
    { ...common, entryPoints: { cli: 'src/cli.ts' }, banner: { js: '#!/usr/bin/env node' } },
  ];
  if (watch) {
    for (const b of builds) await (await esbuild.context(b)).watch();
    return;
  }
  await Promise.all(builds.map((b) => esbuild.build(b)));
  fs.chmodSync(path.join('dist', 'cli.js'), 0o755);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
