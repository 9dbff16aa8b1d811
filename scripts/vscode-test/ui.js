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
const { launch } = require('./launch');
const { startWorkbench, workbenchUrl, workbenchLogPrinter, log, ROOT, RESULTS } = require('./harness');

const SUITES = path.join(ROOT, 'out', 'test', 'ui');

function main() {
  return launch({
    session: 'ui',
    what: 'UI',
    options: { grep: '' },
    prepare: () => {
      // workbench.ui.js first: it opens the page and photographs a fresh workbench; the others follow by name.
      const first = (f) => (f === 'workbench.ui.js' ? 0 : 1);
      const suites = fs.existsSync(SUITES)
        ? fs
            .readdirSync(SUITES)
            .filter((f) => f.endsWith('.ui.js'))
            .sort((a, b) => first(a) - first(b) || a.localeCompare(b))
        : [];
      if (suites.length === 0) return { missing: `no compiled UI suites in ${path.relative(ROOT, SUITES)}: run "node scripts/vscode-test/build-tests.js" first` };
      return { input: suites.map((f) => path.join(SUITES, f)) };
    },
    run: async (session, opts, files) => {
      const failures = await runSuites(session, opts, files);
      return { code: failures === 0 ? 0 : 1, summary: `ui ${opts.flavour}: ${failures === 0 ? 'passed' : `${failures} FAILED`}` };
    },
  });
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
    home: dirs.home,
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
