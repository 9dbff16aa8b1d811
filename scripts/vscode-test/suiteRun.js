// Runs a compiled mocha entry in a workbench that startWorkbench opened, and
// waits for its exit code: the workbench reports log lines and the outcome
// through the smoke-test driver's hooks (--enable-smoke-test-driver), and a
// server exit, a crashed or closed page ends the wait with an error instead
// of a hang. Shared by run.js (the integration suites, from the source
// folder) and vsix.js (the smoke suite, against the installed .vsix).
'use strict';

const fs = require('fs');
const path = require('path');
const { workbenchUrl, workbenchLogPrinter, log, ROOT, RESULTS, VERBOSE } = require('./harness');

/**
 * `workbench` is startWorkbench's answer; `name` names the failure
 * screenshot (`<name>-failure.png`); `onLogs` receives the workbench's own
 * log files when the run ends.
 */
async function runSuite(workbench, { tests, extensionPath, name, against = '', onLogs = () => {} }) {
  const { info, dirs, server, page } = workbench;
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
  await page.exposeFunction('codeAutomationLog', workbenchLogPrinter('info'));
  await page.exposeFunction('codeAutomationExit', (code, logs) => {
    onLogs(logs);
    settle(typeof code === 'number' ? code : 1);
  });
  page.on('pageerror', (err) => {
    if (VERBOSE) log(`page error: ${err.message}`);
  });
  server.process.on('exit', (code, signal) => settle(0, new Error(`the VS Code server exited during the run (${signal || `exit ${code}`})`)));
  page.on('crash', () => settle(0, new Error('the workbench page crashed')));
  page.on('close', () => settle(0, new Error('the workbench page closed before the tests finished')));

  const url = workbenchUrl(server, { workspace: dirs.workspace, tests, extensionPath });
  if (VERBOSE) log(`opening ${url}`);
  log(`running ${path.relative(ROOT, tests)} in VS Code ${info.vscodeVersion}${against}`);
  await page.goto(url, { waitUntil: 'domcontentloaded' });
  const code = await exited;
  const shot = path.join(RESULTS, 'screenshots', `${name}-failure.png`);
  fs.rmSync(shot, { force: true });
  if (code !== 0) {
    try {
      fs.mkdirSync(path.dirname(shot), { recursive: true });
      await page.screenshot({ path: shot, timeout: 10000 });
      log(`screenshot of the failed run: ${path.relative(ROOT, shot)}`);
    } catch {
      /* the page may be gone */
    }
  }
  return code;
}

module.exports = { runSuite };
