// `baton search` as agents run it: the shipped CLI in its own process.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import { cli, ensureBuilt } from './support/cli';
import { tempDir } from './support/tempVault';

describe('baton search (the built CLI)', function () {
  this.timeout(60_000);
  let vault: string;
  before(async () => {
    ensureBuilt();
    vault = tempDir('baton-search-cli-');
    const commit = async (project: string, agent: string, flags: string[]): Promise<void> => {
      const r = await cli(['checkpoint', '--project', project, '--agent', agent, ...flags], { vault });
      assert.equal(r.code, 0, r.stderr);
    };
    await commit('kestrel', 'claude', ['--task', 'payments', '--failed', 'mocking the payment gateway hid the bug']);
    await commit('kestrel/feature-x', 'codex', ['--task', 'gateway timeouts in the worktree']);
    await commit('heron', 'cursor', ['--task', 'a gateway elsewhere']);
    await cli(['note', '--project', 'kestrel', '--agent', 'claude', 'the gateway sandbox is slow'], { vault });
  });
  after(() => fs.rmSync(vault, { recursive: true, force: true }));

  it('prints JSON in the contract shape, best first', async () => {
    const r = await cli(['search', 'mock', 'the', 'gateway', '--json'], { vault });
    assert.equal(r.code, 0, r.stderr);
    const hits = JSON.parse(r.stdout) as Record<string, unknown>[];
    assert.deepEqual(Object.keys(hits[0]), ['kind', 'project', 'agent', 'ts', 'session', 'slug', 'title', 'field', 'snippet', 'score']);
    assert.equal(hits[0].title, 'payments');
    assert.equal(hits[0].field, 'failed');
    assert.equal(hits[0].snippet, '**mocking** the payment **gateway** hid the bug', 'a stop word among others is not searched');
    assert.equal(hits.length, 4);
  });

  it('filters by project (worktrees included), kind, agent, time and limit', async () => {
    const json = async (...args: string[]): Promise<Record<string, unknown>[]> => {
      const r = await cli(['search', 'gateway', '--json', ...args], { vault });
      assert.equal(r.code, 0, r.stderr);
      return JSON.parse(r.stdout) as Record<string, unknown>[];
    };
    assert.deepEqual((await json('--project', 'kestrel')).map((h) => h.project).sort(), ['kestrel', 'kestrel', 'kestrel/feature-x']);
    assert.deepEqual(
      (await json('--kind', 'note')).map((h) => [h.kind, h.field, h.agent]),
      [['note', 'text', 'claude']],
    );
    assert.deepEqual(
      (await json('--agent', 'cursor')).map((h) => h.project),
      ['heron'],
    );
    assert.equal((await json('--since', '2999-01-01')).length, 0);
    assert.equal((await json('--limit', '1')).length, 1);
  });

  it('quotes what agents wrote in its text, and refuses bad input with what to give (exit 2)', async () => {
    const r = await cli(['search', 'gateway'], { vault });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^4 match\(es\) for gateway, best first\./);
    assert.match(r.stdout, /\n {2}> .*\*\*gateway\*\*/);
    for (const [args, message] of [
      [['search'], /Search for what/],
      [['search', '((("'], /Give a few words/],
      [['search', 'x', '--kind', 'decision'], /checkpoint, note, plan/],
      [['search', 'x', '--limit', 'ten'], /--limit must be a whole number/],
      [['search', 'x', '--since', 'soon'], /is not a time/],
    ] as const) {
      const bad = await cli([...args], { vault });
      assert.equal(bad.code, 2, `${args.join(' ')}: ${bad.stderr}`);
      assert.match(bad.stderr, message);
    }
    const ops = await cli(['search', 'gateway*', 'NEAR/3', '"mock', 'OR', 'col:x', '^y', '--', '-bug'], { vault });
    assert.equal(ops.code, 0, ops.stderr);
  });
});
