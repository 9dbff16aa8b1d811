// The life of a run.js or ui.js run around its suites: options, what must be
// built first, the install kept outside the time limit, the limit itself, and
// an exit code for every way it ends (the Session stops what was started).
'use strict';

const fs = require('fs');
const path = require('path');
const { ensureFlavour, InstallError } = require('./install');
const { Session, parseArgs, deadline, log, ROOT } = require('./harness');

/**
 * `prepare(opts)` returns `{ input }` for `run`, or `{ missing }` saying what to
 * build first (exit 2). `run(session, opts, input)` resolves to
 * `{ code, summary }`; the summary is logged with the time the run took.
 */
async function launch({ session: name, what, options, prepare, run }) {
  process.stdout.on('error', () => {}); // a closed pipe (| head) must not skip the cleanup
  const opts = parseArgs(process.argv.slice(2), {
    flavour: 'stable',
    workspace: '',
    extension: ROOT,
    timeout: process.env.BATON_VSCODE_TEST_TIMEOUT || '600',
    ...options,
  });
  opts.extension = path.resolve(opts.extension);
  const { input, missing } = prepare(opts);
  if (missing) {
    log(missing);
    return 2;
  }
  if (opts.extension === ROOT && !fs.existsSync(path.join(ROOT, 'dist', 'extension.js'))) {
    log('dist/extension.js is missing: run "npm run build" first');
    return 2;
  }

  const session = new Session(name);
  try {
    // First use installs the test VS Code (minutes, once): outside the time limit of the run.
    await ensureFlavour(opts.flavour);
  } catch (err) {
    if (session.signal) return Session.exitCodeFor(session.signal);
    log(err instanceof InstallError ? `error: ${err.message}` : `install failed: ${err.stack || err}`);
    await session.cleanup();
    return 2;
  }
  const limit = deadline(Number(opts.timeout) * 1000, `the ${opts.flavour} ${what} run`);
  const t0 = Date.now();
  try {
    const { code, summary } = await Promise.race([limit.promise, run(session, opts, input)]);
    if (session.signal) return Session.exitCodeFor(session.signal);
    log(`${summary} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    return code;
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

module.exports = { launch };
