#!/usr/bin/env node
// Runs the compiled integration suites inside the extension host of a real
// VS Code (the VS Code server from code-server, shown in headless Chromium),
// offline. See ../shared/docs/real-vscode-testing.md for why it is done so.
//
//   node scripts/vscode-test/run.js [--flavour stable|min] [--tests <abs path of compiled entry>]
//                                   [--workspace <dir>] [--timeout <seconds>]
//                                   [--extension <dir>]   (another extension folder; default this repo)
//
// Exit code: the suites' (0 pass, 1 a failure), 2 the harness itself failed,
// 124 the hard time limit was hit, 130/143 interrupted. Whatever the outcome,
// the server and the browser are stopped by process group and the temp
// folders removed.
'use strict';

const fs = require('fs');
const path = require('path');
const { launch } = require('./launch');
const { startWorkbench, ROOT, RESULTS } = require('./harness');
const { runSuite } = require('./suiteRun');

function main() {
  return launch({
    session: 'integration',
    what: 'integration',
    options: { tests: path.join(ROOT, 'out', 'test', 'integration', 'index.js') },
    prepare: (opts) => {
      const tests = path.resolve(opts.tests);
      return fs.existsSync(tests) ? { input: tests } : { missing: `no compiled test entry at ${tests}: run "node scripts/vscode-test/build-tests.js" first` };
    },
    run: async (session, opts, tests) => {
      const code = await runSuites(session, opts, tests);
      return { code, summary: `${opts.flavour}: ${code === 0 ? 'passed' : `FAILED (exit ${code})`}` };
    },
  });
}

async function runSuites(session, opts, tests) {
  const workbench = await startWorkbench(session, { flavour: opts.flavour, workspace: opts.workspace || undefined });
  return runSuite(workbench, { tests, extensionPath: opts.extension, name: `integration-${opts.flavour}`, onLogs: (logs) => saveWorkbenchLogs(opts.flavour, logs) });
}

function saveWorkbenchLogs(flavour, logs) {
  if (!Array.isArray(logs)) return;
  const dir = path.join(RESULTS, 'logs', `integration-${flavour}`);
  fs.rmSync(dir, { recursive: true, force: true });
  for (const entry of logs) {
    if (!entry || typeof entry.relativePath !== 'string' || typeof entry.contents !== 'string') continue;
    const file = path.join(dir, entry.relativePath.replace(/^(\.\.[/\\])+/, ''));
    if (!file.startsWith(dir)) continue;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, entry.contents);
  }
}

main().then((code) => process.exit(code));
