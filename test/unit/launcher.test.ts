// The stable launcher: a shell with almost nothing on PATH runs the real
// built CLI through it; it is written 0755 and only when its target moved;
// it reads back what it points at, for `baton doctor`.
import { strict as assert } from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { launcherPath, readLauncher, renderCmd, writeLauncher } from '../../src/adapters/launcher';
import { CLI, ROOT, ensureBuilt } from './support/cli';
import { tempDir } from './support/tempVault';

/** Runs a command line the way an agent's hook does: /bin/sh, a minimal PATH, none of this process's environment. */
function sh(line: string, PATH = '/usr/bin:/bin'): string {
  return execFileSync('env', ['-i', `PATH=${PATH}`, '/bin/sh', '-c', line], { encoding: 'utf8' });
}

describe('launcher', function () {
  this.timeout(120_000);
  let home: string;
  beforeEach(() => {
    home = tempDir('baton-launcher-');
  });
  afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

  it('starts the real built CLI from a shell with a minimal PATH and prints its version', function () {
    if (process.platform === 'win32') this.skip();
    ensureBuilt();
    const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const w = writeLauncher(home, { runtime: process.execPath, script: CLI, electron: false });
    assert.equal(w.path, path.join(home, '.baton', 'bin', 'baton'));
    assert.equal(w.changed, true);
    assert.equal(fs.statSync(w.path).mode & 0o777, 0o755);
    assert.equal(sh(`"${w.path}" --version`).trim(), version);
    // Nothing on PATH at all: the launcher names its runtime, it does not look for one.
    assert.equal(sh(`"${w.path}" --version`, path.join(home, 'nothing-here')).trim(), version);
  });

  it('passes every argument through unchanged, and sets ELECTRON_RUN_AS_NODE only for Electron', function () {
    if (process.platform === 'win32') this.skip();
    const script = path.join(home, 'echo args.sh');
    fs.writeFileSync(script, 'printf "%s|" "${ELECTRON_RUN_AS_NODE:-unset}" "$@"\n');
    const w = writeLauncher(home, { runtime: '/bin/sh', script, electron: true });
    assert.equal(sh(`"${w.path}" hook 'two words' '$HOME' '"q"'`), '1|hook|two words|$HOME|"q"|');
    writeLauncher(home, { runtime: '/bin/sh', script, electron: false });
    assert.equal(sh(`"${w.path}" x`), 'unset|x|');
  });

  it('is not rewritten when nothing changed, and is when the runtime or the script moved', () => {
    const target = { runtime: process.execPath, script: CLI, electron: false };
    assert.equal(writeLauncher(home, target).changed, true);
    const mtime = fs.statSync(launcherPath(home)).mtimeMs;
    const ino = fs.statSync(launcherPath(home)).ino;
    assert.equal(writeLauncher(home, target).changed, false);
    assert.equal(fs.statSync(launcherPath(home)).ino, ino, 'the very same file, not a rewrite');
    assert.equal(fs.statSync(launcherPath(home)).mtimeMs, mtime);
    assert.equal(writeLauncher(home, { ...target, script: '/elsewhere/dist/cli.js' }).changed, true);
    // A launcher someone made non-executable is repaired.
    fs.chmodSync(launcherPath(home), 0o644);
    assert.equal(writeLauncher(home, { ...target, script: '/elsewhere/dist/cli.js' }).changed, true);
    assert.equal(fs.statSync(launcherPath(home)).mode & 0o777, 0o755);
  });

  it('reads back what it points at, and whether each is still there', () => {
    assert.equal(readLauncher(home), null);
    const script = path.join(home, 'Program Files', 'baton "x"', 'cli.js');
    writeLauncher(home, { runtime: process.execPath, script, electron: true });
    const info = readLauncher(home);
    assert.deepEqual(info, { runtime: process.execPath, script, electron: true, path: launcherPath(home), runtimeExists: true, scriptExists: false });
    fs.writeFileSync(launcherPath(home), '#!/bin/sh\nexec something\n');
    assert.equal(readLauncher(home), null, 'not a launcher Baton wrote');
  });

  it('writes baton.cmd on Windows, with the Electron switch and every argument', () => {
    const w = writeLauncher(
      home,
      { runtime: 'C:\\Program Files\\Microsoft VS Code\\Code.exe', script: 'C:\\Users\\me\\.vscode\\extensions\\baton-0.2.0\\dist\\cli.js', electron: true },
      'win32',
    );
    assert.equal(w.path, path.join(home, '.baton', 'bin', 'baton.cmd'));
    const cmd = fs.readFileSync(w.path, 'utf8');
    assert.ok(cmd.includes('set "ELECTRON_RUN_AS_NODE=1"\r\n'));
    assert.ok(cmd.includes('"C:\\Program Files\\Microsoft VS Code\\Code.exe" "C:\\Users\\me\\.vscode\\extensions\\baton-0.2.0\\dist\\cli.js" %*\r\n'));
    assert.equal(renderCmd({ runtime: 'C:\\100%\\node.exe', script: 'x', electron: false }).includes('"C:\\100%%\\node.exe"'), true);
    assert.equal(readLauncher(home, 'win32')?.electron, true);
  });
});
