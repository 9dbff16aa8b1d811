// `baton doctor` weighs what Baton costs the connected agents' requests: the
// MCP server their configs start, asked over stdio for its tools and
// instructions, and the session-start hand-over of the project it runs in.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import { cli, ensureBuilt } from './support/cli';
import { homeFolders } from './support/homeCli';

describe('baton doctor: the token figures of the connected agents', function () {
  this.timeout(60_000);
  let root: string;
  let home: string;
  let repo: string;
  let vault: string;
  before(() => ensureBuilt());
  beforeEach(() => ({ root, home, repo, vault } = homeFolders('baton-doctor-tokens-')));
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));
  const run = (args: string[]) => cli(args, { vault, cwd: repo, env: { HOME: home } });

  it('names none with nothing connected, and both figures for a connected Cursor', async () => {
    assert.equal('tokens' in JSON.parse((await run(['doctor', '--json'])).stdout), false);
    const c = await run(['connect', 'cursor']);
    assert.equal(c.code, 0, c.stdout + c.stderr);
    assert.equal((await run(['checkpoint', '--project', 'kestrel', '--agent', 'cursor', '--task', 'cart rounding', '--failed', 'float cents: rounding drifts'])).code, 0);
    const r = JSON.parse((await run(['doctor', '--json'])).stdout) as {
      tokens: { agents: string[]; tools: { count: number; tokens: number; budget: number }; handover: { project: string; tokens: number; budget: number } };
    };
    assert.deepEqual(r.tokens.agents, ['cursor']);
    assert.equal(r.tokens.tools.count, 6);
    assert.ok(r.tokens.tools.tokens > 500 && r.tokens.tools.tokens <= r.tokens.tools.budget, JSON.stringify(r.tokens.tools));
    assert.equal(r.tokens.handover.project, 'kestrel');
    assert.ok(r.tokens.handover.tokens > 50 && r.tokens.handover.tokens <= 800, JSON.stringify(r.tokens.handover));
    const text = (await run(['doctor'])).stdout;
    assert.match(
      text,
      /\n-- {2}tokens {4}for Cursor: Baton's MCP tools: \d+ tokens a request, 6 tools and instructions \(budget 1200\)\n {6}session-start hand-over of kestrel: \d+ tokens \(budget 800\)\n/,
    );
  });
});
