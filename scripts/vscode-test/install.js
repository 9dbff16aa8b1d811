#!/usr/bin/env node
// Installs, on first use, the VS Code that the offline test launcher runs: the
// VS Code server shipped inside the `code-server` npm package (see
// ../shared/docs/real-vscode-testing.md). Plain CommonJS so it runs before any
// build, and into the ignored cache folder `.vscode-test/` the way
// @vscode/test-electron caches its download: the project's own `npm install`
// stays light, and a second run finds the marker file and returns at once.
//
//   node scripts/vscode-test/install.js [--flavour stable|min|all]
//
// Why each step is so:
// - code-server 4.139.1 (VS Code 1.139.1) requires Node 24 and compiles native
//   modules on install, so Node 24 comes from npm (`node@24`, with its headers,
//   which node-gyp needs because this machine cannot download them) and goes
//   first on PATH for that install only. The system Node stays as it is.
// - code-server 4.100.3 (VS Code 1.100.3, our minimum) runs on Node 20, but its
//   install downloads ripgrep from GitHub; we prime @vscode/ripgrep's download
//   cache with Debian's /usr/bin/rg so it never goes to the network.
// - Each flavour installs into its own prefix; a partial prefix (no marker) is
//   removed and redone, so an interrupted install never looks finished.
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawn, spawnSync } = require('child_process');

const ROOT = path.resolve(__dirname, '..', '..');
const CACHE = path.resolve(process.env.BATON_VSCODE_TEST_CACHE || path.join(ROOT, '.vscode-test'));
const MARKER = '.baton-installed.json';

/** The VS Code builds we test against. `node: 'system'` runs on the Node running this script. */
const FLAVOURS = {
  stable: { codeServer: '4.139.1', vscode: '1.139.1', node: '24' },
  min: { codeServer: '4.100.3', vscode: '1.100.3', node: 'system' },
};

// @vscode/ripgrep version -> the ripgrep release its postinstall downloads
// (the VERSION constant of its lib/postinstall.js). The code-server versions
// above are pinned, so the @vscode/ripgrep they pull in is too; when a new
// pin fails with a ripgrep download error, add its pair here.
const RIPGREP_ASSETS = {
  '1.15.11': 'v13.0.0-10', // code-server 4.100.3 (read from its lib/postinstall.js)
  '1.17.1': 'v15.0.1', // seen in newer code-server releases
};

function log(msg) {
  process.stderr.write(`[vscode-test] ${msg}\n`);
}

class InstallError extends Error {}

function onPath(cmd) {
  return (process.env.PATH || '').split(path.delimiter).some((dir) => {
    try {
      fs.accessSync(path.join(dir, cmd), fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

function debPackageInstalled(pkg) {
  if (!onPath('dpkg-query')) return null; // not Debian: cannot tell
  const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
  return r.status === 0 && /install ok installed/.test(r.stdout);
}

/**
 * Fails early, naming the Debian package to install, instead of letting npm die
 * forty lines into a node-gyp log. Each check is a file or command we need, so
 * non-Debian machines with the same tools pass too.
 */
function checkSystemPrerequisites(flavour) {
  const missing = [];
  const need = (ok, pkg, why) => {
    if (!ok) missing.push({ pkg, why });
  };
  need(onPath('tar'), 'tar', 'to unpack archives');
  need(onPath('make') && (onPath('g++') || onPath('c++')), 'build-essential', 'code-server compiles native modules');
  need(onPath('python3'), 'python3', 'node-gyp needs Python');
  if (FLAVOURS[flavour].node === '24') {
    const krb = debPackageInstalled('libkrb5-dev');
    need(krb === null ? onPath('krb5-config') : krb, 'libkrb5-dev', 'the kerberos native module of code-server does not compile without it');
  }
  need(onPath('rg'), 'ripgrep', 'primes the ripgrep download that would otherwise come from GitHub');
  if (missing.length) {
    const lines = missing.map((m) => `  - ${m.pkg}: ${m.why}`).join('\n');
    throw new InstallError(
      `missing system packages for the "${flavour}" test VS Code:\n${lines}\n` + `Install them with:\n  apt-get install -y ${[...new Set(missing.map((m) => m.pkg))].join(' ')}`,
    );
  }
}

// An install still running when this process exits (a signal, the time limit
// of run.js) is stopped with it, so it cannot write on after the lock is gone.
const running = new Set();
process.on('exit', () => {
  for (const child of running) {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      /* gone */
    }
  }
});

/**
 * The environment for a nested `npm install`. Run from an npm script
 * (`npm test`), this process inherits what the outer npm exported about
 * itself, and the inner npm would take it as its own config: above all
 * `npm_config_user_agent` naming the outer Node, from which code-server's
 * postinstall reads the Node version (and refuses Node 20 for 4.139.1); also
 * `npm_config_prefix`/`nodedir`/`node_gyp` and the outer package's fields.
 * Settings a user or CI gave (registry, cache, cafile, proxy) are kept.
 */
function cleanNpmEnv(extra) {
  const injected =
    /^npm_(config_(user_agent|node_gyp|nodedir|prefix|local_prefix|global_prefix|loglevel|npm_version|allow_scripts)$|lifecycle_|package_|command$|execpath$|node_execpath$)/i;
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (injected.test(k) || k === 'NODE' || k === 'INIT_CWD') continue;
    env[k] = v;
  }
  return { ...env, ...extra };
}

function run(cmd, args, opts) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'], detached: true, ...opts });
    running.add(child);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      running.delete(child);
      if (code === 0) resolve();
      else reject(new InstallError(`${cmd} ${args.join(' ')} failed (${signal || `exit ${code}`})`));
    });
  });
}

function readMarker(dir) {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, MARKER), 'utf8'));
  } catch {
    return null;
  }
}

/**
 * One installer per prefix at a time: two test runs started together (or two
 * engineers in the same tree) must not both write into one node_modules.
 * A lock left by a dead process is taken over.
 */
async function withLock(dir, fn) {
  const lock = `${dir}.lock`;
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  const started = Date.now();
  let announced = false;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      let pid = NaN;
      try {
        pid = Number(fs.readFileSync(path.join(lock, 'pid'), 'utf8'));
      } catch {
        /* being written */
      }
      let alive = true;
      if (pid) {
        try {
          process.kill(pid, 0);
        } catch {
          alive = false;
        }
      } else if (Date.now() - started > 10000) {
        alive = false;
      }
      if (!alive) {
        fs.rmSync(lock, { recursive: true, force: true });
        continue;
      }
      if (!announced) log(`waiting for another install of ${path.basename(dir)} (pid ${pid})`);
      announced = true;
      if (Date.now() - started > 30 * 60 * 1000) throw new InstallError(`timed out waiting for ${lock}`);
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

/** Installs `node@24` from npm into .vscode-test/node24 and returns its binary and headers. */
async function ensureNode24() {
  const dir = path.join(CACHE, 'node24');
  const describe = () => {
    const bin = path.join(dir, 'node_modules', 'node', 'bin', 'node');
    const pkgs = path.join(dir, 'node_modules', 'node', 'node_modules');
    const arch = fs.existsSync(pkgs) ? fs.readdirSync(pkgs).find((n) => /^node-(linux|darwin)-/.test(n)) : undefined;
    const nodedir = arch && path.join(pkgs, arch);
    if (!fs.existsSync(bin) || !nodedir || !fs.existsSync(path.join(nodedir, 'include', 'node', 'common.gypi'))) return null;
    return { bin, binDir: path.dirname(bin), nodedir };
  };
  if (readMarker(dir) && describe()) return describe();
  return withLock(dir, async () => {
    if (readMarker(dir) && describe()) return describe();
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    log('installing Node 24 from npm (node@24) into ' + path.relative(ROOT, dir));
    await run('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', '--loglevel=error', 'node@24'], {
      env: cleanNpmEnv({ npm_config_update_notifier: 'false' }),
    });
    const found = describe();
    if (!found) throw new InstallError(`node@24 installed into ${dir} but its binary or headers are missing`);
    const version = spawnSync(found.bin, ['--version'], { encoding: 'utf8' }).stdout.trim();
    if (!/^v24\./.test(version)) throw new InstallError(`node@24 from npm reports ${version || 'nothing'}`);
    fs.writeFileSync(path.join(dir, MARKER), JSON.stringify({ node: version, installedAt: new Date().toISOString() }, null, 2));
    return found;
  });
}

/**
 * Puts Debian's rg where @vscode/ripgrep's postinstall looks for a cached
 * download (`$TMPDIR/vscode-ripgrep-cache-<pkg version>/ripgrep-<tag>-<target>.tar.gz`),
 * so the install never reaches GitHub. The postinstall deletes a cache entry it
 * fails to use, so this runs before every install attempt.
 */
function primeRipgrepCache(tmpdir) {
  const rg = spawnSync('sh', ['-c', 'command -v rg'], { encoding: 'utf8' }).stdout.trim();
  if (!rg) return;
  const target = { x64: 'x86_64-unknown-linux-musl', arm64: 'aarch64-unknown-linux-musl' }[os.arch()];
  if (!target || os.platform() !== 'linux') return;
  const staging = fs.mkdtempSync(path.join(tmpdir, 'rg-'));
  fs.copyFileSync(fs.realpathSync(rg), path.join(staging, 'rg'));
  fs.chmodSync(path.join(staging, 'rg'), 0o755);
  const archive = path.join(tmpdir, 'ripgrep.tar.gz');
  const tar = spawnSync('tar', ['czf', archive, '-C', staging, 'rg']);
  if (tar.status !== 0) throw new InstallError('could not pack /usr/bin/rg for the ripgrep download cache');
  for (const [pkgVersion, tag] of Object.entries(RIPGREP_ASSETS)) {
    const dir = path.join(tmpdir, `vscode-ripgrep-cache-${pkgVersion}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.copyFileSync(archive, path.join(dir, `ripgrep-${tag}-${target}.tar.gz`));
  }
  fs.rmSync(staging, { recursive: true, force: true });
}

function serverMainOf(prefix) {
  return path.join(prefix, 'node_modules', 'code-server', 'lib', 'vscode', 'out', 'server-main.js');
}

function vscodeVersionOf(prefix) {
  try {
    const p = path.join(prefix, 'node_modules', 'code-server', 'lib', 'vscode', 'product.json');
    const product = JSON.parse(fs.readFileSync(p, 'utf8'));
    if (product.version) return product.version;
  } catch {
    /* fall through */
  }
  try {
    const p = path.join(prefix, 'node_modules', 'code-server', 'lib', 'vscode', 'package.json');
    return JSON.parse(fs.readFileSync(p, 'utf8')).version;
  } catch {
    return undefined;
  }
}

/**
 * Makes sure the flavour's VS Code server is installed and says how to start it:
 * `{ flavour, codeServer, vscodeVersion, serverMain, nodeBin, prefix }`.
 */
async function ensureFlavour(flavour) {
  const spec = FLAVOURS[flavour];
  if (!spec) throw new InstallError(`unknown flavour "${flavour}" (expected ${Object.keys(FLAVOURS).join(' or ')})`);
  const prefix = path.join(CACHE, `code-server-${spec.codeServer}`);

  let node = null;
  const result = () => ({
    flavour,
    codeServer: spec.codeServer,
    vscodeVersion: vscodeVersionOf(prefix) || spec.vscode,
    serverMain: serverMainOf(prefix),
    nodeBin: node ? node.bin : process.execPath,
    prefix,
  });
  const installed = () => {
    const m = readMarker(prefix);
    return m && m.codeServer === spec.codeServer && fs.existsSync(serverMainOf(prefix));
  };

  if (spec.node === 'system') {
    const major = Number(process.versions.node.split('.')[0]);
    if (major !== 20) {
      log(`warning: code-server ${spec.codeServer} expects Node 20; this is Node ${process.versions.node}`);
    }
  }
  if (installed()) {
    if (spec.node === '24') node = await ensureNode24();
    return result();
  }

  checkSystemPrerequisites(flavour);
  if (spec.node === '24') node = await ensureNode24();

  return withLock(prefix, async () => {
    if (installed()) return result();
    const t0 = Date.now();
    fs.rmSync(prefix, { recursive: true, force: true });
    fs.mkdirSync(prefix, { recursive: true });
    // A private TMPDIR: the ripgrep cache lives there, and failed builds leave nothing in /tmp.
    const tmpdir = path.join(CACHE, 'tmp', `install-${spec.codeServer}`);
    fs.rmSync(tmpdir, { recursive: true, force: true });
    fs.mkdirSync(tmpdir, { recursive: true });
    primeRipgrepCache(tmpdir);

    const env = cleanNpmEnv({
      TMPDIR: tmpdir,
      npm_config_yes: 'true', // its postinstall runs `npx node-gyp`
      npm_config_unsafe_perm: 'true', // ...which refuses to run lifecycle scripts as root otherwise
      npm_config_update_notifier: 'false',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
    });
    if (node) {
      // Node 24 first on PATH, and its own headers: the machine-wide nodedir
      // (if any) holds the system Node's headers, which would build modules
      // for the wrong ABI.
      env.PATH = `${node.binDir}${path.delimiter}${process.env.PATH}`;
      env.npm_config_nodedir = node.nodedir;
    } else {
      const sysdir = path.dirname(path.dirname(process.execPath));
      if (fs.existsSync(path.join(sysdir, 'include', 'node', 'common.gypi'))) env.npm_config_nodedir = sysdir;
    }
    log(`installing code-server@${spec.codeServer} (VS Code ${spec.vscode}) into ${path.relative(ROOT, prefix)}; this takes a few minutes once`);
    try {
      await run('npm', ['install', '--prefix', prefix, '--no-save', '--loglevel=error', `code-server@${spec.codeServer}`], {
        env,
        cwd: prefix,
      });
    } catch (err) {
      throw new InstallError(
        `${err.message}\nThe install of code-server@${spec.codeServer} failed; the log above says why. ` +
          'Common causes: a missing Debian package (apt-get install -y build-essential python3 libkrb5-dev ripgrep), ' +
          'or a download from GitHub (this machine reaches only npm and Debian).',
      );
    }
    if (!fs.existsSync(serverMainOf(prefix))) {
      throw new InstallError(`code-server@${spec.codeServer} installed but ${serverMainOf(prefix)} is missing`);
    }
    fs.rmSync(tmpdir, { recursive: true, force: true });
    try {
      fs.rmdirSync(path.dirname(tmpdir)); // only if no other install is using it
    } catch {
      /* not empty */
    }
    const info = result();
    fs.writeFileSync(
      path.join(prefix, MARKER),
      JSON.stringify({ codeServer: spec.codeServer, vscode: info.vscodeVersion, installedAt: new Date().toISOString(), seconds: Math.round((Date.now() - t0) / 1000) }, null, 2),
    );
    log(`installed VS Code ${info.vscodeVersion} in ${Math.round((Date.now() - t0) / 1000)} s`);
    return info;
  });
}

module.exports = { ensureFlavour, FLAVOURS, CACHE, ROOT, InstallError };

if (require.main === module) {
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => process.exit(128 + os.constants.signals[sig]));
  const args = process.argv.slice(2);
  const i = args.indexOf('--flavour');
  const which = i >= 0 ? args[i + 1] : 'stable';
  const flavours = which === 'all' ? Object.keys(FLAVOURS) : [which];
  (async () => {
    for (const f of flavours) {
      const t0 = Date.now();
      const info = await ensureFlavour(f);
      log(`${f}: VS Code ${info.vscodeVersion} (code-server ${info.codeServer}) ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    }
  })().catch((err) => {
    log(err instanceof InstallError ? `error: ${err.message}` : err.stack || String(err));
    process.exit(1);
  });
}
