// The use cases of src/app, each run on the real adapters: real files in a
// temporary vault, real sql.js, real git repositories and worktrees.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { checkpointFields } from '../../src/app/checkpointFields';
import { commitCheckpoint, gitStateOf } from '../../src/app/commit';
import { openBaton } from '../../src/app/openBaton';
import { resume } from '../../src/app/resume';
import { resolveScope, scopeOfFolder } from '../../src/app/scope';
import { vaultStats } from '../../src/app/sessionStats';
import { findVaultFlag, vaultFlagAt } from '../../src/app/vaultLocation';
import { basicMemorySessionsOf, why } from '../../src/app/why';
import { readResumes } from '../../src/adapters/resumeLog';
import { BatonError } from '../../src/core/errors';
import { emptyGit } from '../../src/core/model';
import { git, gitRepo } from './support/gitRepo';
import { T0, tempDir, tempVault, type TempVault } from './support/tempVault';

describe('app: open Baton for a vault', () => {
  let v: TempVault;
  beforeEach(() => (v = tempVault()));
  afterEach(() => v.cleanup());

  it('announces every write with its scope, a refused one too (its caches may be stale all the same)', async () => {
    const heard: string[] = [];
    const baton = openBaton(v.root, { clock: v.clock, onWrite: (scope) => heard.push(scope) });
    await baton.note('kestrel', 'claude', 'tried the cache');
    await baton.commit({ scope: 'kestrel/wt-one', agent: 'claude', fields: { task: 'speed up' } });
    await baton.savePlan('osprey', 'claude', '1. do it');
    await assert.rejects(baton.commit({ scope: 'heron', agent: 'claude', fields: {} }), BatonError);
    assert.deepEqual(heard, ['kestrel', 'kestrel/wt-one', 'osprey', 'heron']);
    // Reads announce nothing.
    await baton.resume('kestrel');
    await baton.continuity();
    assert.equal(heard.length, 4);
  });

  it('takes the clock it is given', async () => {
    const baton = openBaton(v.root, { clock: v.clock });
    const r = await baton.note('kestrel', 'claude', 'stamped by the test clock');
    assert.equal(r.note.ts, T0);
  });
});

describe('app: the scope of a folder', () => {
  let dir: string;
  beforeEach(() => (dir = fs.realpathSync(tempDir('baton-scope-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('names a repository by its main worktree and a linked worktree as project/worktree', () => {
    const repo = gitRepo(dir, 'Kestrel App');
    git(repo, 'worktree', 'add', '-q', path.join(dir, 'wt-one'), '-b', 'wt-one');
    assert.equal(scopeOfFolder(repo), 'kestrel-app');
    assert.equal(scopeOfFolder(path.join(dir, 'wt-one')), 'kestrel-app/wt-one');
    assert.equal(scopeOfFolder(os.homedir()), null);
  });

  it('prefers the name given, then BATON_PROJECT, then the first folder that has a project', () => {
    const repo = gitRepo(dir, 'kestrel');
    const other = gitRepo(dir, 'osprey');
    assert.deepEqual(resolveScope({ given: ' Kestrel ', env: { BATON_PROJECT: 'osprey' }, folders: [other, repo] }), { scope: 'kestrel', folder: repo });
    assert.deepEqual(resolveScope({ given: '  ', env: { BATON_PROJECT: 'osprey' }, folders: [repo, other] }), { scope: 'osprey', folder: other });
    assert.deepEqual(resolveScope({ env: {}, folders: [undefined, os.homedir(), other] }), { scope: 'osprey', folder: other });
    assert.equal(resolveScope({ env: {}, folders: [os.homedir(), null] }), null);
  });

  it('gives no folder for a named scope that no folder is: git state is never read from another repository', () => {
    const repo = gitRepo(dir, 'kestrel');
    assert.deepEqual(resolveScope({ given: 'heron', env: {}, folders: [repo] }), { scope: 'heron', folder: null });
  });
});

describe('app: checkpoint fields from loose input', () => {
  it('reads the model names and drops what is not text', () => {
    const f = checkpointFields({ task: 'fix it', next: 42, failed: ['none', 7, 'the mock'], files: 'a.ts', decisions: [' kept sql.js '] });
    assert.deepEqual(f, {
      task: 'fix it',
      intent: '',
      state: '',
      next: '',
      decisions: [' kept sql.js '],
      failed: ['none', 'the mock'],
      verified: [],
      blockers: [],
      commands: [],
      questions: [],
      files: [],
    });
  });

  it('typed: lists from one string of ;-separated items, everything trimmed, empty items dropped', () => {
    const f = checkpointFields({ task: '  fix it ', failed: 'the mock; ;retrying ', files: [' a.ts', ''] }, { typed: true });
    assert.equal(f.task, 'fix it');
    assert.deepEqual(f.failed, ['the mock', 'retrying']);
    assert.deepEqual(f.files, ['a.ts']);
  });
});

describe('app: the commit recipe every door follows', () => {
  let v: TempVault;
  let dir: string;
  beforeEach(() => {
    v = tempVault();
    dir = fs.realpathSync(tempDir('baton-commit-'));
  });
  afterEach(() => {
    v.cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('drops the placeholders from an agent\'s "failed", says so, and records the folder\'s git state and the commits its session made', async () => {
    const repo = gitRepo(dir, 'kestrel', 'fix-cart');
    // The session began before the repository's one commit (made now, T0 is in the past).
    await v.baton.note('kestrel', 'claude', 'started on the cart', T0 - 60);
    const r = await commitCheckpoint(v.baton, {
      scope: 'kestrel',
      agent: 'claude',
      fields: checkpointFields({ task: 'fix the cart', failed: ['None.', 'the stripe mock: no replay', 'n/a'] }),
      folder: repo,
      byAgent: true,
    });
    assert.deepEqual(r.placeholdersDropped, ['None.', 'n/a']);
    assert.match(r.placeholderNotice, /^Left out 2 placeholder\(s\) from "failed"/);
    const [cp] = await v.baton.history('kestrel');
    assert.deepEqual(cp.failed, ['the stripe mock: no replay']);
    assert.equal(cp.git.branch, 'fix-cart');
    assert.equal(cp.git.commit, git(repo, 'rev-parse', '--short', 'HEAD'));
    assert.deepEqual(cp.extra.commits, [git(repo, 'rev-parse', '--short', 'HEAD')]);
  });

  it('keeps what a person wrote in "failed" as written', async () => {
    const r = await commitCheckpoint(v.baton, { scope: 'kestrel', agent: 'ana', fields: { task: 'triage', failed: ['none'] } });
    assert.deepEqual(r.placeholdersDropped, []);
    assert.equal(r.placeholderNotice, '');
    assert.deepEqual((await v.baton.history('kestrel'))[0].failed, ['none']);
  });

  it('says when "failed" held only placeholders, and counts the secrets it masked', async () => {
    const token = `sk-${'A1b2C3d4E5'.repeat(3)}`;
    const r = await commitCheckpoint(v.baton, { scope: 'kestrel', agent: 'claude', fields: { task: `rotate ${token}`, failed: ['none'] }, byAgent: true });
    assert.match(r.placeholderNotice, /held only placeholders/);
    assert.equal(r.redactions, 1);
    assert.ok(!v.read(path.relative(v.root, r.path)).includes(token));
  });

  it('records no git state without a folder that is the project, and runs no git where git may not run', async () => {
    const repo = gitRepo(dir, 'kestrel');
    await v.baton.note('kestrel', 'claude', 'started', T0 - 60);
    await commitCheckpoint(v.baton, { scope: 'kestrel', agent: 'claude', fields: { task: 'elsewhere' }, folder: null });
    await commitCheckpoint(v.baton, { scope: 'kestrel', agent: 'claude', fields: { task: 'untrusted' }, folder: repo, gitAllowed: false, at: T0 + 1 });
    const [untrusted, elsewhere] = await v.baton.history('kestrel');
    assert.deepEqual(elsewhere.git, emptyGit());
    assert.deepEqual(untrusted.git, { ...emptyGit(), unreadable: true });
    assert.equal(untrusted.extra.commits, undefined);
    assert.deepEqual(await gitStateOf(null), emptyGit());
  });
});

describe('app: resume counts itself', () => {
  let v: TempVault;
  beforeEach(() => (v = tempVault()));
  afterEach(() => v.cleanup());

  it('records each resume for baton stats, and a hook only when there was a hand-over', async () => {
    await resume(v.baton, 'kestrel', { agent: 'claude-code', via: 'hook', now: T0, onlyWithHandover: true });
    assert.deepEqual(readResumes(v.root), []);
    await v.baton.commit({ scope: 'kestrel', agent: 'codex', fields: { task: 'ship it' } });
    const view = await resume(v.baton, 'kestrel', { agent: 'claude-code', via: 'hook', now: T0 + 5, onlyWithHandover: true });
    assert.equal(view.latest?.task, 'ship it');
    await resume(v.baton, 'heron', { agent: 'cli', via: 'cli', now: T0 + 6 });
    assert.deepEqual(readResumes(v.root), [
      { ts: T0 + 5, project: 'kestrel', agent: 'claude-code', via: 'hook' },
      { ts: T0 + 6, project: 'heron', agent: 'cli', via: 'cli' },
    ]);
    assert.equal((await vaultStats(v.baton)).resumed, 1);
  });
});

describe('app: why, with basic-memory beside', () => {
  let v: TempVault;
  let bm: string;
  beforeEach(() => {
    v = tempVault();
    bm = tempDir('baton-bm-');
    fs.writeFileSync(
      path.join(bm, 'cart.md'),
      ['---', 'type: coding_session', 'project: kestrel', 'ended: 2026-08-15T10:00:00Z', '---', '', '- [changed_file] src/cart.ts', ''].join('\n'),
    );
  });
  afterEach(() => {
    v.cleanup();
    fs.rmSync(bm, { recursive: true, force: true });
  });

  it('marks every touch with its origin, newest first, and finds basic-memory sessions of the project', async () => {
    await v.baton.commit({ scope: 'kestrel', agent: 'claude', fields: { task: 'cart', files: ['src/cart.ts'] } });
    assert.deepEqual(
      (await why(v.baton, 'cart.ts', 20)).map((t) => t.origin),
      ['baton'],
    );
    assert.deepEqual(
      (await why(v.baton, 'cart.ts', 20, bm)).map((t) => t.origin),
      ['basic-memory', 'baton'],
    );
    assert.deepEqual(
      (await why(v.baton, 'cart.ts', 1, bm)).map((t) => t.origin),
      ['basic-memory'],
    );
    assert.equal(basicMemorySessionsOf(bm, 'kestrel/wt-one').length, 1);
    assert.deepEqual(basicMemorySessionsOf(undefined, 'kestrel'), []);
  });
});

describe('app: the --vault flag', () => {
  it('is read in both spellings, with its width, and a missing folder is undefined', () => {
    assert.deepEqual(vaultFlagAt(['--vault', '/v', 'note'], 0), { vault: '/v', width: 2 });
    assert.deepEqual(vaultFlagAt(['--vault=/v'], 0), { vault: '/v', width: 1 });
    assert.deepEqual(vaultFlagAt(['note', '--vault'], 1), { vault: undefined, width: 2 });
    assert.equal(vaultFlagAt(['--vaults'], 0), null);
    assert.equal(findVaultFlag(['note', 'x', '--vault=/v']), 2);
    assert.equal(findVaultFlag(['note']), -1);
  });
});
