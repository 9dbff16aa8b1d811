// Install 'baton' in PATH: a symlink to the stable launcher in the system
// folder, else in ~/.local/bin when that is on PATH, else the command to run;
// never over a `baton` Baton did not put there; on Windows, the folder to add.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { installOnPath } from '../../src/app/pathInstall';
import { launcherPath } from '../../src/adapters/launcher';
import { tempDir } from './support/tempVault';

describe('install baton in PATH', () => {
  let root: string;
  let home: string;
  let systemBin: string;
  beforeEach(() => {
    root = tempDir('baton-path-');
    home = path.join(root, 'home');
    systemBin = path.join(root, 'usr-local-bin');
    fs.mkdirSync(home);
    fs.mkdirSync(systemBin);
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('links the system folder’s baton to the launcher, and a second time says it is there', function () {
    if (process.platform === 'win32') this.skip();
    const r = installOnPath({ home, systemBin, pathEnv: '/usr/bin', platform: 'linux' });
    assert.deepEqual(r, { kind: 'linked', link: path.join(systemBin, 'baton'), launcher: launcherPath(home, 'linux'), already: false });
    assert.equal(fs.readlinkSync(path.join(systemBin, 'baton')), launcherPath(home, 'linux'));
    assert.deepEqual(installOnPath({ home, systemBin, pathEnv: '/usr/bin', platform: 'linux' }), { ...r, already: true });
  });

  it('leaves another baton alone', function () {
    if (process.platform === 'win32') this.skip();
    fs.writeFileSync(path.join(systemBin, 'baton'), '#!/bin/sh\necho npm baton\n');
    const r = installOnPath({ home, systemBin, pathEnv: '/usr/bin', platform: 'linux' });
    assert.equal(r.kind, 'occupied');
    assert.equal(fs.readFileSync(path.join(systemBin, 'baton'), 'utf8'), '#!/bin/sh\necho npm baton\n');
  });

  it('falls back to ~/.local/bin only when it is on PATH, else gives the command', function () {
    if (process.platform === 'win32') this.skip();
    // A folder that cannot be written to (root writes through a 0555 mode, not into a missing folder).
    const missing = path.join(root, 'no-such-bin');
    const manual = installOnPath({ home, systemBin: missing, pathEnv: '/usr/bin', platform: 'linux' });
    assert.equal(manual.kind, 'manual');
    const local = path.join(home, '.local', 'bin');
    fs.mkdirSync(local, { recursive: true });
    assert.deepEqual(manual, { kind: 'manual', launcher: launcherPath(home, 'linux'), command: `sudo ln -sf '${launcherPath(home, 'linux')}' ${missing}/baton` });
    const r = installOnPath({ home, systemBin: missing, pathEnv: `/usr/bin:${local}`, platform: 'linux' });
    assert.equal(r.kind, 'linked');
    assert.equal(fs.readlinkSync(path.join(local, 'baton')), launcherPath(home, 'linux'));
  });

  it('on Windows names the folder to add to PATH', () => {
    assert.deepEqual(installOnPath({ home, platform: 'win32' }), { kind: 'addToPath', folder: path.join(home, '.baton', 'bin') });
  });
});
