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
  // An import() of a file split off below (./run.js, ./hook.js, ./mcp.js, …)
  // becomes require(): kept as import(), Node would start its ESM loader and
  // scan the whole CommonJS file for its export names, which costs a hook or
  // a `baton note` more than the split saves.
  supported: { 'dynamic-import': false },
};

const splitMcp = {
  name: 'split-mcp',
  setup(build) {
    build.onResolve({ filter: /[\\/]mcp[\\/]mcpCommand$/ }, () => ({ path: './mcp.js', external: true }));
  },
};

// A hook fires after every tool call an agent makes, so `baton` starts from a
// file that holds little more than the choice between two doors: a hook call
// loads the hook door (./hook.js), any other command the CLI (./run.js), and
// neither compiles the other's code (which would cost every `baton note` the
// hooks' weight, and every hook the commands'). The heavier hook use cases
// (./agentHooks.js: git, transcripts, the hand-over), the index
// (./sqlIndex.js: sql.js, required by openBaton on first use) and the
// checkpoint format (./checkpointFile.js: the YAML parser, required by the
// vault on its first checkpoint read or write, which a note never makes) are
// files of their own, compiled only when used.
const external = (file) => () => ({ path: file, external: true });
const splitEntry = {
  name: 'split-entry',
  setup(build) {
    build.onResolve({ filter: /^\.\/cli\/run$/ }, external('./run.js'));
    build.onResolve({ filter: /^\.\/hooks\/hookMain$/ }, external('./hook.js'));
  },
};
const splitHeavy = {
  name: 'split-heavy',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/adapters\/index\/sqlIndex$/ }, (args) => (/[\\/]app$/.test(args.resolveDir) ? external('./sqlIndex.js')() : undefined));
    build.onResolve({ filter: /^\.\.\/app\/agentHooks$/ }, (args) => (/[\\/]hooks$/.test(args.resolveDir) ? external('./agentHooks.js')() : undefined));
    build.onResolve({ filter: /^\.\.\/markdown\/checkpointFile$/ }, (args) => (/[\\/]adapters[\\/]vault$/.test(args.resolveDir) ? external('./checkpointFile.js')() : undefined));
  },
};

async function main() {
  fs.mkdirSync('dist', { recursive: true });
  fs.copyFileSync(path.join(__dirname, 'node_modules', 'sql.js', 'dist', 'sql-wasm.wasm'), path.join(__dirname, 'dist', 'sql-wasm.wasm'));
  const builds = [
    { ...common, entryPoints: { extension: 'src/extension.ts' }, external: ['vscode'] },
    { ...common, entryPoints: { cli: 'src/cli.ts' }, banner: { js: '#!/usr/bin/env node' }, plugins: [splitMcp, splitEntry] },
    { ...common, entryPoints: { run: 'src/cli/run.ts' }, plugins: [splitMcp, splitHeavy] },
    { ...common, entryPoints: { hook: 'src/hooks/hookMain.ts' }, plugins: [splitHeavy] },
    { ...common, entryPoints: { agentHooks: 'src/app/agentHooks.ts' } },
    { ...common, entryPoints: { sqlIndex: 'src/adapters/index/sqlIndex.ts' } },
    { ...common, entryPoints: { checkpointFile: 'src/adapters/markdown/checkpointFile.ts' } },
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
