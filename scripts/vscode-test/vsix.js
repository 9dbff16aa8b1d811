#!/usr/bin/env node
// The packaged-.vsix smoke run: builds the .vsix with `npm run package` (or
// takes --vsix FILE), installs it into a fresh extensions folder the way a user
// does (the VS Code server's own `--install-extension FILE --extensions-dir
// DIR`), seeds an empty vault with a checkpoint written by the INSTALLED
// extension's dist/cli.js, then runs test/smoke/ (compiled to out/test/smoke/)
// in the extension host of that VS Code against the installed extension.
//
//   node scripts/vscode-test/vsix.js [--flavour stable|min] [--vsix FILE] [--timeout <seconds>]
//
// The extension host runs tests only with an extension-development folder
// beside them, so a tiny placeholder extension (no code, no contributions, a
// different id) serves as that folder; Baton itself is never loaded from the
// source tree. Exit codes as run.js: 0 pass, 1 a failure, 2 harness, 124 time limit.
'use strict';

const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');
const { launch } = require('./launch');
const { startWorkbench, log, ROOT, RESULTS, VERBOSE } = require('./harness');
const { runSuite } = require('./suiteRun');

const EXTENSION_ID = 'baton-dev.baton';
const SMOKE_PROJECT = 'vsix-smoke';

function main() {
  return launch({
    session: 'vsix',
    what: 'packaged .vsix smoke',
    options: { vsix: '', tests: path.join(ROOT, 'out', 'test', 'smoke', 'index.js') },
    prepare: (opts) => {
      const tests = path.resolve(opts.tests);
      if (!fs.existsSync(tests)) return { missing: `no compiled smoke entry at ${tests}: run "node scripts/vscode-test/build-tests.js" first` };
      if (opts.vsix) {
        const vsix = path.resolve(opts.vsix);
        return fs.existsSync(vsix) ? { input: { tests, vsix } } : { missing: `no .vsix at ${vsix}` };
      }
      const vsix = packageVsix();
      return vsix ? { input: { tests, vsix } } : { missing: '"npm run package" failed (output above)' };
    },
    run: async (session, opts, input) => {
      const code = await runSmoke(session, opts, input);
      return { code, summary: `${opts.flavour} .vsix smoke (${path.basename(input.vsix)}): ${code === 0 ? 'passed' : `FAILED (exit ${code})`}` };
    },
  });
}

/**
 * `npm run package` into test-results/ (ignored), then the development build
 * again: packaging leaves production bundles in dist/, and the other tiers and
 * `npm start` expect the development ones they were built with.
 */
function packageVsix() {
  const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const out = path.join(RESULTS, 'vsix', `baton-${version}.vsix`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.rmSync(out, { force: true });
  log(`npm run package -> ${path.relative(ROOT, out)}`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = spawnSync(npm, ['run', '--silent', 'package', '--', '--out', out], { cwd: ROOT, encoding: 'utf8' });
  if (VERBOSE || r.status !== 0) process.stderr.write(`${r.stdout || ''}${r.stderr || ''}`);
  const rebuilt = spawnSync(process.execPath, [path.join(ROOT, 'esbuild.js')], { cwd: ROOT, encoding: 'utf8' });
  if (rebuilt.status !== 0) process.stderr.write(`${rebuilt.stdout || ''}${rebuilt.stderr || ''}`);
  if (r.status !== 0 || rebuilt.status !== 0 || !fs.existsSync(out)) return null;
  return out;
}

function check(r, what) {
  if (r.status !== 0) throw new Error(`${what} failed (${r.error || `exit ${r.status}`}):\n${r.stdout || ''}${r.stderr || ''}`);
  return r.stdout;
}

/** Runs before the server starts: install, placeholder development folder, vault seeded by the installed CLI. */
function prepareInstall({ info, dirs, env }, vsix) {
  const t0 = Date.now();
  check(
    spawnSync(
      info.nodeBin,
      [
        info.serverMain,
        '--accept-server-license-terms',
        '--install-extension',
        vsix,
        '--extensions-dir',
        dirs.extensions,
        '--user-data-dir',
        dirs.userData,
        '--server-data-dir',
        dirs.serverData,
      ],
      { env, encoding: 'utf8', timeout: 120000 },
    ),
    `installing ${vsix}`,
  );
  const installed = fs.readdirSync(dirs.extensions).filter((n) => n.toLowerCase().startsWith(`${EXTENSION_ID}-`));
  if (installed.length !== 1) throw new Error(`expected one ${EXTENSION_ID}-* folder in ${dirs.extensions}, found: ${fs.readdirSync(dirs.extensions).join(', ') || 'none'}`);
  const extensionPath = path.join(dirs.extensions, installed[0]);
  const manifest = JSON.parse(fs.readFileSync(path.join(extensionPath, 'package.json'), 'utf8'));
  log(`installed ${installed[0]} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

  const host = path.join(dirs.tmp, 'smoke-host');
  fs.mkdirSync(host);
  fs.writeFileSync(
    path.join(host, 'package.json'),
    JSON.stringify(
      { name: 'baton-smoke-host', publisher: 'baton-test', version: '0.0.0', description: 'Placeholder development folder for the .vsix smoke run', engines: { vscode: '*' } },
      null,
      2,
    ),
  );

  // An empty vault, then one checkpoint from the installed CLI on this flavour's Node.
  fs.rmSync(dirs.vault, { recursive: true, force: true });
  fs.mkdirSync(dirs.vault);
  const cli = path.join(extensionPath, 'dist', 'cli.js');
  check(
    spawnSync(
      info.nodeBin,
      [
        cli,
        '--vault',
        dirs.vault,
        'checkpoint',
        '--project',
        SMOKE_PROJECT,
        '--agent',
        'vsix-smoke',
        '--task',
        'Smoke-test the packaged extension',
        '--next',
        'Open the Projects view',
      ],
      { cwd: dirs.workspace, env: { ...env, BATON_VAULT: dirs.vault }, encoding: 'utf8', timeout: 30000 },
    ),
    'seeding the vault with the installed CLI',
  );

  // What the build puts in dist/ (maps aside) must all be in the package: a new
  // bundle that .vscodeignore leaves out fails here, not in a user's editor.
  const bundles = fs.readdirSync(path.join(ROOT, 'dist')).filter((n) => n.endsWith('.js') || n.endsWith('.wasm'));
  Object.assign(env, {
    BATON_TEST_BUNDLES: bundles.join(','),
    BATON_TEST_CLI: cli,
    BATON_TEST_EXTENSIONS: dirs.extensions,
    BATON_TEST_VERSION: manifest.version,
    BATON_TEST_SMOKE_PROJECT: SMOKE_PROJECT,
  });
  return host;
}

async function runSmoke(session, opts, { tests, vsix }) {
  let host;
  const workbench = await startWorkbench(session, {
    flavour: opts.flavour,
    workspace: opts.workspace || undefined,
    beforeServer: (ctx) => {
      host = prepareInstall(ctx, vsix);
    },
  });
  return runSuite(workbench, { tests, extensionPath: host, name: `vsix-${opts.flavour}`, against: ' against the installed .vsix' });
}

main().then((code) => process.exit(code));
