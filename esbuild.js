// Bundles the extension, the CLI, the MCP server and the index's worker thread
// (found beside the bundle that starts it: src/adapters/index/parallelRead.ts).
// The sql.js WASM binary is copied beside the bundles because sql.js loads it
// from disk at run time.
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
  // jsonc-parser's main build is UMD, whose require('./impl/…') calls esbuild
  // cannot follow (the bundle then fails at load); its ESM build bundles whole.
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
};

const splitMcp = {
  name: 'split-mcp',
  setup(build) {
    build.onResolve({ filter: /[\\/]mcp[\\/]mcpCommand$/ }, () => ({ path: './mcp.js', external: true }));
  },
};

// A hook fires after every tool call an agent makes, so the file `baton`
// starts with holds little more than the hook door: the CLI's commands
// (./run.js), the heavier hook use cases (./agentHooks.js: git, transcripts,
// the hand-over) and the index (./sqlIndex.js: sql.js) are files of their
// own, compiled only when used. Compiling
// the whole CLI cost a hook about as much as starting Node.
const splitCli = {
  name: 'split-cli',
  setup(build) {
    build.onResolve({ filter: /^\.\/cli\/run$/ }, () => ({ path: './run.js', external: true }));
    build.onResolve({ filter: /^\.\.\/adapters\/index\/sqlIndex$/ }, (args) =>
      /[\\/]app$/.test(args.resolveDir) ? { path: './sqlIndex.js', external: true } : undefined,
    );
    build.onResolve({ filter: /^\.\.\/app\/agentHooks$/ }, (args) =>
      /[\\/]hooks$/.test(args.resolveDir) ? { path: './agentHooks.js', external: true } : undefined,
    );
  },
};

async function main() {
  fs.mkdirSync('dist', { recursive: true });
  fs.copyFileSync(
    path.join(__dirname, 'node_modules', 'sql.js', 'dist', 'sql-wasm.wasm'),
    path.join(__dirname, 'dist', 'sql-wasm.wasm'),
  );
  const builds = [
    { ...common, entryPoints: { extension: 'src/extension.ts' }, external: ['vscode'] },
    { ...common, entryPoints: { cli: 'src/cli.ts' }, banner: { js: '#!/usr/bin/env node' }, plugins: [splitMcp, splitCli] },
    { ...common, entryPoints: { run: 'src/cli/run.ts' }, plugins: [splitMcp] },
    { ...common, entryPoints: { agentHooks: 'src/app/agentHooks.ts' } },
    { ...common, entryPoints: { sqlIndex: 'src/adapters/index/sqlIndex.ts' } },
    // The MCP SDK is most of the CLI's weight: its own file, parsed only by `baton mcp`.
    { ...common, entryPoints: { mcp: 'src/mcp/mcpCommand.ts' } },
    { ...common, entryPoints: { indexWorker: 'src/adapters/index/indexWorker.ts' } },
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
