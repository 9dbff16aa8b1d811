// Issue 25: every note and checkpoint knows the machine (and the agent's own
// session) it came from, and a fold takes only its own machine's notes. Two
// clones are two real vault folders, each with its own `.baton-live/machine-id`;
// a note "arrives by sync" as the notes merge brings it: its line, byte for
// byte, in the other clone's `uncommitted.md`.
import { strict as assert } from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { parseCheckpoint, renderCheckpoint } from '../../src/adapters/markdown/checkpointFile';
import { mergeNotes } from '../../src/adapters/markdown/notesMerge';
import { parseNotes, renderNoteLine } from '../../src/adapters/markdown/notesFile';
import { machineId } from '../../src/adapters/vault/machineId';
import { personNameNow } from '../../src/app/personName';
import { personAgentName } from '../../src/core/names';
import { renderHandover, renderSessions } from '../../src/core/handover';
import { buildHover, type HoverBlock } from '../../src/core/hoverText';
import { buildLineHover } from '../../src/core/lineBlameText';
import { machineOf, whoseAmong } from '../../src/core/whose';
import { makeCheckpoint } from './builders';
import { threadOf } from '../../src/core/thread';
import { tempDir, tempVault, type TempVault } from './support/tempVault';

const LOGOS = path.join(__dirname, '..', 'fixtures', 'logos', '20260814-143207-claude.md');
const NOTES = 'sessions/kestrel/uncommitted.md';

/** The note lines of a vault's notes file, as the sync's merge would carry them. */
const noteLines = (v: TempVault): string[] =>
  v.exists(NOTES)
    ? v
        .read(NOTES)
        .split('\n')
        .filter((l) => l.startsWith('- '))
    : [];
/** Brings `from`'s note lines into `to`, as a sync does (appended whole, origin and all). */
function arrive(from: TempVault, to: TempVault): void {
  fs.mkdirSync(path.dirname(path.join(to.root, NOTES)), { recursive: true });
  fs.appendFileSync(path.join(to.root, NOTES), noteLines(from).join('\n') + '\n');
}

describe('the origin of notes and checkpoints (issue 25)', () => {
  let a: TempVault;
  let b: TempVault;
  beforeEach(() => {
    a = tempVault();
    b = tempVault();
  });
  afterEach(() => {
    a.cleanup();
    b.cleanup();
  });

  it('writes the machine and the agent session in a comment before the metadata, and reads them back', async () => {
    await a.baton.note('kestrel', 'claude-code', 'tried the cache', undefined, { agentSession: '3f1e2d4c-aaaa-bbbb-cccc-0123456789ab' });
    const machine = await a.baton.machine();
    assert.match(machine, /^[0-9a-f]{16}$/);
    assert.equal(fs.readFileSync(path.join(a.root, '.baton-live', 'machine-id'), 'utf8').trim(), machine);
    assert.deepEqual(noteLines(a), [`- tried the cache <!-- machine=${machine} agent_session=3f1e2d4c-aaaa-bbbb-cccc-0123456789ab --> <!-- ts=${a.clock.t} agent=claude-code -->`]);
    const [n] = (await a.baton.sessions('kestrel')).uncommitted;
    assert.deepEqual([n.machine, n.agentSession], [machine, '3f1e2d4c-aaaa-bbbb-cccc-0123456789ab']);
    // An id that is no plain word (spaces, `-->`) is hashed, never written raw into the comment.
    await a.baton.note('kestrel', 'claude-code', 'second', undefined, { agentSession: 'x --> y' });
    assert.match(noteLines(a)[1], / agent_session=sha256-[0-9a-f]{32} --> <!-- ts=\d+ agent=claude-code -->$/);
  });

  it('keeps one id per clone: made once, the same for every process, another for another clone', async () => {
    const ids = await Promise.all(Array.from({ length: 8 }, () => machineId(a.root)));
    assert.equal(new Set(ids).size, 1, 'eight processes making the id at once agree on one');
    assert.equal(await machineId(a.root), await a.baton.machine());
    assert.notEqual(await a.baton.machine(), await b.baton.machine());
    // The cache may go at any time; the id lives beside it, in .baton-live/.
    fs.rmSync(path.join(a.root, '.baton'), { recursive: true, force: true });
    assert.equal(await machineId(a.root), ids[0]);
  });

  it("folds only this machine's notes of the agent: another machine's, arrived by sync under the same name, stay open", async () => {
    await a.baton.note('kestrel', 'claude-code', 'a: tried the cache');
    await b.baton.note('kestrel', 'claude-code', 'b: half-way through the migration');
    arrive(b, a);
    a.advance(60);
    const r = await a.baton.commit({ scope: 'kestrel', agent: 'claude-code', fields: { task: 'cache' } });
    assert.equal(r.folded, 1);
    assert.match(r.checkpoint.state, /- a: tried the cache/);
    assert.doesNotMatch(r.checkpoint.state, /b: half-way/);
    const file = a.read(`${r.checkpoint.slug}.md`);
    assert.match(file, new RegExp(`^machine: ${await a.baton.machine()}$`, 'm'));
    // b's note is still open here, under b's machine, and b's own checkpoint will fold it.
    const left = (await a.baton.sessions('kestrel')).uncommitted;
    assert.deepEqual(
      left.map((n) => [n.text, n.machine]),
      [['b: half-way through the migration', await b.baton.machine()]],
    );
    assert.deepEqual(noteLines(a), noteLines(b));
  });

  it("never folds another machine's silent session by the 30-minute grace; a dead agent on this machine still is", async () => {
    await b.baton.note('kestrel', 'cursor', 'b: cursor went quiet');
    arrive(b, a);
    await a.baton.note('kestrel', 'cursor', 'a: cursor went quiet too');
    a.advance(3600);
    const r = await a.baton.commit({ scope: 'kestrel', agent: 'claude-code', fields: { task: 't' } });
    assert.match(r.checkpoint.state, /- \(cursor\) a: cursor went quiet too/);
    assert.doesNotMatch(r.checkpoint.state, /b: cursor/);
    assert.deepEqual(
      (await a.baton.sessions('kestrel')).uncommitted.map((n) => n.text),
      ['b: cursor went quiet'],
    );
  });

  it("lists another machine's silent session as abandoned there, saying whose, and lets anyone close it", async () => {
    await a.baton.note('kestrel', 'claude-code', 'a: mine');
    await b.baton.note('kestrel', 'claude-code', 'b: theirs');
    arrive(b, a);
    a.advance(7 * 3600);
    const here = await a.baton.machine();
    const there = await b.baton.machine();
    const view = await a.baton.sessions('kestrel');
    assert.deepEqual(
      view.abandoned.map((x) => [x.machine, x.whose]).sort(),
      [
        [here, 'this machine'],
        [there, `machine ${there.slice(0, 8)}`],
      ].sort(),
    );
    assert.match(renderSessions(view, a.clock.t, { listNotes: true, closeCommand: true }), new RegExp(`claude-code, machine ${there.slice(0, 8)}, 1 notes`));
    const across = await a.baton.abandoned();
    assert.deepEqual(across.map((x) => x.whose).sort(), ['machine ' + there.slice(0, 8), 'this machine'].sort());
    // Both sessions began in the same second: the same id. The close takes one, the other stays.
    const id = view.abandoned[0].session;
    const closed = await a.baton.closeAbandoned('kestrel', id);
    assert.equal(closed.autoClosed, true);
    assert.equal((await a.baton.sessions('kestrel')).uncommitted.length, 1);
    assert.equal(closed.extra.machine, view.abandoned[0].machine, 'the auto-closed checkpoint says whose work it was');
  });

  it('shows the other machines\' live sessions in the hand-over as "also working now"', async () => {
    await b.baton.note('kestrel', 'claude-code', 'b: at work');
    arrive(b, a);
    a.advance(120);
    const view = await a.baton.resume('kestrel');
    const there = (await b.baton.machine()).slice(0, 8);
    assert.equal(view.othersWorking?.length, 1);
    assert.match(renderHandover(view, a.clock.t), new RegExp(`Also working now, on other machines \\(1\\)[^\\n]*\\n  - claude-code on machine ${there} \\(1 notes, last 2m ago`));
    // Alone on one machine, nothing of the kind is said.
    const alone = await b.baton.resume('kestrel');
    assert.doesNotMatch(renderHandover(alone, b.clock.t), /Also working now|machine/);
  });

  it('reads lines without an origin as before: one session per agent, folded by that agent on any machine', async () => {
    fs.mkdirSync(path.join(a.root, 'sessions', 'kestrel'), { recursive: true });
    const old = [
      `- an old claude note <!-- ts=${a.clock.t - 100} agent=claude -->`,
      `- an old cursor note <!-- ts=${a.clock.t - 90} agent=cursor -->`,
      `- an old gemini note, silent an hour <!-- ts=${a.clock.t - 4000} agent=gemini -->`,
    ];
    fs.writeFileSync(path.join(a.root, NOTES), `# uncommitted — kestrel\n\n${old.join('\n')}\n`);
    await a.baton.note('kestrel', 'claude', 'a new claude note');
    const view = await a.baton.sessions('kestrel');
    assert.deepEqual(
      view.uncommitted.map((n) => n.machine ?? ''),
      ['', '', '', await a.baton.machine()],
    );
    const r = await a.baton.commit({ scope: 'kestrel', agent: 'claude', fields: { task: 't' } });
    assert.match(r.checkpoint.state, /- an old claude note\n.*\n?- a new claude note/s);
    assert.match(r.checkpoint.state, /\(gemini\) an old gemini note, silent an hour/);
    assert.deepEqual(noteLines(a), [old[1]], 'the parallel cursor keeps its note; the origin-less line is kept byte for byte');
  });

  it('keeps unknown keys of a later writer in a note line and ignores them', async () => {
    const line = `- later <!-- machine=0123456789abcdef future_key=x agent_session=s1 --> <!-- ts=1755181927 agent=claude -->`;
    assert.deepEqual(parseNotes(line), [{ text: 'later', agent: 'claude', ts: 1755181927, machine: '0123456789abcdef', agentSession: 's1' }]);
    assert.equal(renderNoteLine({ text: 'later', agent: 'claude', ts: 1755181927, machine: '0123456789abcdef', agentSession: 's1' }).trimEnd(), line.replace(' future_key=x', ''));
    // Lines written while the origin followed `agent` (this format's first weeks) read the same.
    const inline = `- later <!-- ts=1755181927 agent=claude machine=0123456789abcdef future_key=x agent_session=s1 -->`;
    assert.deepEqual(parseNotes(inline), parseNotes(line));
    // A forged value (no Baton id) is no origin: the line reads as a note without one.
    assert.deepEqual(parseNotes('- x <!-- ts=1 agent=claude machine=\u001b[31m -->'), [{ text: 'x', agent: 'claude', ts: 1 }]);
    // A comment of a person's own before the metadata, naming no origin, stays their text.
    assert.deepEqual(parseNotes('- x <!-- todo=later --> <!-- ts=1 agent=claude -->'), [{ text: 'x <!-- todo=later -->', agent: 'claude', ts: 1 }]);
  });

  it('writes note lines an older Baton still reads as notes: the metadata comment is as it always was, last on the line', async () => {
    // The pattern of the Baton before issue 25 (src/adapters/markdown/notesFile.ts at 28cc226), and its unescaping.
    const OLDER = /^[ \t]*[-*+][ \t]+([^\n]*)[ \t]*<!--[ \t]*ts=([0-9]+)[ \t]+agent=(\S*)[ \t]*-->[ \t]*$/;
    await a.baton.note('kestrel', 'claude-code', 'the <!-- cache --> is stale', undefined, { agentSession: 's-1' });
    await a.baton.recordEdits('kestrel', 'claude-code', ['src/cart.ts'], undefined, { agentSession: 's-1' });
    const lines = noteLines(a);
    assert.equal(lines.length, 2);
    for (const l of lines) {
      const m = OLDER.exec(l);
      assert.ok(m, `an older Baton drops this line: ${l}`);
      assert.equal(m[3], 'claude-code');
      assert.equal(Number(m[2]), a.clock.t);
      // Its text keeps the note's words first; the origin's comment after them is hidden by a markdown preview.
      assert.match(m[1], /^(the <\\!-- cache --> is stale|edited: src\/cart\.ts) <!-- machine=[0-9a-f]{16} agent_session=s-1 --> $/);
    }
  });

  it('reads a line of 100,000 spaces, or of 100,000 comment openings, in linear time (it arrives by sync)', () => {
    // The one-pattern reader backtracked cubically on blanks: 1,000 spaces took 0.8 s, 10,000 minutes.
    const hostile = [
      '- ' + ' '.repeat(100_000) + 'x',
      '- a' + ' '.repeat(100_000) + '<!-- ts=1 agent=x --> y',
      '- ' + '<!-- '.repeat(20_000),
      '- ' + '<!-- a=b '.repeat(10_000) + '<!-- ts=1 agent=x -->',
    ];
    const notes = parseNotes(hostile.join('\n') + '\n- kept <!-- ts=2 agent=claude -->');
    assert.deepEqual(
      notes.map((n) => n.text.slice(0, 12)),
      ['<!-- a=b <!-', 'kept'],
    );
  });

  it('says whose in the hover, the line blame and the hand-over where a file or project was written from several machines, never for a person alone', () => {
    const [HERE, THERE] = ['aaaaaaaaaaaaaaaa', 'bbbbbbbbbbbbbbbb'];
    const now = 1_800_000_000;
    const entryOf = (session: string, machine?: string) => {
      const cp = makeCheckpoint({ session, project: 'kestrel', agent: 'claude-code', ts: now - 60, extra: machine ? { machine } : {} });
      return { touch: { session, project: 'kestrel', agent: 'claude-code', task: cp.task, matched: 'a.ts', ts: cp.ts, slug: cp.slug }, checkpoint: cp, changedSince: false };
    };
    const plain = (blocks: HoverBlock[]): string => blocks.map((b) => (b.kind === 'command' ? b.label : b.value)).join('');
    const team = plain(buildHover({ entries: [entryOf('s2', THERE), entryOf('s1', HERE)], total: 2, now, file: 'f', here: HERE }));
    assert.match(team, /claude-code · machine bbbbbbbb · /);
    assert.match(team, /claude-code · this machine · /);
    const alone = plain(buildHover({ entries: [entryOf('s2', HERE), entryOf('s1')], total: 2, now, file: 'f', here: HERE }));
    assert.doesNotMatch(alone, /machine/, 'one machine (and origin-less checkpoints): the hover is as it always was');
    // A teammate's checkpoints alone still say whose: they and this machine are two.
    assert.match(plain(buildHover({ entries: [entryOf('s2', THERE)], total: 1, now, file: 'f', here: HERE })), /machine bbbbbbbb/);
    // A forged machine in a checkpoint's frontmatter is no machine, and never reaches the hover raw.
    assert.equal(machineOf({ machine: '[x](command:evil)' }), undefined);
    const cp = entryOf('s3', THERE).checkpoint;
    const whose = whoseAmong([machineOf(cp.extra), HERE], HERE)(machineOf(cp.extra));
    assert.match(plain(buildLineHover({ checkpoint: cp, start: 1, end: 2, now, changedSince: false, whose })), /claude-code · machine bbbbbbbb · /);
    // The hand-over: open notes of two machines say whose each is; the latest checkpoint's machine when its thread spans two.
    const notes = [
      { text: 'mine', agent: 'claude-code', ts: now - 30, session: 'x', machine: HERE },
      { text: 'theirs', agent: 'claude-code', ts: now - 20, session: 'y', machine: THERE },
    ];
    const latest = makeCheckpoint({ session: 's9', project: 'kestrel', agent: 'claude-code', ts: now - 10, failed: ['their dead end'], extra: { machine: THERE } });
    const earlier = makeCheckpoint({ session: 's8', project: 'kestrel', agent: 'claude-code', ts: now - 100, failed: ['my dead end'], extra: { machine: HERE } });
    const text = renderHandover({ project: 'kestrel', latest, uncommitted: notes, abandoned: [], thread: threadOf([latest, earlier]) }, now);
    assert.match(text, /Latest checkpoint s9 by claude-code \(machine bbbbbbbb\)/);
    assert.match(text, /- claude-code \(machine aaaaaaaa\), .* ago:\n {4}> mine/);
    const solo = renderHandover({ project: 'kestrel', latest: earlier, uncommitted: notes.slice(0, 1), abandoned: [], thread: threadOf([earlier]) }, now);
    assert.doesNotMatch(solo, /machine/);
  });

  it("merges two machines' same words in the same second as two notes, each origin kept", () => {
    const base = Buffer.from('');
    const ours = Buffer.from(renderNoteLine({ text: 'ran npm test', agent: 'claude', ts: 5, machine: 'aaaaaaaaaaaaaaaa' }));
    const theirs = Buffer.from(renderNoteLine({ text: 'ran npm test', agent: 'claude', ts: 5, machine: 'bbbbbbbbbbbbbbbb' }));
    const merged = parseNotes(mergeNotes(base, ours, theirs)?.toString('utf8') ?? '');
    assert.deepEqual(
      merged.map((n) => n.machine),
      ['aaaaaaaaaaaaaaaa', 'bbbbbbbbbbbbbbbb'],
    );
  });

  it("reads Logos's checkpoint with no origin, and a Baton re-render with one keeps every Logos key", async () => {
    const text = fs.readFileSync(LOGOS, 'utf8');
    const cp = parseCheckpoint(text, '20260814-143207-claude', 'kestrel');
    assert.equal(cp.extra.machine, undefined);
    const withOrigin = renderCheckpoint({ ...cp, extra: { ...cp.extra, machine: '0123456789abcdef', agent_session: 'abc' } });
    const again = parseCheckpoint(withOrigin, cp.session, 'kestrel');
    assert.deepEqual({ ...again, extra: {} }, { ...cp, extra: {} });
    assert.deepEqual(again.extra, { machine: '0123456789abcdef', agent_session: 'abc' });
    // The contract's keys still come first, in Logos's order; Baton's after them.
    const keys = withOrigin
      .slice(4, withOrigin.indexOf('\n---\n'))
      .split('\n')
      .flatMap((l) => /^([a-z_]+):/.exec(l)?.[1] ?? []);
    assert.ok(keys.indexOf('machine') > keys.indexOf('checkpointed'), keys.join(', '));
    // And a checkpoint Baton writes over a vault holding it reads it as before.
    fs.mkdirSync(path.join(a.root, 'sessions', 'kestrel'), { recursive: true });
    fs.copyFileSync(LOGOS, path.join(a.root, 'sessions', 'kestrel', '20260814-143207-claude.md'));
    const r = await a.baton.commit({ scope: 'kestrel', agent: 'claude', fields: { task: 'after logos' } });
    assert.equal(r.checkpoint.follows, '20260814-143207-claude');
  });
});

describe("a person's own agent name (baton.agentName unset)", () => {
  it('is their git user.name, else their login, else "human"', () => {
    assert.equal(personAgentName('Ana López', 'ana'), 'Ana López');
    assert.equal(personAgentName('', 'ana'), 'ana');
    assert.equal(personAgentName('  ', ''), 'human');
    assert.equal(personAgentName('🚀', 'ana'), 'ana', 'a name no file name can be made of is passed over');
    assert.equal(personAgentName('ghp_0123456789abcdefghijklmnopqrstuvwxyzAB', 'ana'), 'ana', 'nor one that looks like a secret');
  });

  it('reads the real git config of the person', () => {
    const home = tempDir('baton-person-');
    try {
      const env = { ...process.env, HOME: home, GIT_CONFIG_GLOBAL: path.join(home, '.gitconfig'), GIT_CONFIG_NOSYSTEM: '1' };
      execFileSync('git', ['config', '--global', 'user.name', 'Ana López'], { env });
      assert.equal(personNameNow(env, home), 'Ana López');
      fs.rmSync(path.join(home, '.gitconfig'));
      assert.notEqual(personNameNow(env, home), 'Ana López');
      assert.notEqual(personNameNow(env, home), '');
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});
