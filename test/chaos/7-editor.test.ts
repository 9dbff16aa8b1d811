// Scenario 7, the parts that are the CLI's (the editor's own parts, inert
// hovers and no git in an untrusted workspace, are the extension's
// integration tests: see RELIABILITY.md):
//   - every file the CLI creates in the vault is 0600 and every folder 0700,
//     under umask 000, so the modes are set and not inherited;
//   - a 50 MB file and binary files dropped in the vault break no view, and
//     the views still answer quickly.
import { strict as assert } from 'assert';
import { randomBytes } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { stamp } from '../../src/core/time';
import { ensureBuilt, log, parseJson, removeTree, run, tempRoot, walk, type RunResult } from './support';

const MB = 1 << 20;
/** A view that takes longer than this on a 50 MB file is treated as broken (generous for a loaded CI machine). */
const QUICK_MS = Number(process.env.CHAOS_QUICK_MS ?? 8000);

describe('chaos 7: file modes, and huge or binary files in the vault', function () {
  this.timeout(10 * 60_000);
  let root: string;
  let vault: string;
  let work: string;

  before(() => ensureBuilt());
  beforeEach(() => {
    root = tempRoot('baton-chaos7-');
    vault = path.join(root, 'vault'); // not created: the CLI makes the vault itself
    work = path.join(root, 'work');
    fs.mkdirSync(work);
  });
  afterEach(() => removeTree(root));

  it('creates every file 0600 and every folder 0700, whatever the umask', async () => {
    const cli = async (args: string[], input?: string, env: NodeJS.ProcessEnv = {}): Promise<RunResult> => {
      const r = await run(args, { vault, cwd: work, input, umask: 0o000, env });
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
      return r;
    };
    const old = Math.floor(Date.now() / 1000) - 8 * 3600;
    await cli(['note', '-p', 'kestrel', '-a', 'claude', 'first note, creates the vault']);
    await cli(['note', '-p', 'kestrel/wt', '-a', 'claude', 'a worktree note']);
    await cli(['note', '-p', 'osprey', '-a', 'ghost', '--at', String(old), 'an abandoned note']);
    await cli(['checkpoint', '-p', 'kestrel', '-a', 'claude', '--task', 'a checkpoint', '--file', 'src/a.ts']);
    await cli(['handoff', '-p', 'kestrel/wt', '-a', 'claude', '--to', 'cursor', '--task', 'a hand-off']);
    await cli(['plan', '-p', 'kestrel', '-a', 'claude'], '# a plan\n');
    await cli(['sessions', 'osprey', '--close', `${stamp(old)}-ghost`]);
    await cli(['index']);
    await cli(['continuity']);
    await cli(['resume', 'kestrel']);
    const transcript = path.join(work, 't.jsonl');
    fs.writeFileSync(transcript, `${JSON.stringify({ type: 'user', message: { role: 'user', content: 'do the thing' } })}\n`);
    const payload = JSON.stringify({ session_id: '3f1c9a4e-0000-4000-8000-000000000001', transcript_path: transcript, cwd: work });
    for (const event of ['session-start', 'pre-compact', 'session-end']) await cli(['hook', 'claude-code', event], payload, { BATON_PROJECT: 'kestrel' });
    await cli(['hook', 'claude-code', 'pre-compact'], JSON.stringify({ session_id: 'x', transcript_path: path.join(work, 'missing.jsonl'), cwd: work }), {
      BATON_PROJECT: 'kestrel',
    });
    await cli(['stats']).catch(() => undefined);

    const entries = [{ rel: '.', dir: true, mode: fs.statSync(vault).mode & 0o777, size: 0 }, ...walk(vault)];
    const wrong = entries.filter((e) => (e.dir ? e.mode !== 0o700 : e.mode !== 0o600)).map((e) => `${e.rel} ${e.mode.toString(8)}`);
    log(`${entries.length} files and folders checked: ${[...new Set(entries.map((e) => e.rel.split(path.sep).slice(0, 2).join('/')))].join(', ')}`);
    assert.ok(entries.some((e) => e.rel.endsWith('index.sqlite')) && entries.some((e) => e.rel.includes('plans')) && entries.some((e) => e.rel.includes('agent-sessions')));
    assert.deepEqual(wrong, [], 'files 0600, folders 0700');
  });

  it('answers every view quickly with a 50 MB file and binary files beside the good ones', async () => {
    const good = await run(['checkpoint', '-p', 'kestrel', '-a', 'claude', '--task', 'the good checkpoint', '--file', 'src/good.ts', '--json'], { vault, cwd: work });
    assert.ok(good.acked, good.stderr);
    await run(['note', '-p', 'kestrel', '-a', 'cursor', 'a good note'], { vault, cwd: work });
    await run(['plan', '-p', 'kestrel', '-a', 'claude'], { vault, cwd: work, input: 'the good plan' });
    const kestrel = path.join(vault, 'sessions', 'kestrel');
    const big = (head: string): Buffer => {
      const line = Buffer.from('- Lorem ipsum dolor sit amet, src/good.ts, consectetur adipiscing elit, sed do eiusmod tempor.\n');
      const b = Buffer.alloc(50 * MB);
      let at = b.write(head);
      while (at + line.length <= b.length) at += line.copy(b, at);
      return b;
    };
    // A 50 MB checkpoint, a 50 MB plan and a 50 MB notes file in another project; binary files
    // named as a checkpoint, a plan and a notes file; a 50 MB binary that is nothing of Baton's.
    fs.writeFileSync(path.join(kestrel, '20200101-000000-huge.md'), big('---\ntype: checkpoint\nproject: kestrel\nfiles: [src/good.ts]\n---\n\n## Task\n\nhuge\n\n## Files\n\n'));
    fs.writeFileSync(path.join(kestrel, 'plans', 'plan-20200101-000000-huge.md'), big('---\ntype: plan\n---\n\n'));
    fs.mkdirSync(path.join(vault, 'sessions', 'osprey'), { recursive: true });
    fs.writeFileSync(path.join(vault, 'sessions', 'osprey', 'uncommitted.md'), big('# uncommitted — osprey\n\n- a real note <!-- ts=1700000000 agent=claude -->\n'));
    fs.writeFileSync(path.join(kestrel, '20200101-000001-binary.md'), randomBytes(2 * MB));
    fs.writeFileSync(path.join(kestrel, 'plans', 'plan-20200101-000001-binary.md'), randomBytes(MB));
    fs.mkdirSync(path.join(vault, 'sessions', 'heron'), { recursive: true });
    fs.writeFileSync(path.join(vault, 'sessions', 'heron', 'uncommitted.md'), randomBytes(MB));
    fs.writeFileSync(path.join(kestrel, 'recording.mp4'), randomBytes(50 * MB));

    const views: string[][] = [
      ['continuity', '--json'],
      ['sessions', 'kestrel', '--json'],
      ['sessions', 'osprey', '--json'],
      ['sessions', 'heron', '--json'],
      ['resume', 'kestrel', '--json'],
      ['why', 'src/good.ts', '--json'],
      ['plans', 'kestrel', '--json'],
      ['index', '--json'],
      ['continuity', '--json'],
    ];
    const slow: string[] = [];
    const times: string[] = [];
    for (const view of views) {
      const r = await run(view, { vault, cwd: work, timeoutMs: 120_000 });
      assert.ok(r.acked, `${view.join(' ')} failed: ${r.stderr.slice(0, 500)}`);
      parseJson(r, view.join(' '));
      times.push(`${view[0]} ${view[1] ?? ''} ${r.ms}ms`);
      if (r.ms > QUICK_MS) slow.push(`${view.join(' ')} took ${r.ms} ms`);
    }
    log(times.join(', '));
    const sessions = parseJson<{ checkpoints: { task: string }[]; uncommitted: { text: string }[] }>(
      await run(['sessions', 'kestrel', '--json'], { vault, cwd: work }),
      'sessions',
    );
    assert.ok(
      sessions.checkpoints.some((c) => c.task === 'the good checkpoint'),
      'the good checkpoint is still listed',
    );
    assert.ok(
      sessions.uncommitted.some((n) => n.text === 'a good note'),
      'the good note is still listed',
    );
    const why = parseJson<{ task: string }[]>(await run(['why', 'src/good.ts', '--json'], { vault, cwd: work }), 'why');
    assert.ok(why.some((t) => t.task === 'the good checkpoint'));
    // Writing beside them still works.
    const note = await run(['note', '-p', 'osprey', '-a', 'claude', 'a note beside 50 MB'], { vault, cwd: work, timeoutMs: 120_000 });
    assert.ok(note.acked, note.stderr);
    const cp = await run(['checkpoint', '-p', 'kestrel', '-a', 'claude', '--task', 'after the junk'], { vault, cwd: work, timeoutMs: 120_000 });
    assert.ok(cp.acked, cp.stderr);
    assert.deepEqual(slow, [], `every view answers within ${QUICK_MS} ms`);
  });
});
