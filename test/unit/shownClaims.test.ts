// Issue 26 item 3: a Verified claim's state where a checkpoint is shown beyond
// the hand-over: `baton why FILE`, MCP `why` and `before_you_try`, `baton
// blame`. The hand-over's words (core/evidence.ts claimWords), one line a
// claim, fresh ones terse; judged against the working tree the door stands
// in. A real repository, a real vault, the built CLI, the run recorded by the
// real hook door, the MCP server through the SDK's real client over stdio.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { commitCheckpoint } from '../../src/app/commit';
import { CLI, cli, ensureBuilt } from './support/cli';
import { git, gitEnv, gitRepo } from './support/gitRepo';
import { tempDir, tempVault, type TempVault } from './support/tempVault';
import { mcpClient } from '../support/mcpClient';

type Obj = Record<string, unknown>;
const text = (r: CallToolResult): string => (r.content[0] as { text: string }).text;

describe('claims shown in why, before_you_try and blame: fresh, stale, unbacked', function () {
  this.timeout(120_000);
  before(() => ensureBuilt());
  let v: TempVault;
  let parent: string;
  let repo: string;
  let client: Client | undefined;
  const cmd = 'npm test -- auth';

  beforeEach(async () => {
    const t = Math.floor(Date.now() / 1000);
    v = tempVault(t);
    parent = fs.realpathSync(tempDir('baton-shown-claims-'));
    repo = gitRepo(parent, 'kestrel');
    // The session starts, then commits the file: blame gives its lines to this session.
    await v.baton.note('kestrel', 'claude-code', 'started on token expiry', t - 120);
    fs.mkdirSync(path.join(repo, 'src'));
    fs.writeFileSync(path.join(repo, 'src', 'auth.ts'), 'export const ttl = 60;\nexport const skew = 5;\n');
    git(repo, 'add', '.');
    git(repo, 'commit', '-q', '-m', 'auth');
    // The run, as Claude Code's PostToolUse hook reports it.
    const payload = {
      session_id: 's-1',
      transcript_path: '',
      cwd: repo,
      permission_mode: 'default',
      hook_event_name: 'PostToolUse',
      tool_name: 'Bash',
      tool_input: { command: cmd, description: 'Run the tests' },
      tool_use_id: 'toolu_01',
      tool_response: { stdout: 'ok\n', stderr: '', interrupted: false, isImage: false },
    };
    const r = await cli(['hook', 'claude-code', 'post-tool-use'], { vault: v.root, cwd: repo, input: JSON.stringify(payload) });
    assert.deepEqual([r.code, r.stderr], [0, '']);
    v.advance(1);
    const cp = await commitCheckpoint(v.baton, {
      scope: 'kestrel',
      agent: 'claude-code',
      fields: {
        task: 'token expiry',
        failed: ['mocking the clock in the token store: the skew is read from the wall clock'],
        verified: [`rejects expired tokens — ${cmd}`, 'checked the skew by hand'],
        files: ['src/auth.ts'],
      },
      folder: repo,
      gitAllowed: true,
      byAgent: true,
    });
    assert.ok(cp.path);
  });
  afterEach(async () => {
    await client?.close();
    client = undefined;
    v.cleanup();
    fs.rmSync(parent, { recursive: true, force: true });
  });

  /** Every surface's text (and the JSON answers' claim states), asked from inside the repository. */
  async function surfaces(): Promise<{ why: string; whyJson: Obj[]; mcpWhy: string; mcpWhyClaims: Obj[]; tried: string; triedClaims: Obj[]; blame: string; blameJson: Obj }> {
    const why = await cli(['why', 'src/auth.ts'], { vault: v.root, cwd: repo, env: gitEnv });
    assert.equal(why.code, 0, why.stderr);
    const whyJson = await cli(['why', 'src/auth.ts', '--json'], { vault: v.root, cwd: repo, env: gitEnv });
    const blame = await cli(['blame', 'src/auth.ts'], { vault: v.root, cwd: repo, env: gitEnv });
    assert.equal(blame.code, 0, blame.stderr);
    const blameJson = await cli(['blame', 'src/auth.ts', '--json'], { vault: v.root, cwd: repo, env: gitEnv });
    client ??= await mcpClient({ cli: CLI, vault: v.root, cwd: repo, name: 'claude-code', env: gitEnv });
    const w = (await client.callTool({ name: 'why', arguments: { file: 'src/auth.ts' } })) as CallToolResult;
    assert.ok(!w.isError, text(w));
    const b = (await client.callTool({ name: 'before_you_try', arguments: { approach: 'mock the clock in the token store' } })) as CallToolResult;
    assert.ok(!b.isError, text(b));
    const touches = (w.structuredContent as { touches: { claims?: Obj[] }[] }).touches;
    const deadEnds = (b.structuredContent as { deadEnds: { claims?: Obj[] }[] }).deadEnds;
    return {
      why: why.stdout,
      whyJson: (JSON.parse(whyJson.stdout) as { claims?: Obj[] }[])[0]?.claims ?? [],
      mcpWhy: text(w),
      mcpWhyClaims: touches[0]?.claims ?? [],
      tried: text(b),
      triedClaims: deadEnds[0]?.claims ?? [],
      blame: blame.stdout,
      blameJson: JSON.parse(blameJson.stdout) as Obj,
    };
  }

  const FRESH = /^ {2}Verified 1: fresh: verified at [0-9a-f]{7} by "npm test -- auth"$/m;
  const UNBACKED = /^ +Verified 2: unbacked: no passing run of a command it names was recorded$/m;
  const STALE = /^ +Verified 1: stale: verified at [0-9a-f]{7} by "npm test -- auth"; 1 of its 1 file\(s\) changed since \(src\/auth\.ts\): re-run before relying on it$/m;

  it('fresh at checkpoint, the unbacked one said so, on every surface; stale with the file after a saved edit', async () => {
    const before = await surfaces();
    for (const [name, t] of Object.entries({ why: before.why, mcpWhy: before.mcpWhy, blame: before.blame })) {
      assert.match(t, FRESH, `${name}:\n${t}`);
      assert.match(t, UNBACKED, `${name}:\n${t}`);
    }
    // before_you_try lists the claims under the dead end, indented as its quote is.
    assert.match(before.tried, /^ {4}Verified 1: fresh: verified at [0-9a-f]{7} by "npm test -- auth"$/m, before.tried);
    assert.match(before.tried, UNBACKED, before.tried);
    // Fresh is terse: nothing after the command.
    assert.ok(!/unchanged since/.test(before.mcpWhy + before.tried), before.mcpWhy);
    for (const claims of [before.whyJson, before.mcpWhyClaims, before.triedClaims, ((before.blameJson.claims as Obj[])[0] as { claims: Obj[] }).claims]) {
      assert.deepEqual(
        claims.map((c) => [c.state, c.command, c.changed]),
        [
          ['fresh', cmd, []],
          ['unbacked', '', []],
        ],
      );
    }

    // A saved edit of the covered file, not committed: the working tree counts.
    fs.writeFileSync(path.join(repo, 'src', 'auth.ts'), 'export const ttl = 30;\nexport const skew = 5;\n');
    const after = await surfaces();
    for (const [name, t] of Object.entries({ why: after.why, mcpWhy: after.mcpWhy, tried: after.tried, blame: after.blame })) {
      assert.match(t, STALE, `${name}:\n${t}`);
      assert.match(t, UNBACKED, `${name}:\n${t}`);
    }
    for (const claims of [after.whyJson, after.mcpWhyClaims, after.triedClaims, ((after.blameJson.claims as Obj[])[0] as { claims: Obj[] }).claims]) {
      assert.deepEqual(
        claims.map((c) => [c.state, c.changed]),
        [
          ['stale', ['src/auth.ts']],
          ['unbacked', []],
        ],
      );
    }
  });

  it('judges the newest three checkpoints’ claims in an answer and says how many older ones it did not', async () => {
    for (let k = 0; k < 3; k++) {
      v.advance(60);
      await commitCheckpoint(v.baton, {
        scope: 'kestrel',
        agent: 'claude-code',
        fields: { task: `pass ${k}`, verified: [`pass ${k} checked by hand`], files: ['src/auth.ts'] },
        folder: repo,
        gitAllowed: true,
        byAgent: true,
      });
    }
    const r = await cli(['why', 'src/auth.ts'], { vault: v.root, cwd: repo, env: gitEnv });
    assert.equal(r.stdout.match(/^ {2}Verified 1: /gm)?.length, 3, r.stdout);
    assert.ok(!r.stdout.includes('token expiry\n  Verified'), r.stdout);
    assert.match(r.stdout, /^\(Verified claims of 1 older checkpoint\(s\) of this project shown here not judged; `baton verify` judges the latest\.\)$/m);
  });

  it('judges no claim from another project’s folder, and quotes a command as the hand-over does', async () => {
    const other = gitRepo(parent, 'osprey');
    fs.mkdirSync(path.join(other, 'src'));
    fs.writeFileSync(path.join(other, 'src', 'auth.ts'), 'export const ttl = 60;\nexport const skew = 5;\n');
    const r = await cli(['why', 'src/auth.ts'], { vault: v.root, cwd: other, env: gitEnv });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /token expiry/);
    assert.ok(!/Verified \d/.test(r.stdout), r.stdout);
  });
});
