// The pieces the offline launchers (run.js: integration suites, ui.js:
// Playwright UI tier) share: per-run fixtures, the VS Code server, the browser,
// and the guarantee that whatever was started is stopped by its process id on
// success, failure, time-out and SIGINT/SIGTERM, even if this Node process is
// killed outright (a detached reaper watches it).
'use strict';

const fs = require('fs');
const net = require('net');
const os = require('os');
const path = require('path');
const http = require('http');
const { spawn, spawnSync } = require('child_process');
const { ensureFlavour, ROOT } = require('./install');

const CHROMIUM = process.env.BATON_CHROMIUM || '/usr/bin/chromium';
// From the shared note: as root Chromium needs --no-sandbox, and without the
// network flags it keeps trying to reach Google from an offline machine.
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
];
const RESULTS = path.join(ROOT, 'test-results');
const VERBOSE = !!process.env.BATON_VSCODE_TEST_VERBOSE;

function log(msg) {
  process.stderr.write(`[vscode-test] ${msg}\n`);
}

function parseArgs(argv, defaults) {
  const out = { ...defaults };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) throw new Error(`unexpected argument ${a}`);
    const key = a.slice(2);
    if (!(key in defaults))
      throw new Error(
        `unknown option ${a} (known: ${Object.keys(defaults)
          .map((k) => '--' + k)
          .join(' ')})`,
      );
    if (typeof defaults[key] === 'boolean') out[key] = true;
    else {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      out[key] = argv[++i];
    }
  }
  return out;
}

/** A port nobody listens on now: the kernel picks it (listen on 0). */
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function git(cwd, args) {
  const r = spawnSync('git', ['-c', 'user.name=Baton Test', '-c', 'user.email=baton-test@example.invalid', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed in ${cwd}: ${r.stderr || r.error}`);
  return r.stdout;
}

/**
 * Per run: a fresh temp root holding VS Code's user-data, server-data and
 * extensions folders, a fixture workspace (a small git repo, or the caller's
 * folder), and a fixture vault (a copy of test/fixtures/vault/ if present).
 * Nothing a run writes can leak into the next run or the user's real vault.
 */
function makeFixtures({ workspace, restricted = false }) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-vscode-test-'));
  const dirs = {
    tmp,
    userData: path.join(tmp, 'user-data'),
    serverData: path.join(tmp, 'server-data'),
    extensions: path.join(tmp, 'extensions'),
    vault: path.join(tmp, 'vault'),
    // The extension host's HOME: activation writes the launcher to ~/.baton/bin
    // and Connect Agent writes agents' user-scope files, never into the real home.
    home: path.join(tmp, 'home'),
    workspace: workspace ? path.resolve(workspace) : path.join(tmp, 'workspace'),
  };
  for (const d of [dirs.userData, dirs.serverData, dirs.extensions, dirs.home]) fs.mkdirSync(d, { recursive: true });

  const vaultFixture = path.join(ROOT, 'test', 'fixtures', 'vault');
  if (fs.existsSync(vaultFixture)) fs.cpSync(vaultFixture, dirs.vault, { recursive: true });
  else fs.mkdirSync(dirs.vault);

  if (!workspace) {
    const wsFixture = path.join(ROOT, 'test', 'fixtures', 'workspace');
    if (fs.existsSync(wsFixture)) {
      fs.cpSync(wsFixture, dirs.workspace, { recursive: true });
    } else {
      fs.mkdirSync(path.join(dirs.workspace, 'src'), { recursive: true });
      fs.writeFileSync(path.join(dirs.workspace, 'README.md'), '# Fixture project\n\nA small repository the Baton tests open.\n');
      fs.writeFileSync(path.join(dirs.workspace, 'src', 'greet.ts'), 'export function greet(name: string): string {\n  return `Hello, ${name}!`;\n}\n');
    }
    if (!fs.existsSync(path.join(dirs.workspace, '.git'))) {
      git(dirs.workspace, ['init', '-q', '-b', 'main']);
      git(dirs.workspace, ['add', '-A']);
      git(dirs.workspace, ['commit', '-q', '-m', 'Initial fixture commit']);
    }
  } else if (!fs.existsSync(dirs.workspace)) {
    throw new Error(`--workspace ${dirs.workspace} does not exist`);
  }

  // The web workbench reads user settings from the server's user-data dir
  // (User/), the remote extension host also reads Machine/; write both so the
  // setting is seen whichever layer asks.
  const settings = {
    'baton.vault': dirs.vault,
    'workbench.startupEditor': 'none',
    'workbench.enableExperiments': false,
    'workbench.tips.enabled': false,
    // --restricted (run.js): trust on, the fixture folder never trusted, so it
    // opens in Restricted Mode; 'never' keeps the startup dialog from asking
    // (https://code.visualstudio.com/docs/editing/workspaces/workspace-trust,
    // "Settings": security.workspace.trust.enabled / .startupPrompt).
    'security.workspace.trust.enabled': restricted,
    ...(restricted ? { 'security.workspace.trust.startupPrompt': 'never' } : {}),
    'telemetry.telemetryLevel': 'off',
    'extensions.autoUpdate': false,
    'extensions.autoCheckUpdates': false,
    'extensions.ignoreRecommendations': true,
    'update.mode': 'none',
    'github.gitAuthentication': false,
    'git.autoRepositoryDetection': true,
    'chat.disableAIFeatures': true,
    'workbench.secondarySideBar.defaultVisibility': 'hidden',
  };
  for (const scope of ['User', 'Machine']) {
    fs.mkdirSync(path.join(dirs.userData, scope), { recursive: true });
    fs.writeFileSync(path.join(dirs.userData, scope, 'settings.json'), JSON.stringify(settings, null, 2));
  }
  return dirs;
}

/**
 * Owns everything a run starts. `cleanup()` is idempotent and runs on every
 * exit path; the reaper (a detached `sh` loop) kills the process groups if this
 * process dies without running it (SIGKILL, OOM, a CI time-out).
 */
class Session {
  constructor(name) {
    this.name = name;
    this.groups = new Set(); // process-group ids (leaders we spawned detached)
    this.browser = null;
    this.tmpDirs = [];
    this.reaper = null;
    this.cleaned = false;
    this.signal = null; // set when interrupted: the run's outcome is then the signal's
    this.onSignal = (sig) => {
      if (this.signal) return;
      this.signal = sig;
      log(`${sig}: stopping`);
      this.cleanup().finally(() => process.exit(Session.exitCodeFor(sig)));
    };
    process.on('SIGINT', this.onSignal);
    process.on('SIGTERM', this.onSignal);
    process.on('SIGHUP', this.onSignal);
    // Last resort, synchronous (exit handlers cannot await): an uncaught
    // error or a closed stdout must not leave a server or a temp folder.
    this.onExit = () => {
      this.killGroupsSync('SIGKILL');
      for (const d of this.tmpDirs) fs.rmSync(d, { recursive: true, force: true });
    };
    process.on('exit', this.onExit);
  }

  static exitCodeFor(sig) {
    return { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 }[sig] || 1;
  }

  trackGroup(pgid) {
    this.groups.add(pgid);
    this.updateReaper();
  }

  trackTmp(dir) {
    this.tmpDirs.push(dir);
    this.updateReaper();
  }

  updateReaper() {
    if (this.reaper) {
      try {
        process.kill(this.reaper.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
    const targets = [...this.groups].map((g) => `-${g}`).join(' ');
    const quote = (p) => `'${p.replace(/'/g, `'\\''`)}'`;
    const kill = targets ? `kill -TERM ${targets} 2>/dev/null; sleep 2; kill -KILL ${targets} 2>/dev/null; ` : '';
    const rm = this.tmpDirs.length ? `rm -rf ${this.tmpDirs.map(quote).join(' ')}; ` : '';
    const script = `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; ${kill}${rm}exit 0`;
    this.reaper = spawn('sh', ['-c', script], { detached: true, stdio: 'ignore' });
    this.reaper.unref();
  }

  killGroupsSync(signal) {
    for (const g of this.groups) {
      try {
        process.kill(-g, signal);
      } catch {
        /* already gone */
      }
    }
  }

  async cleanup() {
    if (this.cleaned) return;
    this.cleaned = true;
    if (this.browser) {
      const b = this.browser;
      this.browser = null;
      await Promise.race([b.close().catch(() => {}), new Promise((r) => setTimeout(r, 5000))]);
    }
    this.killGroupsSync('SIGTERM');
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline && [...this.groups].some(groupAlive)) await new Promise((r) => setTimeout(r, 100));
    this.killGroupsSync('SIGKILL');
    this.groups.clear();
    if (this.reaper) {
      try {
        process.kill(this.reaper.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
    for (const d of this.tmpDirs) fs.rmSync(d, { recursive: true, force: true, maxRetries: 3 });
    process.off('SIGINT', this.onSignal);
    process.off('SIGTERM', this.onSignal);
    process.off('SIGHUP', this.onSignal);
  }
}

function groupAlive(pgid) {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Children of this process whose executable is Chromium (Playwright starts it as a group leader). */
function chromiumChildren() {
  const pids = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== process.pid) continue;
      const cmd = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ');
      if (/chrom/i.test(cmd)) pids.push(Number(entry));
    } catch {
      /* exited meanwhile */
    }
  }
  return pids;
}

function httpOk(url) {
  return new Promise((resolve) => {
    const req = http.get(url, (res) => {
      res.resume();
      resolve(res.statusCode !== undefined && res.statusCode < 500);
    });
    req.on('error', () => resolve(false));
    req.setTimeout(2000, () => {
      req.destroy();
      resolve(false);
    });
  });
}

/**
 * Starts the VS Code server (server-main.js, not the code-server wrapper, which
 * does not pass --enable-smoke-test-driver through) in its own process group
 * with the flavour's Node, and waits until it answers HTTP.
 */
async function startServer(session, info, dirs, env, logFile, { restricted = false } = {}) {
  const port = await freePort();
  const args = [
    info.serverMain,
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--without-connection-token',
    '--accept-server-license-terms',
    '--enable-smoke-test-driver',
    '--disable-telemetry',
    ...(restricted ? [] : ['--disable-workspace-trust']),
    '--user-data-dir',
    dirs.userData,
    '--server-data-dir',
    dirs.serverData,
    '--extensions-dir',
    dirs.extensions,
    '--log',
    VERBOSE ? 'trace' : 'info',
  ];
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const out = fs.openSync(logFile, 'w');
  const server = spawn(info.nodeBin, args, { detached: true, stdio: ['ignore', out, out], env });
  fs.closeSync(out);
  session.trackGroup(server.pid);
  let exited = null;
  server.on('exit', (code, signal) => {
    exited = signal || `exit ${code}`;
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60000;
  for (;;) {
    if (exited) throw new Error(`the VS Code server stopped before answering (${exited}); log: ${logFile}\n${tail(logFile)}`);
    if (await httpOk(`${url}/version`)) break;
    if (Date.now() > deadline) throw new Error(`the VS Code server did not answer on ${url} within 60 s; log: ${logFile}\n${tail(logFile)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return { port, url, pid: server.pid, process: server };
}

function tail(file, lines = 40) {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

async function launchBrowser(session) {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`no browser at ${CHROMIUM}: apt-get install -y chromium (or set BATON_CHROMIUM)`);
  const { chromium } = require('playwright-core');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    headless: true,
    // We own the signals: Playwright's handlers would exit before the server is stopped.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  session.browser = browser;
  for (const pid of chromiumChildren()) session.trackGroup(pid);
  return browser;
}

/**
 * The workbench URL. With `tests`, the payload makes the web workbench (which
 * honours it only under --enable-smoke-test-driver) load the extension from
 * this folder and run the test module in the real extension host.
 */
function workbenchUrl(server, { workspace, tests, extensionPath = ROOT }) {
  const remote = (p) => `vscode-remote://127.0.0.1:${server.port}${p}`;
  const payload = [['extensionDevelopmentPath', remote(extensionPath)]];
  if (tests) payload.push(['extensionTestsPath', remote(tests)]);
  return `${server.url}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

/**
 * Everything up to an open browser page, shared by run.js, ui.js and vsix.js:
 * install (first use), fixtures, `beforeServer({ info, dirs, env })` if given,
 * server, browser. The env vars below reach the
 * extension host because it is forked by the server with the server's env.
 */
async function startWorkbench(session, { flavour, workspace, beforeServer, restricted = false }) {
  const t0 = Date.now();
  const info = await ensureFlavour(flavour);
  log(`VS Code ${info.vscodeVersion} (code-server ${info.codeServer}, flavour "${flavour}", Node ${nodeVersion(info.nodeBin)})`);
  const dirs = makeFixtures({ workspace, restricted });
  session.trackTmp(dirs.tmp);
  const env = {
    ...process.env,
    BATON_VAULT: dirs.vault,
    HOME: dirs.home,
    BATON_TEST_HOME: dirs.home,
    BATON_TEST_VAULT: dirs.vault,
    BATON_TEST_WORKSPACE: dirs.workspace,
    BATON_TEST_CLI: path.join(ROOT, 'dist', 'cli.js'),
    BATON_TEST_FLAVOUR: flavour,
    ...(restricted ? { BATON_TEST_RESTRICTED: '1' } : {}),
    BATON_TEST_RESULTS: RESULTS,
    // Keep the server and the extension host off the network and quiet.
    VSCODE_CLI_DISABLE_KEYCHAIN_ENCRYPT: '1',
    DONT_PROMPT_WSL_INSTALL: '1',
  };
  delete env.ELECTRON_RUN_AS_NODE;
  delete env.VSCODE_IPC_HOOK_CLI;
  // vsix.js installs the packaged extension into dirs.extensions here, before
  // the server scans that folder.
  if (beforeServer) await beforeServer({ info, dirs, env });
  const logFile = path.join(RESULTS, 'logs', `${session.name}-${flavour}-server.log`);
  const server = await startServer(session, info, dirs, env, logFile, { restricted });
  log(`server pid ${server.pid} on ${server.url} (log ${path.relative(ROOT, logFile)}), ready after ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const browser = await launchBrowser(session);
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  return { info, dirs, server, browser, context, page, env };
}

function nodeVersion(bin) {
  if (bin === process.execPath) return process.versions.node;
  return spawnSync(bin, ['--version'], { encoding: 'utf8' }).stdout.trim().replace(/^v/, '');
}

const LEVELS = { trace: 0, debug: 1, info: 2, warn: 3, error: 4 };

// Workbench log lines that are expected offline and say nothing about Baton.
const NOISE = [
  /open-vsx\.org|ENOTFOUND|marketplace\.visualstudio\.com|gallery|update\.code\.visualstudio\.com|vscode-sync|mobile\.events\.data|default\.exp-tas/i,
  /github\.com\/login|authentication|Failed to fetch/i,
  /service-?worker/i,
  // Connection set-up chatter of the web workbench.
  /^(Resolving|Resolved) connection token|^Creating a socket|^\[reconnection-grace-time\]|^Updating additional builtin extensions cache|^\[AgentHost|^\[AccountPolicyGate\]/,
];

/**
 * Prints what the workbench's smoke-test driver forwards (workbench log and
 * extension-host console), at `minLevel` and above, minus offline noise;
 * everything with BATON_VSCODE_TEST_VERBOSE.
 */
function workbenchLogPrinter(minLevel) {
  return (type, args) => {
    const level = typeof type === 'string' ? type : 'info';
    const text = Array.isArray(args) ? args.map(String).join(' ') : String(args);
    if (!VERBOSE && ((LEVELS[level] ?? LEVELS.info) < LEVELS[minLevel] || NOISE.some((re) => re.test(text)))) return;
    process.stdout.write(`${text}\n`);
  };
}

/** Rejects after `ms`: the hard limit of a run. */
function deadline(ms, what) {
  let timer;
  const promise = new Promise((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`${what} exceeded the time limit of ${Math.round(ms / 1000)} s`), { timeout: true })), ms);
  });
  return { promise, cancel: () => clearTimeout(timer) };
}

module.exports = { Session, makeFixtures, startServer, startWorkbench, workbenchUrl, workbenchLogPrinter, parseArgs, deadline, log, ROOT, RESULTS, VERBOSE };
