#!/usr/bin/env node
// The UI tier: starts the same VS Code server as run.js, but opens the
// workbench the way a person would (the extension loaded from this folder, no
// extensionTestsPath), and runs the Playwright suites of out/test/ui/*.ui.js
// in this Node process with mocha. They reach the page through
// test/ui/workbench.ui.ts's helpers; screenshots go to test-results/screenshots/.
//
//   node scripts/vscode-test/ui.js [--flavour stable|min] [--workspace <dir>] [--timeout <seconds>] [--grep <pattern>]
//                                  [--extension <dir>]   (another extension folder; default this repo)
//
// Exit code: 0 all passed, 1 a failure, 2 harness error, 124 time limit, 130/143 interrupted.
'use strict';

const fs = require('fs');
const path = require('path');
const { ensureFlavour, InstallError } = require('./install');
const { Session, startWorkbench, workbenchUrl, workbenchLogPrinter, parseArgs, deadline, log, ROOT, RESULTS } = require('./harness');

async function main() {
  process.stdout.on('error', () => {});
  const opts = parseArgs(process.argv.slice(2), {
    flavour: 'stable',
    workspace: '',
    extension: ROOT,
    timeout: process.env.BATON_VSCODE_TEST_TIMEOUT || '600',
    grep: '',
  });
  const suitesDir = path.join(ROOT, 'out', 'test', 'ui');
  const suites = fs.existsSync(suitesDir) ? fs.readdirSync(suitesDir).filter((f) => f.endsWith('.ui.js')).sort() : [];
  if (suites.length === 0) {
    log(`no compiled UI suites in ${path.relative(ROOT, suitesDir)}: run "node scripts/vscode-test/build-tests.js" first`);
    return 2;
  }
  opts.extension = path.resolve(opts.extension);
  if (opts.extension === ROOT && !fs.existsSync(path.join(ROOT, 'dist', 'extension.js'))) {
    log('dist/extension.js is missing: run "npm run build" first');
    return 2;
  }

  const session = new Session('ui');
  try {
    // First use installs the test VS Code (minutes, once): outside the time limit of the run.
    await ensureFlavour(opts.flavour);
  } catch (err) {
    if (session.signal) return Session.exitCodeFor(session.signal);
    log(err instanceof InstallError ? `error: ${err.message}` : `install failed: ${err.stack || err}`);
    await session.cleanup();
    return 2;
  }
  const limit = deadline(Number(opts.timeout) * 1000, `the ${opts.flavour} UI run`);
  const t0 = Date.now();
  try {
    const failures = await Promise.race([limit.promise, runSuites(session, opts, suites.map((f) => path.join(suitesDir, f)))]);
    if (session.signal) return Session.exitCodeFor(session.signal);
    log(`ui ${opts.flavour}: ${failures === 0 ? 'passed' : `${failures} FAILED`} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    return failures === 0 ? 0 : 1;
  } catch (err) {
    if (session.signal) return Session.exitCodeFor(session.signal);
    if (err.timeout) {
      log(`${err.message}: failing the run`);
      return 124;
    }
    log(`harness error: ${err.stack || err}`);
    return 2;
  } finally {
    limit.cancel();
    await session.cleanup();
  }
}

async function runSuites(session, opts, files) {
  const { info, dirs, server, page } = await startWorkbench(session, { flavour: opts.flavour, workspace: opts.workspace || undefined });
  // Without a test module the driver still forwards the workbench log: show
  // warnings and errors (an extension that fails to activate says so here).
  await page.exposeFunction('codeAutomationLog', workbenchLogPrinter('warn'));
  const screenshotsDir = path.join(RESULTS, 'screenshots');
  fs.mkdirSync(screenshotsDir, { recursive: true });

  // What test/ui/workbench.ui.ts reads (see its WorkbenchContext).
  globalThis.batonWorkbench = {
    page,
    url: workbenchUrl(server, { workspace: dirs.workspace, extensionPath: opts.extension }),
    flavour: opts.flavour,
    vscodeVersion: info.vscodeVersion,
    extensionPath: opts.extension,
    workspace: dirs.workspace,
    vault: dirs.vault,
    screenshotsDir,
  };
  log(`UI suites in VS Code ${info.vscodeVersion}: ${files.map((f) => path.basename(f)).join(', ')}`);

  const mochaModule = require('mocha'); // mocha 12 is ESM: require() gives its namespace
  const Mocha = mochaModule.default || mochaModule;
  const mocha = new Mocha({ ui: 'bdd', reporter: 'spec', timeout: 60000, grep: opts.grep || undefined });
  for (const f of files) mocha.addFile(f);
  return new Promise((resolve) => mocha.run(resolve));
}

main().then((code) => process.exit(code));
