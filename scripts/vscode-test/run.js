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
const { ensureFlavour, InstallError } = require('./install');
const { Session, startWorkbench, workbenchUrl, workbenchLogPrinter, parseArgs, deadline, log, ROOT, RESULTS, VERBOSE } = require('./harness');

async function main() {
  process.stdout.on('error', () => {}); // a closed pipe (| head) must not skip the cleanup
  const opts = parseArgs(process.argv.slice(2), {
    flavour: 'stable',
    tests: path.join(ROOT, 'out', 'test', 'integration', 'index.js'),
    workspace: '',
    extension: ROOT,
    timeout: process.env.BATON_VSCODE_TEST_TIMEOUT || '600',
  });
  opts.extension = path.resolve(opts.extension);
  const tests = path.resolve(opts.tests);
  if (!fs.existsSync(tests)) {
    log(`no compiled test entry at ${tests}: run "node scripts/vscode-test/build-tests.js" first`);
    return 2;
  }
  if (opts.extension === ROOT && !fs.existsSync(path.join(ROOT, 'dist', 'extension.js'))) {
    log('dist/extension.js is missing: run "npm run build" first');
    return 2;
  }

  const session = new Session('integration');
  try {
    // First use installs the test VS Code (minutes, once): outside the time limit of the run.
    await ensureFlavour(opts.flavour);
  } catch (err) {
    if (session.signal) return Session.exitCodeFor(session.signal);
    log(err instanceof InstallError ? `error: ${err.message}` : `install failed: ${err.stack || err}`);
    await session.cleanup();
    return 2;
  }
  const limit = deadline(Number(opts.timeout) * 1000, `the ${opts.flavour} integration run`);
  const t0 = Date.now();
  try {
    const outcome = await Promise.race([limit.promise, runSuites(session, opts, tests)]);
    if (session.signal) return Session.exitCodeFor(session.signal);
    log(`${opts.flavour}: ${outcome === 0 ? 'passed' : `FAILED (exit ${outcome})`} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    return outcome;
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
