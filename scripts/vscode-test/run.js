#!/usr/bin/env node
// Runs the compiled integration suites inside the extension host of a real
// VS Code (the VS Code server from code-server, shown in headless Chromium),
// offline. See ../shared/docs/real-vscode-testing.md for why it is done so.
//
//   node scripts/vscode-test/run.js [--flavour stable|min] [--tests <abs path of compiled entry>]
//                                   [--workspace <dir>] [--timeout <seconds>]
//                                   [--extension <dir>]   (another extension folder; default this repo)
//                                   [--restricted]        (workspace trust on, the folder untrusted:
//                                                          Restricted Mode; default suite out/test/restricted/)
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
    options: { tests: '', restricted: false },
    prepare: (opts) => {
      const tests = path.resolve(opts.tests || path.join(ROOT, 'out', 'test', opts.restricted ? 'restricted' : 'integration', 'index.js'));
      return fs.existsSync(tests) ? { input: tests } : { missing: `no compiled test entry at ${tests}: run "node scripts/vscode-test/build-tests.js" first` };
    },
    run: async (session, opts, tests) => {
      const code = await runSuites(session, opts, tests);
      return { code, summary: `${opts.flavour}${opts.restricted ? ' (Restricted Mode)' : ''}: ${code === 0 ? 'passed' : `FAILED (exit ${code})`}` };
    },
  });
}

async function runSuites(session, opts, tests) {
  if (opts.restricted) session.name = 'restricted'; // its server log beside the integration run's, not over it
  const workbench = await startWorkbench(session, { flavour: opts.flavour, workspace: opts.workspace || undefined, restricted: opts.restricted });
  const name = `${opts.restricted ? 'restricted' : 'integration'}-${opts.flavour}`;
  return runSuite(workbench, { tests, extensionPath: opts.extension, name, onLogs: (logs) => saveWorkbenchLogs(name, logs) });
}

function saveWorkbenchLogs(name, logs) {
  if (!Array.isArray(logs)) return;
  const dir = path.join(RESULTS, 'logs', name);
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
