// Scenario 2, the lock on its own: a lock left by a dead process is broken at
// once, a live holder is waited for, and breaking never removes a lock that a
// third process has just taken.
import { strict as assert } from 'assert';
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { procStart, STALE_MS, VaultLocks } from '../../src/adapters/vault/scopeLock';
import { removeTree, sleep, tempRoot } from './support';

const lockFiles = (dir: string): string[] => fs.readdirSync(dir).filter((n) => n.endsWith('.lock'));
const ns = (): string => {
  try {
    return fs.readlinkSync('/proc/self/ns/pid');
  } catch {
    return '';
  }
};

const boot = (): string => {
  try {
    return fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
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
    // pid 1 is alive (EPERM or ours): a live holder, freshly refreshed, named as a Baton of this machine names it.
    fs.writeFileSync(path.join(dir, name), JSON.stringify({ host: os.hostname(), ns: ns(), boot: boot(), pid: 1, start: procStart(1)?.start ?? '', token: 'alive' }));
    assert.equal(await locks.tryWith('scope:kestrel', async () => 'took it'), null);
    setTimeout(() => fs.rmSync(path.join(dir, name)), 300);
    const t0 = Date.now();
    await locks.with('scope:kestrel', async () => undefined);
    assert.ok(Date.now() - t0 >= 250, 'waited for the holder to let go');
  });

  it('never breaks by age a lock whose holder on this machine is alive (a paused process cannot refresh it)', async () => {
    const name = (await captureName(locks, dir)) ?? '';
    const file = path.join(dir, name);
    const start = procStart(1)?.start ?? '';
    fs.writeFileSync(file, JSON.stringify({ host: os.hostname(), ns: ns(), boot: boot(), pid: 1, start, token: 'asleep' }));
    const old = new Date(Date.now() - 10 * STALE_MS);
    fs.utimesSync(file, old, old);
    assert.equal(await locks.tryWith('scope:kestrel', async () => 'took it'), null, 'an old lock of a live local holder is not broken');
    setTimeout(() => fs.rmSync(file), 300);
    const t0 = Date.now();
    await locks.with('scope:kestrel', async () => undefined);
    assert.ok(Date.now() - t0 >= 250, 'waited for the holder to let go');
  });

  it('breaks at once a lock whose pid now belongs to another process (reused), or that was taken before this boot', async function () {
    if (!procStart('self')) this.skip(); // no /proc: a reused pid cannot be told apart
    const name = (await captureName(locks, dir)) ?? '';
    const file = path.join(dir, name);
    const realStart = procStart(1)?.start ?? '';
    for (const holder of [
      { boot: boot(), start: String(Number(realStart) + 12345) }, // pid 1 is alive, but not the process that took the lock
      { boot: 'another-boot-0000', start: realStart }, // the very same pid and start, before a reboot
    ]) {
      fs.writeFileSync(file, JSON.stringify({ host: os.hostname(), ns: ns(), pid: 1, token: 'reused', ...holder }));
      const t0 = Date.now();
      assert.equal(await locks.tryWith('scope:kestrel', async () => 'took it'), 'took it', JSON.stringify(holder));
      assert.ok(Date.now() - t0 < 1000, `took ${Date.now() - t0} ms`);
    }
  });

  it('breaks at once a lock naming a live process of this machine but not its boot or start time (a file that arrived by sync, not a Baton of this machine)', async function () {
    if (!procStart('self') || !boot()) this.skip(); // without /proc nothing more than the pid can be checked
    const name = (await captureName(locks, dir)) ?? '';
    const file = path.join(dir, name);
    for (const forged of [{}, { boot: boot() }, { start: procStart(1)?.start ?? '' }]) {
      fs.writeFileSync(file, JSON.stringify({ host: os.hostname(), ns: ns(), pid: 1, token: 'forged', ...forged }));
      const t0 = Date.now();
      assert.equal(await locks.tryWith('scope:kestrel', async () => 'took it'), 'took it', JSON.stringify(forged));
      assert.ok(Date.now() - t0 < 1000, `took ${Date.now() - t0} ms`);
    }
  });

  it("judges a holder on another host by the lock's age only", async () => {
    const name = (await captureName(locks, dir)) ?? '';
    const file = path.join(dir, name);
    fs.writeFileSync(file, JSON.stringify({ host: 'elsewhere.example', ns: ns(), boot: boot(), pid: 1, start: '1', token: 'remote' }));
    assert.equal(await locks.tryWith('scope:kestrel', async () => 'took it'), null, 'a fresh remote lock is held');
    const old = new Date(Date.now() - 2 * STALE_MS);
    fs.utimesSync(file, old, old);
    assert.equal(await locks.tryWith('scope:kestrel', async () => 'took it'), 'took it', 'a stale remote lock is broken');
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
