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
const { startWorkbench, workbenchUrl, workbenchLogPrinter, log, ROOT, RESULTS, VERBOSE } = require('./harness');

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
  const { info, dirs, server, page } = await startWorkbench(session, { flavour: opts.flavour, workspace: opts.workspace || undefined });
  let settle;
  const exited = new Promise((resolve, reject) => {
    let done = false;
    settle = (code, err) => {
      if (done) return;
      done = true;
      if (err) reject(err);
      else resolve(code);
    };
  });

  // The workbench calls these (under --enable-smoke-test-driver): the log
  // carries extension-host console output, the exit code is run()'s outcome.
  await page.exposeFunction('codeAutomationLog', workbenchLogPrinter('info'));
  await page.exposeFunction('codeAutomationExit', (code, logs) => {
    saveWorkbenchLogs(opts.flavour, logs);
    settle(typeof code === 'number' ? code : 1);
  });
  page.on('pageerror', (err) => {
    if (VERBOSE) log(`page error: ${err.message}`);
  });
  server.process.on('exit', (code, signal) => settle(0, new Error(`the VS Code server exited during the run (${signal || `exit ${code}`})`)));
  page.on('crash', () => settle(0, new Error('the workbench page crashed')));
  page.on('close', () => settle(0, new Error('the workbench page closed before the tests finished')));

  const url = workbenchUrl(server, { workspace: dirs.workspace, tests, extensionPath: opts.extension });
  if (VERBOSE) log(`opening ${url}`);
  log(`running ${path.relative(ROOT, tests)} in VS Code ${info.vscodeVersion}`);
  await page.goto(url, { waitUntil: 'domcontentloaded' });
  const code = await exited;
  fs.rmSync(failureShot(opts.flavour), { force: true });
  if (code !== 0) await screenshotOnFailure(page, opts.flavour);
  return code;
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

function failureShot(flavour) {
  return path.join(RESULTS, 'screenshots', `integration-${flavour}-failure.png`);
}

async function screenshotOnFailure(page, flavour) {
  try {
    const file = failureShot(flavour);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    await page.screenshot({ path: file, timeout: 10000 });
    log(`screenshot of the failed run: ${path.relative(ROOT, file)}`);
  } catch {
    /* the page may be gone */
  }
}

main().then((code) => process.exit(code));
