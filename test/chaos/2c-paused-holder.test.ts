// Scenario 2c: a lock holder that is paused, not dead. A `baton checkpoint`
// is stopped with SIGSTOP while it holds the scope lock (Ctrl-Z, a debugger,
// a laptop put to sleep), for longer than the lock's staleness window, while
// another agent writes a note to the same scope. The paused process is alive
// on this machine: its lock must be waited for, not broken by its age, or the
// note is acknowledged and then overwritten when the holder resumes.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { STALE_MS } from '../../src/adapters/vault/scopeLock';
import { ensureBuilt, log, occurrences, readRaw, removeTree, run, sleep, tempRoot, type RunResult } from './support';

const now = (): number => Math.floor(Date.now() / 1000);

/** Every `*.lock` file under the vault with the pid it names (wherever the locks live). */
function lockHolders(vault: string): { file: string; pid: number; key: string }[] {
  const out: { file: string; pid: number; key: string }[] = [];
  const visit = (dir: string): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'sessions') visit(full);
      } else if (e.name.endsWith('.lock')) {
        try {
          const holder = JSON.parse(fs.readFileSync(full, 'utf8')) as { pid: number; key?: string };
          out.push({ file: full, pid: Number(holder.pid), key: String(holder.key ?? '') });
        } catch {
          // being written or removed right now
        }
      }
    }
  };
  visit(vault);
  return out;
}

describe('chaos 2c: a paused lock holder', function () {
  this.timeout(5 * 60_000);
  let root: string;
  before(function () {
    if (process.platform === 'win32') this.skip();
    ensureBuilt();
  });
  beforeEach(() => {
    root = tempRoot('baton-chaos2c-');
  });
  afterEach(() => removeTree(root));

  it("waits for a holder stopped past the lock age, and the other agent's note survives its resume", async () => {
    const vault = path.join(root, 'vault');
    const started = Date.now();
    // A notes file big enough that the commit holds the lock for a while
    // (reading and rewriting it), so the test can stop it while it holds it.
    const dir = path.join(vault, 'sessions', 'kestrel');
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const ts = now();
    const filler = 'x'.repeat(150);
    const lines = ['# uncommitted — kestrel', '', 'Working notes from sessions that have not been checkpointed yet.', ''];
    for (let i = 0; i < 120_000; i++) lines.push(`- codex filler ${i} ${filler} <!-- ts=${ts} agent=codex -->`);
    lines.push(`- claude's own note <!-- ts=${ts} agent=claude -->`);
    fs.writeFileSync(path.join(dir, 'uncommitted.md'), lines.join('\n') + '\n', { mode: 0o600 });

    let holder: RunResult | null = null;
    let stopped = false;
    for (let attempt = 0; attempt < 5 && !stopped; attempt++) {
      let pid = 0;
      const commit = run(['checkpoint', '-p', 'kestrel', '-a', 'claude', '--task', `paused commit ${attempt}`], {
        vault,
        timeoutMs: 120_000,
      });
      // Poll for the commit's own lock, then stop it while it holds it.
      const t0 = Date.now();
      while (Date.now() - t0 < 20_000) {
        const mine = lockHolders(vault).find((l) => l.pid > 0 && l.pid !== process.pid && l.key === 'scope:kestrel');
        if (mine) {
          pid = mine.pid;
          // Past its read of the notes (about 150 ms here), before its rewrite of them.
          await sleep(200 + attempt * 40);
          process.kill(pid, 'SIGSTOP');
          // Still its lock once stopped (it may have released it just before).
          stopped = lockHolders(vault).some((l) => l.pid === pid && l.key === 'scope:kestrel');
          if (!stopped) process.kill(pid, 'SIGCONT');
          break;
        }
        await sleep(0);
      }
      if (stopped) {
        // Another agent writes while the holder is stopped, for longer than the lock's age.
        const note = run(['note', '-p', 'kestrel', '-a', 'cursor', 'written while the holder slept'], { vault, timeoutMs: 120_000 });
        let noteDone: RunResult | null = null;
        void note.then((r) => (noteDone = r));
        await sleep(STALE_MS + 2_000);
        const finishedWhileStopped = noteDone !== null;
        process.kill(pid, 'SIGCONT');
        const [h, n] = await Promise.all([commit, note]);
        holder = h;
        assert.ok(h.acked, `the paused commit finishes once resumed: ${h.stderr}`);
        assert.ok(n.acked, `the note is acknowledged once the holder let go: ${n.stderr}`);
        const raw = readRaw(vault);
        const seen = occurrences(raw).get('written while the holder slept') ?? [];
        assert.equal(seen.length, 1, `the acknowledged note is recorded exactly once: ${JSON.stringify(seen)}`);
        assert.equal(raw.notes.filter((x) => x.agent === 'codex').length, 120_000, 'the other open notes are all still there');
        assert.ok(!finishedWhileStopped, `the note waited for the paused holder instead of breaking its lock (took ${n.ms} ms)`);
        log(`holder stopped ${((STALE_MS + 2000) / 1000).toFixed(0)}s; note took ${(n.ms / 1000).toFixed(1)}s; ${((Date.now() - started) / 1000).toFixed(1)}s`);
      } else {
        await commit;
      }
    }
    assert.ok(stopped && holder, 'the commit was caught holding its lock');
  });
});
