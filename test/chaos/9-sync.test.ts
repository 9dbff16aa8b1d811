// Scenario 9: a vault shared through git. Clones of one bare remote, on each
// several agents writing notes, a committer folding its own notes, the same
// agent name ("claude") checkpointing the same scope in the same seconds on
// every clone, and `baton sync` running over and over on every clone while
// they write. Every clone's agents have the same names, as a team's do
// (everyone's Claude Code is `claude-code`): a note that arrived by sync is
// another machine's and no checkpoint here may fold it. Then final syncs.
// Every clone must hold the same tree, with no conflict marker and no
// unmerged path; every acknowledged note recorded exactly once (open, or
// folded into one checkpoint); no note folded into another clone's checkpoint;
// every acknowledged checkpoint present once and carrying its clone's machine;
// each checkpoint's `session:` equal to its name; `.baton/` never committed.
// Read without Baton's parsers.
import { strict as assert } from 'assert';
import { randomBytes } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { ensureBuilt, log, removeTree, run, sleep, type RunResult } from './support';
import { gitIn, notesIn, syncWorld, treeOf, type SyncWorld } from '../support/syncWorld';

const CLONES = Math.max(2, Number(process.env.CHAOS_SYNC_CLONES ?? 3));
const WRITERS = Math.max(1, Number(process.env.CHAOS_SYNC_WRITERS ?? 2));
const NOTES = Math.max(5, Number(process.env.CHAOS_SYNC_NOTES ?? 30));
const SYNCS = Math.max(2, Number(process.env.CHAOS_SYNC_SYNCS ?? 8));
const CHECKPOINTS = Math.max(2, Math.round(NOTES / 5));
const T0 = Date.UTC(2026, 8, 1, 10, 0, 0) / 1000;

describe('chaos 9: a vault shared through git, written and synced on every clone at once', function () {
  this.timeout(20 * 60_000);
  let w: SyncWorld | undefined;
  before(() => ensureBuilt());
  afterEach(function () {
    if (this.currentTest?.state === 'failed' && process.env.CHAOS_KEEP) log(`kept ${w?.root}`);
    else if (w) removeTree(w.root);
  });

  it(`${CLONES} clones × (${WRITERS} writers × ${NOTES} notes, ${CHECKPOINTS} folds, ${CHECKPOINTS} same-second checkpoints, ${SYNCS} syncs): converge, nothing lost or doubled`, async () => {
    const started = Date.now();
    const cli = (args: string[], vault: string, env: NodeJS.ProcessEnv): Promise<RunResult> => run(args, { vault, env, cwd: path.dirname(vault), timeoutMs: 120_000 });
    w = await syncWorld(CLONES, cli);
    const world = w;
    const tag = randomBytes(3).toString('hex');
    const ackedNotes = new Set<string>();
    const ackedTasks = new Set<string>();
    const problems: string[] = [];
    const renames: string[] = [];
    let syncs = 0;
    let busy = 0;
    const check = (what: string, r: RunResult): boolean => {
      if (/\n\s+at /.test(r.stderr) || r.timedOut) problems.push(`${what}: ${r.stderr.slice(0, 400)}`);
      return r.acked;
    };

    const writer = async (c: number, i: number): Promise<void> => {
      for (let k = 0; k < NOTES; k++) {
        const text = `c${c}-w${i}-n${k}-${tag}`;
        const r = await cli(['note', '-p', k % 3 ? 'kestrel' : 'kestrel/wt', '-a', `w${i}`, text], world.clones[c], world.env);
        if (check(`note ${text}`, r)) ackedNotes.add(text);
      }
    };
    // Folds its own notes, under the one name every clone's folder has: the other clones' notes of that name arrive by sync and stay theirs.
    const folder = async (c: number): Promise<void> => {
      for (let k = 0; k < CHECKPOINTS; k++) {
        const text = `c${c}-fold-n${k}-${tag}`;
        if (check(`note ${text}`, await cli(['note', '-p', 'kestrel', '-a', 'claude', text], world.clones[c], world.env))) ackedNotes.add(text);
        const task = `c${c}-fold-cp${k}-${tag}`;
        if (check(`checkpoint ${task}`, await cli(['checkpoint', '-p', 'kestrel', '-a', 'claude', '--task', task], world.clones[c], world.env))) ackedTasks.add(task);
        await sleep(Math.random() * 200);
      }
    };
    // The same agent, scope and second on every clone: the names clash by construction.
    const clasher = async (c: number): Promise<void> => {
      for (let k = 0; k < CHECKPOINTS; k++) {
        const task = `c${c}-claude-cp${k}-${tag}`;
        const at = String(T0 + k * 60);
        // A scope of their own: the clashes are all the same agent's, second for second.
        if (check(`checkpoint ${task}`, await cli(['checkpoint', '-p', 'osprey', '-a', 'claude', '--at', at, '--task', task], world.clones[c], world.env))) ackedTasks.add(task);
        await sleep(Math.random() * 300);
      }
    };
    const syncer = async (c: number): Promise<void> => {
      for (let k = 0; k < SYNCS; k++) {
        const r = await cli(['sync', '--json'], world.clones[c], world.env);
        syncs++;
        check(`sync ${c}`, r);
        const out = r.stdout.trim() ? (JSON.parse(r.stdout) as { renamed: { from: string; to: string }[]; conflicts: string[]; reason?: string }) : null;
        if (r.code !== 0) {
          // Others pushing right now, past the retries: a message, no loss; anything else is a failure.
          if (out?.reason === 'busy') busy++;
          else problems.push(`sync ${c} exit ${r.code}: ${r.stderr.slice(0, 400)}`);
        }
        for (const x of out?.renamed ?? []) renames.push(`${x.from} -> ${x.to}`);
        if (out?.conflicts.length) problems.push(`sync ${c} left conflicts: ${out.conflicts.join(', ')}`);
        await sleep(100 + Math.random() * 400);
      }
    };

    const tasks: Promise<void>[] = [];
    for (let c = 0; c < CLONES; c++) {
      for (let i = 0; i < WRITERS; i++) tasks.push(writer(c, i));
      tasks.push(folder(c), clasher(c), syncer(c));
    }
    await Promise.all(tasks);
    assert.deepEqual(problems, []);

    // Final syncs: twice round, one clone at a time, so every clone has everything.
    for (let round = 0; round < 2; round++) {
      for (const c of world.clones) {
        const r = await cli(['sync', '--json'], c, world.env);
        assert.equal(r.code, 0, `final sync of ${c}: ${r.stderr}`);
        syncs++;
        for (const x of (JSON.parse(r.stdout) as { renamed: { from: string; to: string }[] }).renamed) renames.push(`${x.from} -> ${x.to}`);
      }
    }

    const trees = world.clones.map(treeOf);
    for (const t of trees.slice(1)) assert.deepEqual([...t.keys()].sort(), [...trees[0].keys()].sort(), 'the same files on every clone');
    for (const t of trees.slice(1)) for (const [k, v] of t) assert.equal(v, trees[0].get(k), `${k} is the same on every clone`);
    for (const c of world.clones) {
      assert.equal(gitIn(c, world.env, 'ls-files', '-u'), '', `no unmerged paths in ${c}`);
      assert.equal(gitIn(c, world.env, 'status', '--porcelain'), '', `nothing uncommitted in ${c}`);
      assert.equal(gitIn(c, world.env, 'rev-parse', 'HEAD'), gitIn(world.remote, world.env, 'rev-parse', 'main'), "every clone at the remote's head");
    }
    for (const [rel, text] of trees[0]) {
      assert.ok(!/^(<{7}|>{7}|={7})( |$)/m.test(text), `conflict markers in ${rel}`);
      const m = /\/(\d{8}-[^/]*)\.md$/.exec(rel);
      if (m) assert.equal(/^session: (.*)$/m.exec(text)?.[1], m[1], `${rel}: session: equals its name`);
    }
    // Every `follows` names a checkpoint that is there: a renamed one took its followers with it.
    for (const [rel, text] of trees[0]) {
      const follows = /follows, obj: "\[\[([^\]]+)\]\]"/.exec(text)?.[1];
      if (follows) assert.ok(trees[0].has(`${path.posix.dirname(rel)}/${follows}.md`), `${rel} follows ${follows}, which is not there`);
    }
    const everCommitted = gitIn(world.remote, world.env, 'log', '--all', '--name-only', '--format=');
    assert.ok(!/^\.baton(-live)?\//m.test(everCommitted), '.baton/ or .baton-live/ was committed');

    const { open, folded } = notesIn(world.clones[0]);
    const count = new Map<string, number>();
    for (const n of [...open, ...folded].filter((x) => x.endsWith(tag) && /-n\d+-/.test(x))) count.set(n, (count.get(n) ?? 0) + 1);
    const lost = [...ackedNotes].filter((n) => !count.has(n));
    const doubled = [...count].filter(([, k]) => k > 1).map(([n]) => n);
    const unknown = [...count.keys()].filter((n) => !ackedNotes.has(n));
    const tasksSeen = new Map<string, number>();
    for (const [rel, text] of trees[0]) {
      if (!/\/\d{8}-[^/]*\.md$/.test(rel)) continue;
      const task = /## Task\n\n(.*)\n/.exec(Buffer.from(text, 'latin1').toString('utf8'))?.[1] ?? '';
      if (task.endsWith(tag)) tasksSeen.set(task, (tasksSeen.get(task) ?? 0) + 1);
    }
    const lostCps = [...ackedTasks].filter((t) => !tasksSeen.has(t));
    const doubledCps = [...tasksSeen].filter(([, k]) => k > 1).map(([t]) => t);
    // Whose each checkpoint is, by its task (`c<clone>-…`): it carries that clone's machine and folds only that clone's notes.
    const machines = world.clones.map((c) => fs.readFileSync(path.join(c, '.baton-live', 'machine-id'), 'utf8').trim());
    assert.equal(new Set(machines).size, CLONES, 'every clone is a machine of its own');
    const foreign: string[] = [];
    for (const [rel, raw] of trees[0]) {
      if (!/\/\d{8}-[^/]*\.md$/.test(rel)) continue;
      const text = Buffer.from(raw, 'latin1').toString('utf8');
      const owner = /## Task\n\nc(\d+)-.*\n/.exec(text)?.[1];
      if (owner === undefined || !text.includes(tag)) continue;
      if (/^machine: (.*)$/m.exec(text)?.[1] !== machines[Number(owner)]) foreign.push(`${rel}: machine is not clone ${owner}'s`);
      const state = /## State\n\n([\s\S]*?)(?:\n## |$)/.exec(text)?.[1] ?? '';
      for (const l of state.split('\n')) {
        const m = /^- (?:\([^)]*\) )?(c(\d+)-.*)$/.exec(l);
        if (m && m[2] !== owner) foreign.push(`${rel} (clone ${owner}) folded ${m[1]}`);
      }
    }
    log(
      `chaos 9: ${CLONES} clones, ${CLONES * (WRITERS + 2)} writers, ${syncs} syncs (${busy} gave up as busy), ${ackedNotes.size} notes acknowledged ` +
        `(${open.length} open, ${folded.filter((x) => x.endsWith(tag)).length} folded), ${ackedTasks.size} checkpoints, ${renames.length} renamed; ` +
        `lost ${lost.length}, doubled ${doubled.length}, checkpoints lost ${lostCps.length}, doubled ${doubledCps.length}, ` +
        `folded into another machine's checkpoint ${foreign.length}; ${Math.round((Date.now() - started) / 1000)} s`,
    );
    assert.deepEqual({ lost, doubled, unknown, lostCps, doubledCps, foreign }, { lost: [], doubled: [], unknown: [], lostCps: [], doubledCps: [], foreign: [] });
    assert.ok(renames.length > 0, 'the same-second checkpoints clashed and were renamed');
    assert.ok(fs.existsSync(path.join(world.clones[0], 'sessions', 'kestrel')));
  });

  it(`syncs SIGKILLed at random points while ${WRITERS} writers × ${NOTES} notes per clone write: the next syncs finish their work, nothing lost or doubled`, async () => {
    const cli = (args: string[], vault: string, env: NodeJS.ProcessEnv, killAfterMs?: number): Promise<RunResult> =>
      run(args, { vault, env, cwd: path.dirname(vault), timeoutMs: 120_000, killAfterMs });
    w = await syncWorld(2, cli);
    const world = w;
    const tag = randomBytes(3).toString('hex');
    const acked = new Set<string>();
    const problems: string[] = [];
    let killed = 0;
    const writer = async (c: number, i: number): Promise<void> => {
      for (let k = 0; k < NOTES; k++) {
        const text = `k${c}-w${i}-n${k}-${tag}`;
        const r = await cli(['note', '-p', 'kestrel', '-a', `w${i}`, text], world.clones[c], world.env);
        if (/\n\s+at /.test(r.stderr)) problems.push(`note ${text}: ${r.stderr.slice(0, 300)}`);
        if (r.acked) acked.add(text);
      }
    };
    const clasher = async (c: number): Promise<void> => {
      for (let k = 0; k < CHECKPOINTS; k++) {
        await cli(['checkpoint', '-p', 'osprey', '-a', 'claude', '--at', String(T0 + k), '--task', `k${c}-cp${k}-${tag}`], world.clones[c], world.env);
      }
    };
    const syncer = async (c: number): Promise<void> => {
      for (let k = 0; k < SYNCS * 2; k++) {
        const kill = k % 2 === 0 ? 30 + Math.random() * 800 : undefined;
        const r = await cli(['sync', '--json'], world.clones[c], world.env, kill);
        if (r.signal) killed++;
        else if (/\n\s+at /.test(r.stderr)) problems.push(`sync: ${r.stderr.slice(0, 300)}`);
        await sleep(Math.random() * 200);
      }
    };
    await Promise.all([0, 1].flatMap((c) => [...Array.from({ length: WRITERS }, (_, i) => writer(c, i)), clasher(c), syncer(c)]));
    assert.deepEqual(problems, []);
    // A killed sync's git may still be running (SIGKILL does not reach it): its index.lock makes the next git wait or fail.
    const settle = async (c: string): Promise<void> => {
      for (let attempt = 0; ; attempt++) {
        const r = await cli(['sync', '--json'], c, world.env);
        if (r.code === 0) return;
        assert.ok(attempt < 10 && /index\.lock|moved on/.test(r.stderr), `final sync of ${c}: ${r.stderr}`);
        await sleep(1000);
      }
    };
    for (let round = 0; round < 2; round++) for (const c of world.clones) await settle(c);
    const trees = world.clones.map(treeOf);
    assert.deepEqual([...trees[1]].sort(), [...trees[0]].sort(), 'both clones hold the same tree');
    for (const c of world.clones) assert.equal(gitIn(c, world.env, 'status', '--porcelain'), '');
    const { open, folded } = notesIn(world.clones[0]);
    const seen = new Map<string, number>();
    for (const n of [...open, ...folded].filter((x) => x.endsWith(tag))) seen.set(n, (seen.get(n) ?? 0) + 1);
    const lost = [...acked].filter((n) => !seen.has(n));
    const doubled = [...seen].filter(([, k]) => k > 1).map(([n]) => n);
    const tasks = [...trees[0].values()].map((t) => /## Task\n\n(.*)\n/.exec(t)?.[1] ?? '').filter((t) => t.endsWith(tag));
    log(
      `chaos 9 (killed syncs): ${killed} syncs killed, ${acked.size} notes acknowledged; lost ${lost.length}, doubled ${doubled.length}; ${tasks.length} of ${2 * CHECKPOINTS} checkpoints`,
    );
    assert.deepEqual({ lost, doubled }, { lost: [], doubled: [] });
    assert.equal(new Set(tasks).size, tasks.length, 'no checkpoint twice');
    assert.equal(tasks.length, 2 * CHECKPOINTS, 'every checkpoint there');
    for (const [rel, text] of trees[0]) {
      const m = /\/(\d{8}-[^/]*)\.md$/.exec(rel);
      if (m) assert.equal(/^session: (.*)$/m.exec(text)?.[1], m[1], `${rel}: session: equals its name`);
    }
  });
});
