// Agent blame on real repositories with backdated commits and a real vault:
// which checkpoint's session wrote each line.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { AgentBlame, blame, type BlameLine } from '../../src/app/blame';
import { parseCheckpoint } from '../../src/adapters/markdown/checkpointFile';
import { git, gitEnv } from './support/gitRepo';
import { execFileSync } from 'child_process';
import { tempDir, tempVault, type TempVault } from './support/tempVault';
import { makeGit } from './builders';
import { commitCoverage } from '../../src/app/commit';

const T = 1_780_000_000;
const H = 3600;

describe('agent blame', () => {
  let v: TempVault;
  let parent: string;
  let repo: string;

  beforeEach(() => {
    v = tempVault(T);
    parent = fs.realpathSync(tempDir('baton-blame-'));
    repo = path.join(parent, 'kestrel');
    fs.mkdirSync(repo);
    git(repo, 'init', '-q', '-b', 'main');
  });
  afterEach(() => {
    v.cleanup();
    fs.rmSync(parent, { recursive: true, force: true });
  });

  /** Writes files and commits them, authored and committed at `ts`; the short sha. */
  function commitAt(dir: string, ts: number, files: Record<string, string>, message = `at ${ts}`): string {
    for (const [rel, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, rel), text);
    git(dir, 'add', '-A');
    const date = `@${ts} +0000`;
    execFileSync('git', ['commit', '-q', '-m', message], { cwd: dir, env: { ...gitEnv, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } });
    return git(dir, 'rev-parse', '--short', 'HEAD');
  }

  /** A session: its first note at `start`, then a checkpoint at `at` standing on `commit`. */
  async function session(scope: string, agent: string, task: string, start: number | null, at: number, commit: string, extra?: Record<string, unknown>): Promise<string> {
    if (start !== null) await v.baton.note(scope, agent, `working on ${task}`, start);
    v.clock.t = at;
    const r = await v.baton.commit({ scope, agent, fields: { task, failed: [`not ${task} by hand`] }, git: makeGit({ commit, branch: 'main' }), at, extra });
    return r.checkpoint.session;
  }

  const lines = (n: number, tag: (i: number) => string): string => Array.from({ length: n }, (_, i) => `${tag(i + 1)}\n`).join('');
  const owners = (ls: BlameLine[]): string[] => ls.map((l) => `${l.start}-${l.end} ${l.agent} ${l.task}`);

  it('gives lines to the two sessions that committed them, not the history before nor a commit no checkpoint covers yet', async () => {
    commitAt(repo, T - 100 * H, { 'cart.ts': lines(6, (i) => `old ${i}`) });
    // claude: notes from T, rewrites lines 2-3, checkpoints.
    const c1 = commitAt(repo, T + 1 * H, { 'cart.ts': 'old 1\nnew 2\nnew 3\nold 4\nold 5\nold 6\n' });
    await session('kestrel', 'claude', 'cart totals', T, T + 2 * H, c1);
    // cursor: rewrites line 5, checkpoints.
    const c2 = commitAt(repo, T + 4 * H, { 'cart.ts': 'old 1\nnew 2\nnew 3\nold 4\ncur 5\nold 6\n' });
    await session('kestrel', 'cursor', 'tax rounding', T + 3 * H, T + 5 * H, c2);
    // A person commits line 6; no checkpoint covers it yet.
    commitAt(repo, T + 6 * H, { 'cart.ts': 'old 1\nnew 2\nnew 3\nold 4\ncur 5\nhand 6\n' });

    const { report } = await blame(v.baton, path.join(repo, 'cart.ts'));
    assert.strictEqual(report.file, 'cart.ts');
    assert.strictEqual(report.project, 'kestrel');
    assert.deepStrictEqual(owners(report.lines), ['2-3 claude cart totals', '5-5 cursor tax rounding']);
    assert.match(report.lines[0].commit, /^[0-9a-f]{40}$/);
    assert.ok(report.lines[0].commit.startsWith(c1));
    assert.strictEqual(report.lines[0].slug, `sessions/kestrel/${report.lines[0].session}`);
  });

  it('moves a line rewritten by a second session to it', async () => {
    commitAt(repo, T - 100 * H, { 'a.ts': 'one\ntwo\n' });
    const c1 = commitAt(repo, T + H, { 'a.ts': 'ONE\nTWO\n' });
    await session('kestrel', 'claude', 'first pass', T, T + 2 * H, c1);
    const c2 = commitAt(repo, T + 4 * H, { 'a.ts': 'ONE\nTwo, again\n' });
    await session('kestrel', 'codex', 'second pass', T + 3 * H, T + 5 * H, c2);
    const { report } = await blame(v.baton, path.join(repo, 'a.ts'));
    assert.deepStrictEqual(owners(report.lines), ['1-1 claude first pass', '2-2 codex second pass']);
  });

  it("counts a commit before the session began (first folded note, else the previous checkpoint) as nobody's", async () => {
    const c0 = commitAt(repo, T - H, { 'a.ts': 'before\n' });
    await session('kestrel', 'claude', 'late start', T, T + H, c0);
    // No notes: the session began at the previous checkpoint.
    const c1 = commitAt(repo, T + 2 * H, { 'a.ts': 'before\nafter\n' });
    await session('kestrel', 'claude', 'no notes', null, T + 3 * H, c1);
    const { report } = await blame(v.baton, path.join(repo, 'a.ts'));
    assert.deepStrictEqual(owners(report.lines), ['2-2 claude no notes']);
  });

  it("gives a session nothing its scope's previous checkpoint already stood on, however early it began", async () => {
    commitAt(repo, T - 100 * H, { 'a.ts': 'a\n' });
    // A person's commit, made before claude's session and after cursor's began.
    const c0 = commitAt(repo, T + H, { 'a.ts': 'a\nperson\n' });
    await v.baton.note('kestrel', 'cursor', 'long session', T);
    // Still at work when claude checkpoints, so its notes are not folded into claude's.
    await v.baton.note('kestrel', 'cursor', 'still going', T + 2.8 * H);
    await session('kestrel', 'claude', 'short one', T + 2 * H, T + 3 * H, c0);
    const c1 = commitAt(repo, T + 4 * H, { 'a.ts': 'a\nperson\ncursor\n' });
    v.clock.t = T + 5 * H;
    await v.baton.commit({ scope: 'kestrel', agent: 'cursor', fields: { task: 'long session' }, git: makeGit({ commit: c1 }), at: T + 5 * H });
    const { report } = await blame(v.baton, path.join(repo, 'a.ts'));
    assert.deepStrictEqual(owners(report.lines), ['3-3 cursor long session']);
  });

  it('does not stretch a session back over history when an old abandoned session of another agent is folded into it', async () => {
    await v.baton.note('kestrel', 'gemini', 'left behind', T - 60 * 24 * H);
    commitAt(repo, T - 30 * 24 * H, { 'a.ts': 'old\n' });
    await v.baton.note('kestrel', 'claude', 'cents', T);
    const c1 = commitAt(repo, T + H, { 'a.ts': 'old\nnew\n' });
    v.clock.t = T + 2 * H;
    const r = await v.baton.commit({ scope: 'kestrel', agent: 'claude', fields: { task: 'cents' }, git: makeGit({ commit: c1 }), coveredCommits: commitCoverage(repo) });
    assert.strictEqual((r.checkpoint.extra.folded as string[]).length, 2, 'the abandoned session was folded');
    assert.deepStrictEqual(r.checkpoint.extra.commits, [c1]);
    fs.writeFileSync(r.path, fs.readFileSync(r.path, 'utf8').replace(/^commits:\n( {2}- .*\n)+/m, ''));
    assert.deepStrictEqual(owners((await blame(v.baton, path.join(repo, 'a.ts'))).report.lines), ['2-2 claude cents']);
  });

  it('leaves lines changed but not committed to nobody, on disk and in unsaved text', async () => {
    commitAt(repo, T - 100 * H, { 'a.ts': 'a\nb\nc\n' });
    const c1 = commitAt(repo, T + H, { 'a.ts': 'A\nB\nC\n' });
    await session('kestrel', 'claude', 'caps', T, T + 2 * H, c1);
    fs.writeFileSync(path.join(repo, 'a.ts'), 'A\nedited\nC\n');
    assert.deepStrictEqual(owners((await blame(v.baton, path.join(repo, 'a.ts'))).report.lines), ['1-1 claude caps', '3-3 claude caps']);
    const typed = await blame(v.baton, path.join(repo, 'a.ts'), { contents: 'inserted\nA\nedited\nC\n' });
    assert.deepStrictEqual(owners(typed.report.lines), ['2-2 claude caps', '4-4 claude caps']);
  });

  it("attributes a linked worktree's commits to its worktree scope, there and after the merge into main", async () => {
    commitAt(repo, T - 100 * H, { 'a.ts': 'base\n' });
    const wt = path.join(parent, 'kestrel-pricing');
    git(repo, 'worktree', 'add', '-q', '-b', 'pricing', wt);
    const c1 = commitAt(wt, T + H, { 'a.ts': 'base\npricing\n' });
    await session('kestrel/kestrel-pricing', 'claude', 'annual toggle', T, T + 2 * H, c1);
    // main's own session merges it later: the worktree's checkpoint came first.
    execFileSync('git', ['merge', '-q', '--no-edit', 'pricing'], { cwd: repo, env: { ...gitEnv, GIT_COMMITTER_DATE: `@${T + 4 * H} +0000` } });
    const merged = git(repo, 'rev-parse', '--short', 'HEAD');
    await session('kestrel', 'cursor', 'merge pricing', T + 3 * H, T + 5 * H, merged);

    const inWorktree = await blame(v.baton, path.join(wt, 'a.ts'));
    assert.strictEqual(inWorktree.report.project, 'kestrel');
    assert.deepStrictEqual(owners(inWorktree.report.lines), ['2-2 claude annual toggle']);
    assert.strictEqual(inWorktree.report.lines[0].project, 'kestrel/kestrel-pricing');
    const inMain = await blame(v.baton, path.join(repo, 'a.ts'));
    assert.deepStrictEqual(owners(inMain.report.lines), ['2-2 claude annual toggle']);
  });

  it("after a rebase keeps the lines of commits not rewritten; a squash's lines are nobody's until a checkpoint records them", async () => {
    commitAt(repo, T - 100 * H, { 'a.ts': 'base\n', 'b.ts': 'b\n' });
    const c1 = commitAt(repo, T + H, { 'a.ts': 'base\none\n' });
    commitAt(repo, T + H + 60, { 'a.ts': 'base\none\ntwo\n' });
    const c2 = commitAt(repo, T + H + 120, { 'b.ts': 'b\nthree\n' });
    await session('kestrel', 'claude', 'three lines', T, T + 2 * H, c2);
    // Squash the last two commits into one: c1 stays, the squashed commit is new.
    git(repo, 'reset', '-q', '--soft', c1);
    const squashed = commitAt(repo, T + 3 * H, {}, 'squash');
    const after = await blame(v.baton, path.join(repo, 'a.ts'));
    assert.deepStrictEqual(owners(after.report.lines), ['2-2 claude three lines'], 'c1 was not rewritten; "two" now comes from the squash');
    assert.deepStrictEqual((await blame(v.baton, path.join(repo, 'b.ts'))).report.lines, []);
    // A checkpoint that records the commits it covers is taken at its word.
    await session('kestrel', 'claude', 'tidy history', null, T + 4 * H, squashed, { commits: [squashed] });
    assert.deepStrictEqual(owners((await blame(v.baton, path.join(repo, 'b.ts'))).report.lines), ['2-2 claude tidy history']);
  });

  it("answers from a checkpoint's recorded commits without its range, and keeps the key through a re-read", async () => {
    commitAt(repo, T - 100 * H, { 'a.ts': 'a\n' });
    const c1 = commitAt(repo, T - 50 * H, { 'a.ts': 'a\nb\n' });
    // Made long before the session's notes, yet recorded: the record wins over the walk.
    const id = await session('kestrel', 'claude', 'recorded', T, T + H, c1, { commits: [c1] });
    const { report } = await blame(v.baton, path.join(repo, 'a.ts'));
    assert.deepStrictEqual(owners(report.lines), ['2-2 claude recorded']);
    const text = v.read(`sessions/kestrel/${id}.md`);
    assert.match(text, new RegExp(`commits:\\n  - ${c1}`));
    assert.deepStrictEqual(parseCheckpoint(text, id, 'kestrel')?.extra.commits, [c1]);
  });

  it('records on the checkpoint the commits its session made, and blames the same from the record as from history', async () => {
    commitAt(repo, T - 100 * H, { 'a.ts': 'a\nb\nc\n' });
    const c1 = commitAt(repo, T + H, { 'a.ts': 'A\nb\nc\n' });
    const c2 = commitAt(repo, T + 2 * H, { 'a.ts': 'A\nB\nc\n' });
    await v.baton.note('kestrel', 'claude', 'caps', T);
    v.clock.t = T + 3 * H;
    const first = await v.baton.commit({ scope: 'kestrel', agent: 'claude', fields: { task: 'caps' }, git: makeGit({ commit: c2 }), coveredCommits: commitCoverage(repo) });
    assert.deepStrictEqual(first.checkpoint.extra.commits, [c2, c1], 'newest first, not the history before the session');
    const c3 = commitAt(repo, T + 4 * H, { 'a.ts': 'A\nB\nC\n' });
    v.clock.t = T + 5 * H;
    const second = await v.baton.commit({ scope: 'kestrel', agent: 'codex', fields: { task: 'last cap' }, git: makeGit({ commit: c3 }), coveredCommits: commitCoverage(repo) });
    assert.deepStrictEqual(second.checkpoint.extra.commits, [c3], 'not what the previous checkpoint stood on');
    const recorded = owners((await blame(v.baton, path.join(repo, 'a.ts'))).report.lines);
    assert.deepStrictEqual(recorded, ['1-2 claude caps', '3-3 codex last cap']);
    // The same vault with the key stripped (an older Baton's checkpoints) answers the same from history.
    for (const cp of [first, second]) fs.writeFileSync(cp.path, fs.readFileSync(cp.path, 'utf8').replace(/^commits:\n( {2}- .*\n)+/m, ''));
    assert.doesNotMatch(fs.readFileSync(first.path, 'utf8'), /commits:/);
    assert.deepStrictEqual(owners((await blame(v.baton, path.join(repo, 'a.ts'))).report.lines), recorded);
  });

  it('records what a session made after a previous checkpoint whose commit this repository does not have', async () => {
    commitAt(repo, T - 100 * H, { 'a.ts': 'a\n' });
    v.clock.t = T;
    await v.baton.commit({ scope: 'kestrel', agent: 'claude', fields: { task: 'elsewhere' }, git: makeGit({ commit: 'deadbee' }) });
    const c1 = commitAt(repo, T + H, { 'a.ts': 'a\nb\n' });
    v.clock.t = T + 2 * H;
    const r = await v.baton.commit({ scope: 'kestrel', agent: 'claude', fields: { task: 'here' }, git: makeGit({ commit: c1 }), coveredCommits: commitCoverage(repo) });
    assert.deepStrictEqual(r.checkpoint.extra.commits, [c1], 'not the history before the previous checkpoint, nor a refusal for its unknown commit');
  });

  it('gives a checkpoint with no git state no lines, and still starts the next session from it', async () => {
    commitAt(repo, T - 100 * H, { 'a.ts': 'a\n' });
    const c1 = commitAt(repo, T + H, { 'a.ts': 'a\nb\n' });
    v.clock.t = T + 2 * H;
    await v.baton.commit({ scope: 'kestrel', agent: 'claude', fields: { task: 'no git here' }, at: T + 2 * H });
    const c2 = commitAt(repo, T + 3 * H, { 'a.ts': 'a\nb\nc\n' });
    await session('kestrel', 'cursor', 'after', null, T + 4 * H, c2);
    const { report } = await blame(v.baton, path.join(repo, 'a.ts'));
    assert.deepStrictEqual(owners(report.lines), ['3-3 cursor after'], `line 2 (${c1}) was made in the session that recorded no commit`);
  });

  it("keeps the checkpoints read until one of the project's checkpoint files changes, and sees a new or rewritten one", async () => {
    commitAt(repo, T - 100 * H, { 'a.ts': 'a\n' });
    const c1 = commitAt(repo, T + H, { 'a.ts': 'a\nb\n' });
    const kept = new AgentBlame(() => v.baton);
    const file = path.join(repo, 'a.ts');
    const answer = await kept.gitBlame(file);
    assert.deepStrictEqual((await kept.attribute(file, answer)).report.lines, [], 'no checkpoint covers c1 yet');
    const id = await session('kestrel', 'claude', 'bee', T, T + 2 * H, c1);
    assert.deepStrictEqual(owners((await kept.attribute(file, answer)).report.lines), ['2-2 claude bee'], 'a new checkpoint is seen without asking git again');
    const first = await kept.attribute(file, answer);
    await v.baton.note('kestrel', 'cursor', 'a working note changes no checkpoint', T + 3 * H);
    assert.strictEqual(await kept.attribute(file, answer), first, 'nothing recomputed for a note');
    const cpFile = path.join(v.root, 'sessions', 'kestrel', `${id}.md`);
    fs.writeFileSync(cpFile, fs.readFileSync(cpFile, 'utf8').replace('## Task\n\nbee', '## Task\n\nbee, rewritten by hand'));
    assert.deepStrictEqual(owners((await kept.attribute(file, answer)).report.lines), ['2-2 claude bee, rewritten by hand']);
  });

  it('answers plainly for a file outside a repository, untracked, binary or missing', async () => {
    commitAt(repo, T - H, { 'a.ts': 'a\n', 'logo.png': 'PNG\0\0\x01binary' });
    fs.writeFileSync(path.join(repo, 'new.ts'), 'new\n');
    const outside = path.join(parent, 'loose.txt');
    fs.writeFileSync(outside, 'x\n');
    const cases: [string, string, RegExp][] = [
      [outside, 'not-a-repository', /not in a git repository/],
      [path.join(repo, 'new.ts'), 'untracked', /not committed/],
      [path.join(repo, 'logo.png'), 'binary', /binary/],
      [path.join(repo, 'gone.ts'), 'missing', /does not exist/],
    ];
    for (const [file, reason, message] of cases) {
      const { report } = await blame(v.baton, file);
      assert.strictEqual(report.reason, reason, file);
      assert.match(report.nothing ?? '', message);
      assert.deepStrictEqual(report.lines, []);
    }
    const off = await blame(v.baton, path.join(repo, 'a.ts'), { enabled: false });
    assert.strictEqual(off.report.reason, 'disabled');
  });
});
