// Scenario 2, the lock on its own: a lock left by a dead process is broken at
// once, a live holder is waited for, and breaking never removes a lock that a
// third process has just taken.
import { strict as assert } from 'assert';
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { VaultLocks } from '../../src/adapters/vault/scopeLock';
import { removeTree, sleep, tempRoot } from './support';

const lockFiles = (dir: string): string[] => fs.readdirSync(dir).filter((n) => n.endsWith('.lock'));
const ns = (): string => {
  try {
    return fs.readlinkSync('/proc/self/ns/pid');
  } catch {
    return '';
  }
};

describe('chaos 2b: vault locks', function () {
  this.timeout(60_000);
  let dir: string;
  let locks: VaultLocks;
  beforeEach(() => {
    dir = tempRoot('baton-chaos2b-');
    locks = new VaultLocks(dir);
  });
  afterEach(() => removeTree(dir));

  it('serialises holders of one key within a process, and never two at once', async () => {
    let inside = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 20 }, () =>
        locks.with('scope:kestrel', async () => {
          inside++;
          most = Math.max(most, inside);
          await sleep(2);
          inside--;
        }),
      ),
    );
    assert.equal(most, 1);
    assert.deepEqual(lockFiles(dir), [], 'released');
  });

  it('breaks at once a lock whose holder on this machine is dead', async () => {
    await locks.with('scope:kestrel', async () => undefined); // learn the file name
    const child = spawn(process.execPath, ['-e', '0']);
    const pid = child.pid ?? 0;
    await new Promise((r) => child.on('exit', r));
    const name = (await captureName(locks, dir)) ?? '';
    fs.writeFileSync(path.join(dir, name), JSON.stringify({ host: os.hostname(), ns: ns(), pid, token: 'dead' }));
    const t0 = Date.now();
    await locks.with('scope:kestrel', async () => undefined);
    assert.ok(Date.now() - t0 < 1000, `took ${Date.now() - t0} ms`);
  });

  it('waits for a live holder, and tryWith does not take it', async () => {
    const name = (await captureName(locks, dir)) ?? '';
    // pid 1 is alive (EPERM or ours): a live holder, freshly refreshed.
    fs.writeFileSync(path.join(dir, name), JSON.stringify({ host: os.hostname(), ns: ns(), pid: 1, token: 'alive' }));
    assert.equal(await locks.tryWith('scope:kestrel', async () => 'took it'), null);
    setTimeout(() => fs.rmSync(path.join(dir, name)), 300);
    const t0 = Date.now();
    await locks.with('scope:kestrel', async () => undefined);
    assert.ok(Date.now() - t0 >= 250, 'waited for the holder to let go');
  });

  it('breaks a lock of unknown owner once it is older than the staleness window, and a stale breaker too', async () => {
    const name = (await captureName(locks, dir)) ?? '';
    const file = path.join(dir, name);
    fs.writeFileSync(file, 'written by hand');
    fs.mkdirSync(`${file}.break`);
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(file, old, old);
    fs.utimesSync(`${file}.break`, old, old);
    const t0 = Date.now();
    await locks.with('scope:kestrel', async () => undefined);
    assert.ok(Date.now() - t0 < 2000, `took ${Date.now() - t0} ms`);
  });
});

/** The lock file name of "scope:kestrel", seen while it is held. */
async function captureName(locks: VaultLocks, dir: string): Promise<string | null> {
  let name: string | null = null;
  await locks.with('scope:kestrel', async () => {
    name = lockFiles(dir)[0] ?? null;
  });
  return name;
}
