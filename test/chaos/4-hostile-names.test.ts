// Scenario 4: hostile names. Each name below is tried as a project, a worktree,
// an agent (which names checkpoint and plan files), a hand-off target, a
// session id to close, an agent's own session id in a hook payload, and the
// content of a `.baton-project` marker. Whatever happens, nothing is written
// outside the vault (the parent folder is compared before and after, and the
// absolute paths the names aim at are checked), every folder and file name
// Baton makes is a safe segment, and each attempt either works and reads back
// or fails with the documented reason.
import { strict as assert } from 'assert';
import { randomBytes } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { projectNameOf } from '../../src/adapters/git/projectName';
import { openBaton } from '../../src/app/openBaton';
import { BatonError } from '../../src/core/errors';
import { execFileSync } from 'child_process';
import { ensureBuilt, log, parseJson, pool, removeTree, run, tempRoot, walk, type RunResult } from './support';

// A scope deeper than project/worktree ("a/b/c/d", "C:\\Windows\\System32") is refused, not cut.
const DOCUMENTED = /has no letters or digits to make a filename from|a project is needed|a scope has at most two parts/i;
/** A path segment Baton may create under sessions/: letters, digits, marks and dashes, at most 255 bytes. */
const SAFE_SEGMENT = /^[\p{L}\p{N}\p{M}][\p{L}\p{N}\p{M}-]*$/u;
const NAME_MAX = 255;

function hostileNames(parent: string, escape: string): string[] {
  return [
    '..',
    '../..',
    '../../escaped',
    `../../../../../../../..${escape}`,
    '/etc/passwd',
    path.join(parent, 'escaped-abs'),
    escape,
    'C:\\Windows\\System32',
    '..\\..\\escaped-win',
    '\\\\server\\share\\x',
    '.',
    './.',
    '~',
    '~/x',
    '$HOME',
    '`touch pwned`',
    '$(touch pwned)',
    'a/b/c/d',
    'kestrel/../../escaped',
    'CON',
    'NUL',
    'COM1',
    'LPT9',
    'aux.txt',
    'con.',
    'PRN ',
    ' ',
    '\t\n',
    '\u0001\u0002\u0003',
    'a\u0007b',
    '\u001b[31mred\u001b[0m',
    'x'.repeat(4096),
    'é'.repeat(2048),
    '𝔘'.repeat(1024),
    '日本語プロジェクト',
    'Кестрел',
    'مشروع',
    '\u202eevil\u202c',
    'a\u200fb',
    'שלום/עולם',
    'हिन्दी',
    'e\u0301',
    '🚀',
    '!!!',
    '---',
    '...',
    `${'a'.repeat(300)}/${'b'.repeat(300)}`,
    'İstanbul',
    'ǅemal',
    '\ufeffbom',
    'Kestrel One',
    'kestrel_one',
    '%2e%2e%2fescaped',
    'file:///etc/passwd',
    '\ud800',
    'a:b',
    'name.md',
    'plans',
    'uncommitted',
    '-rf',
    '--vault=/tmp',
    'x'.repeat(250),
    'ä'.repeat(130),
  ];
}

interface Attempt {
  role: string;
  name: string;
  r: RunResult;
  ok: (r: RunResult) => Promise<string | null>;
}

const show = (s: string): string => JSON.stringify(s.length > 60 ? `${s.slice(0, 40)}…(${s.length} chars)` : s);

describe('chaos 4: hostile project, worktree, agent and session names', function () {
  this.timeout(10 * 60_000);
  let parent: string;
  let vault: string;
  let work: string;
  let escape: string;

  before(() => ensureBuilt());
  beforeEach(() => {
    parent = tempRoot('baton-chaos4-');
    vault = path.join(parent, 'vault');
    work = path.join(parent, 'work');
    fs.mkdirSync(work);
    escape = path.join(os.tmpdir(), `baton-escape-${randomBytes(4).toString('hex')}`);
  });
  afterEach(() => {
    removeTree(parent);
    fs.rmSync(escape, { recursive: true, force: true });
  });

  it('never writes outside the vault, and each name works and reads back or fails with the documented reason', async () => {
    const all = hostileNames(parent, escape);
    const limit = Number(process.env.CHAOS_NAMES ?? all.length); // a quicker local run; CI tries them all
    const names = all.slice(0, limit);
    if (limit >= all.length) assert.ok(names.length >= 50);
    // Markers are set up first, so they are part of the "before" picture.
    const markerDirs = names.map((name, i) => {
      if (/[\n\r\0]/.test(name)) return null;
      const dir = path.join(work, `m${i}`);
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, '.baton-project'), `# a hostile marker\n${name}\n`);
      return dir;
    });
    const before = walk(parent).filter((e) => !e.rel.startsWith('vault'));
    const baseline = await run(['note', '--project=kestrel', '--agent=claude', 'baseline'], { vault, cwd: work });
    assert.ok(baseline.acked, baseline.stderr);

    const attempts: Attempt[] = [];
    const tasks: (() => Promise<void>)[] = [];
    const attempt = (role: string, name: string, args: string[], ok: Attempt['ok'], extra: { cwd?: string; input?: string; env?: NodeJS.ProcessEnv } = {}): void => {
      tasks.push(async () => {
        const r = await run(args, { vault, cwd: extra.cwd ?? work, input: extra.input, env: extra.env });
        attempts.push({ role, name, r, ok });
      });
    };
    // Reading back goes through the core in this process (the writes are the
    // CLI's): half the processes, and the same answer `baton sessions` gives.
    const core = openBaton(vault);
    // A blank --project is no project given: the CLI then uses the folder's.
    const notesOf = async (project: string, cwd = work): Promise<string[]> => {
      const found = projectNameOf(cwd);
      const scope = project.trim() ? project : found ? (found.worktree ? `${found.project}/${found.worktree}` : found.project) : '';
      return (await core.sessions(scope)).uncommitted.map((n) => n.text);
    };

    names.forEach((name, i) => {
      const text = `hostile-note-${i}`;
      // Notes are written by "noter", who never commits, so no checkpoint below folds them away.
      attempt('project', name, ['note', `--project=${name}`, '--agent=noter', text], async () => ((await notesOf(name)).includes(text) ? null : 'the note does not read back'));
      attempt('worktree', name, ['note', `--project=kestrel/${name}`, '--agent=noter', `${text}-wt`], async () =>
        (await notesOf(`kestrel/${name}`)).includes(`${text}-wt`) ? null : 'the note does not read back',
      );
      attempt('agent and hand-off', name, ['checkpoint', '--project=kestrel', `--agent=${name}`, `--handoff=${name}`, '--task', `hostile-task-${i}`, '--json'], async (r) => {
        const { path: file } = parseJson<{ path: string }>(r, 'checkpoint');
        const found = (await core.history('kestrel')).some((c) => c.task === `hostile-task-${i}`);
        return fs.existsSync(file) && found ? null : 'the checkpoint does not read back';
      });
      attempt(
        'plan agent',
        name,
        ['plan', '--project=kestrel', `--agent=${name}`, '--json'],
        async (r) => {
          const { slug } = parseJson<{ slug: string }>(r, 'plan');
          const found = (await core.plans('kestrel')).some((p) => p.slug === slug && p.text === `hostile plan ${i}`);
          return fs.existsSync(path.join(vault, `${slug}.md`)) && found ? null : 'the plan does not read back';
        },
        { input: `hostile plan ${i}` },
      );
      attempt('session id to close', name, ['sessions', 'kestrel', `--close=${name}`], async () => 'closing a session that does not exist succeeded');
      const payload = JSON.stringify({ session_id: `${name}\u0000nul`, cwd: work, hook_event_name: 'SessionStart', source: 'startup' });
      attempt('hook session id', name, ['hook', 'claude-code', 'session-start'], async () => null, { input: payload, env: { BATON_PROJECT: 'kestrel' } });
      const marker = markerDirs[i];
      if (marker) {
        attempt(
          'marker',
          name,
          ['note', '--agent=noter', `${text}-marker`],
          async () => ((await notesOf('', marker)).includes(`${text}-marker`) ? null : 'the note does not read back'),
          { cwd: marker },
        );
      }
    });
    const t0 = Date.now();
    await pool(8, tasks);
    log(`${attempts.length} attempts with ${names.length} names in ${((Date.now() - t0) / 1000).toFixed(1)}s`);

    // ---- each attempt worked and reads back, or failed for the documented reason
    const problems: string[] = [];
    let worked = 0;
    let refused = 0;
    for (const a of attempts) {
      const what = `${a.role} ${show(a.name)}`;
      if (a.role === 'session id to close') {
        if (a.r.code !== 1 || !/No open session|already closed/.test(a.r.stderr)) problems.push(`${what}: exit ${a.r.code} ${a.r.stderr.trim().slice(0, 300)}`);
        continue;
      }
      if (a.role === 'hook session id') {
        if (a.r.code !== 0) problems.push(`${what}: a hook must always exit 0, got ${a.r.code}`);
        continue;
      }
      if (a.r.acked) {
        worked++;
        const why = await a.ok(a.r);
        if (why) problems.push(`${what}: ${why}`);
      } else if (a.r.code === 1 && DOCUMENTED.test(a.r.stderr)) {
        refused++;
      } else {
        problems.push(`${what}: exit ${a.r.code} ${a.r.stderr.trim().split('\n').slice(0, 3).join(' | ').slice(0, 300)}`);
      }
    }
    log(`${worked} worked and read back, ${refused} refused with the documented reason`);

    // ---- nothing outside the vault changed; nothing reached the places the names aim at
    const after = walk(parent).filter((e) => !e.rel.startsWith('vault'));
    const key = (e: { rel: string; dir: boolean }): string => `${e.rel}${e.dir ? '/' : ''}`;
    const added = after.map(key).filter((k) => !before.map(key).includes(k));
    problems.push(...added.map((k) => `written outside the vault: ${k}`));
    for (const p of [escape, '/etc/passwd.md', path.join(parent, 'escaped'), path.join(parent, 'escaped-abs'), path.join(os.tmpdir(), 'escaped')]) {
      if (fs.existsSync(p) && p !== '/etc/passwd.md') problems.push(`written outside the vault: ${p}`);
    }
    if (fs.existsSync('/etc/passwd.md')) problems.push('written outside the vault: /etc/passwd.md');

    // ---- every name Baton made is a safe segment
    for (const e of walk(vault)) {
      const parts = e.rel.split(path.sep);
      if (parts[0] !== 'sessions') continue;
      const dirParts = e.dir ? parts.slice(1) : parts.slice(1, -1);
      for (const seg of dirParts) {
        if (!SAFE_SEGMENT.test(seg) || Buffer.byteLength(seg) > NAME_MAX) problems.push(`unsafe folder name ${show(seg)}`);
      }
      if (!e.dir && Buffer.byteLength(parts[parts.length - 1]) > NAME_MAX) problems.push(`file name over ${NAME_MAX} bytes: ${show(parts[parts.length - 1])}`);
      if (parts.length > 4 && !(parts.length === 5 && parts[3] === 'plans')) problems.push(`nested deeper than project/worktree: ${e.rel}`);
    }
    assert.deepEqual([...new Set(problems)].slice(0, 40), [], `${problems.length} problem(s)`);
  });

  it('a worktree is seen by every view whatever its name (even "plans", the name of the plans folder)', async () => {
    const problems: string[] = [];
    for (const wt of ['plans', 'Plans', 'feature-x']) {
      const scope = `kestrel/${wt}`;
      const n = await run(['note', `--project=${scope}`, '--agent=noter', `note in ${wt}`], { vault, cwd: work });
      const c = await run(['checkpoint', `--project=${scope}`, '--agent=claude', '--task', `task in ${wt}`, '--file', `src/${wt}.ts`], { vault, cwd: work });
      assert.ok(n.acked && c.acked, n.stderr + c.stderr);
      const cont = parseJson<{ project: string; checkpoints: number; uncommitted: number }[]>(await run(['continuity', '--json'], { vault, cwd: work }), 'continuity');
      const why = parseJson<{ task: string }[]>(await run(['why', `src/${wt}.ts`, '--json'], { vault, cwd: work }), 'why');
      const k = cont.find((p) => p.project === 'kestrel');
      if (!why.some((t) => t.task === `task in ${wt}`)) problems.push(`why does not see the checkpoint of worktree "${wt}"`);
      if (!k || k.uncommitted < 1) problems.push(`continuity does not count the notes of worktree "${wt}" (${JSON.stringify(k)})`);
      fs.rmSync(vault, { recursive: true, force: true });
    }
    assert.deepEqual(problems, []);
  });

  it('names with NUL and lone surrogates, which no command line can carry, are safe through the core too', async () => {
    const baton = openBaton(vault);
    const evil = ['nul\u0000byte', 'x\u0000/../../escaped', '\u0000', '..\u0000..', 'a\ud800b', '\udfff', `../../${path.basename(escape)}\u0000`];
    const before = walk(parent).filter((e) => !e.rel.startsWith('vault'));
    for (const name of evil) {
      for (const [role, act] of [
        ['project', () => baton.note(name, 'claude', 'text')],
        ['agent', () => baton.commit({ scope: 'kestrel', agent: name, fields: { task: 'x' } })],
        ['plan agent', () => baton.savePlan('kestrel', name, 'plan')],
        ['close', () => baton.closeAbandoned('kestrel', name)],
      ] as [string, () => Promise<unknown>][]) {
        try {
          await act();
        } catch (err) {
          const ok = err instanceof BatonError && (DOCUMENTED.test(err.message) || (role === 'close' && /No open session/.test(err.message)));
          assert.ok(ok, `${role} ${show(name)}: ${String(err)}`);
        }
      }
    }
    const after = walk(parent).filter((e) => !e.rel.startsWith('vault'));
    assert.deepEqual(after, before, 'nothing outside the vault changed');
    assert.ok(!fs.existsSync(escape));
    for (const e of walk(path.join(vault, 'sessions'))) {
      for (const seg of e.rel.split(path.sep)) assert.ok(!seg.includes('\0') && seg !== '..', `unsafe name ${show(e.rel)}`);
    }
  });
  it('refuses a time no file name can hold (year 10000, 1e20 seconds, before 1970) with a message, and writes nothing', async () => {
    const LAST = '9999-12-31T23:59:59Z';
    const bad = ['253402300800', '10000-01-01T00:00:00Z', '100000000000000000000', '9'.repeat(400), '1969-12-31T23:59:59Z', '0000-01-01'];
    const problems: string[] = [];
    for (const at of bad) {
      for (const args of [
        ['note', '--project=kestrel', '--agent=claude', `--at=${at}`, 'a note'],
        ['checkpoint', '--project=kestrel', '--agent=claude', `--at=${at}`, '--task', 'a task'],
        ['handoff', '--project=kestrel', '--agent=claude', '--to', 'cursor', `--at=${at}`, '--task', 'a task'],
        ['plan', '--project=kestrel', '--agent=claude', `--at=${at}`],
      ]) {
        const r = await run(args, { vault, cwd: work, input: 'a plan' });
        const said = r.stderr.trim();
        if (r.acked) problems.push(`${args[0]} --at=${at.slice(0, 30)} was acknowledged`);
        else if (/RangeError|\n\s+at /.test(said) || !/outside the times a vault file name can hold|is not a time/.test(said)) {
          problems.push(`${args[0]} --at=${at.slice(0, 30)}: exit ${r.code} ${said.slice(0, 200)}`);
        }
      }
    }
    const written = walk(vault).filter((e) => !e.dir && e.rel.startsWith('sessions'));
    problems.push(...written.map((e) => `written: ${e.rel}`));
    // Through the core too, where no parser stands in front (MCP, hooks and the extension call it).
    const core = openBaton(vault);
    for (const ts of [253402300800, 1e20, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      for (const [what, act] of [
        ['note', () => core.note('kestrel', 'claude', 'x', ts)],
        ['commit', () => core.commit({ scope: 'kestrel', agent: 'claude', fields: { task: 'x' }, at: ts })],
        ['plan', () => core.savePlan('kestrel', 'claude', 'x', ts)],
      ] as [string, () => Promise<unknown>][]) {
        try {
          await act();
          problems.push(`core ${what} at ${ts} was accepted`);
        } catch (err) {
          if (!(err instanceof BatonError) || !/outside the times/.test(err.message)) problems.push(`core ${what} at ${ts}: ${String(err)}`);
        }
      }
    }
    // The last second a name can hold works and reads back.
    const last = await run(['checkpoint', '--project=kestrel', '--agent=claude', `--at=${LAST}`, '--task', 'the last second', '--json'], { vault, cwd: work });
    assert.ok(last.acked, last.stderr);
    const history = await core.history('kestrel');
    if (!history.some((c) => c.task === 'the last second' && c.session.startsWith('99991231-235959'))) problems.push('the checkpoint at 9999-12-31T23:59:59Z does not read back');
    assert.deepEqual(problems, []);
  });

  it('one project whatever the spelling: café composed or decomposed, from a flag, a folder or a marker; a scope too deep is refused', async () => {
    const nfc = 'caf\u00e9';
    const nfd = 'cafe\u0301';
    const problems: string[] = [];
    const ok = async (args: string[], cwd = work): Promise<void> => {
      const r = await run(args, { vault, cwd });
      if (!r.acked) problems.push(`${args.join(' ')}: exit ${r.code} ${r.stderr.trim().slice(0, 200)}`);
    };
    await ok(['note', `--project=${nfc}`, '--agent=noter', 'composed flag']);
    await ok(['note', `--project=${nfd}`, '--agent=noter', 'decomposed flag']);
    await ok(['note', `--project=${nfd.toUpperCase()}`, `--agent=${nfd}`, 'decomposed agent']);
    const folder = path.join(work, nfd);
    fs.mkdirSync(folder);
    await ok(['note', '--agent=noter', 'decomposed folder'], folder);
    const marked = path.join(work, 'marked');
    fs.mkdirSync(marked);
    fs.writeFileSync(path.join(marked, '.baton-project'), `${nfd}\n`);
    await ok(['note', '--agent=noter', 'decomposed marker'], marked);
    // A git worktree of a decomposed repository: project and worktree in NFC.
    const repo = path.join(work, `repo-${nfd}`);
    fs.mkdirSync(repo);
    const git = (cwd: string, ...args: string[]): string =>
      execFileSync('git', args, {
        cwd,
        encoding: 'utf8',
        env: { ...process.env, GIT_AUTHOR_NAME: 'c', GIT_AUTHOR_EMAIL: 'c@x', GIT_COMMITTER_NAME: 'c', GIT_COMMITTER_EMAIL: 'c@x' },
      });
    git(repo, 'init', '-q', '-b', 'main');
    fs.writeFileSync(path.join(repo, 'a'), 'a');
    git(repo, 'add', '.');
    git(repo, 'commit', '-q', '-m', 'a');
    const wt = path.join(work, `wt-${nfd}`);
    git(repo, 'worktree', 'add', '-q', '-b', 'x', wt);
    await ok(['note', '--agent=noter', 'decomposed worktree'], wt);

    const scopes = fs.readdirSync(path.join(vault, 'sessions'));
    if (scopes.length !== 2 || !scopes.includes(nfc) || !scopes.includes(`repo-${nfc}`)) problems.push(`scope folders: ${JSON.stringify(scopes)}`);
    if (fs.existsSync(path.join(vault, 'sessions', `repo-${nfc}`)) && !fs.readdirSync(path.join(vault, 'sessions', `repo-${nfc}`)).includes(`wt-${nfc}`))
      problems.push('the worktree folder is not NFC');
    for (const e of walk(vault)) if (e.rel !== e.rel.normalize('NFC')) problems.push(`a name not in NFC: ${JSON.stringify(e.rel)}`);
    const sessions = parseJson<{ uncommitted: { text: string; agent: string }[] }>(await run(['sessions', nfd, '--json'], { vault, cwd: work }), 'sessions');
    const texts = sessions.uncommitted.map((n) => n.text).sort();
    const want = ['composed flag', 'decomposed agent', 'decomposed flag', 'decomposed folder', 'decomposed marker'];
    if (JSON.stringify(texts) !== JSON.stringify(want)) problems.push(`notes of café: ${JSON.stringify(texts)}`);
    if (!sessions.uncommitted.some((n) => n.agent === nfc)) problems.push('the decomposed agent is not the composed one');

    // Deeper than project/worktree: refused with the reason, nothing written, even through a marker.
    const before = walk(vault)
      .map((e) => e.rel)
      .sort();
    for (const deep of ['a/b/c', 'a/b/c/d', 'kestrel/wt/extra', 'C:\\Users\\me']) {
      const r = await run(['note', `--project=${deep}`, '--agent=noter', 'deep'], { vault, cwd: work });
      if (r.code !== 1 || !/a scope has at most two parts/.test(r.stderr)) problems.push(`--project=${deep}: exit ${r.code} ${r.stderr.trim().slice(0, 200)}`);
    }
    const deepMarker = path.join(work, 'deep-marker');
    fs.mkdirSync(deepMarker);
    fs.writeFileSync(path.join(deepMarker, '.baton-project'), 'org/team/kestrel\n');
    const r = await run(['note', '--agent=noter', 'deep marker'], { vault, cwd: deepMarker });
    if (r.code !== 1 || !/a scope has at most two parts/.test(r.stderr)) problems.push(`deep marker: exit ${r.code} ${r.stderr.trim().slice(0, 200)}`);
    const after = walk(vault)
      .map((e) => e.rel)
      .sort();
    if (JSON.stringify(after.filter((f) => !f.startsWith('.baton'))) !== JSON.stringify(before.filter((f) => !f.startsWith('.baton'))))
      problems.push('a deep scope wrote something');
    assert.deepEqual(problems, []);
  });
});
