// basic-memory session notes read beside Baton's checkpoints: mapped, marked
// with their origin, found by `why`, and never written to.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { basicMemoryTouches, mergeTouches, parseBasicMemorySession, readBasicMemorySessions } from '../../src/adapters/basicMemory';
import { basicMemoryDir } from '../../src/app/why';
import { CLI, cli, ensureBuilt } from './support/cli';
import { tempDir } from './support/tempVault';

/** A session note as a pre-compaction hook writes it into basic-memory. */
function sessionNote(o: { type?: string; project?: string; ended?: string; files?: string[]; extra?: string } = {}): string {
  return [
    '---',
    'title: Coding session — checkout flake',
    `type: ${o.type ?? 'coding_session'}`,
    'permalink: sessions/2026-08-14-checkout-flake',
    'tags: [session, kestrel]',
    `project: ${o.project ?? 'kestrel'}`,
    'started: 2026-08-14T09:00:00Z',
    ...(o.ended === '' ? [] : [`ended: ${o.ended ?? '2026-08-14T11:30:00Z'}`]),
    'status: completed',
    'cwd: /home/me/src/kestrel',
    'claude_session_id: 7f9c2a1e-5b3d-4c8e-9a6f-0d1e2f3a4b5c',
    'capture: pre-compact',
    '---',
    '',
    '# Coding session — checkout flake',
    '',
    'Free prose the parser ignores.',
    '',
    '## Observations',
    '- [summary] Chased the flaky coupon test #testing',
    '- [context] The coupon service rate-limits in CI (seen in logs)',
    '- [decision] Fake the clock rather than the network',
    '- [problem] The network mock hides the 429 path',
    '- [next_step] Record fixtures for the 429 response',
    ...(o.files ?? ['src/checkout/cart.ts', 'src/checkout/cart.test.ts (rewritten) #tests']).map((f) => `- [changed_file] ${f}`),
    '',
    '```',
    '- [changed_file] inside/a/fence.ts',
    '```',
    '',
    '## Relations',
    '- part_of [[Kestrel]]',
    o.extra ?? '',
  ].join('\n');
}

function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(e.parentPath, e.name);
    const st = fs.statSync(full);
    out[path.relative(dir, full)] = e.isFile() ? `${st.mtimeMs}:${fs.readFileSync(full, 'base64')}` : `dir:${st.mtimeMs}`;
  }
  return out;
}

describe('basic-memory session notes (read-only)', function () {
  this.timeout(60_000);
  let bm: string;
  beforeEach(() => {
    bm = tempDir('baton-bm-');
    fs.mkdirSync(path.join(bm, 'sessions', 'deep'), { recursive: true });
    fs.writeFileSync(path.join(bm, 'sessions', 'checkout-flake.md'), sessionNote());
    fs.writeFileSync(path.join(bm, 'sessions', 'deep', 'older.md'), sessionNote({ type: 'session', ended: '2026-08-01T10:00:00Z', files: ['README.md'] }));
    fs.writeFileSync(path.join(bm, 'coffee.md'), sessionNote({ type: 'note' }));
    fs.writeFileSync(path.join(bm, 'broken.md'), '---\ntype: [session\n---\n- [changed_file] src/checkout/cart.ts');
    fs.writeFileSync(path.join(bm, 'empty.md'), '');
    fs.mkdirSync(path.join(bm, '.basic-memory'));
    fs.writeFileSync(path.join(bm, '.basic-memory', 'memory.md'), sessionNote());
  });
  afterEach(() => fs.rmSync(bm, { recursive: true, force: true }));

  it('maps observations and frontmatter onto checkpoint fields, marked with their origin', () => {
    const cp = parseBasicMemorySession(sessionNote(), 'sessions/checkout-flake.md');
    assert.ok(cp);
    assert.equal(cp.task, 'Chased the flaky coupon test #testing');
    assert.equal(cp.state, 'The coupon service rate-limits in CI (seen in logs)');
    assert.deepEqual(cp.decisions, ['Fake the clock rather than the network']);
    assert.deepEqual(cp.blockers, ['The network mock hides the 429 path']);
    assert.equal(cp.next, 'Record fixtures for the 429 response');
    assert.deepEqual(cp.files, ['src/checkout/cart.ts', 'src/checkout/cart.test.ts']);
    assert.equal(cp.project, 'kestrel');
    assert.equal(cp.agent, 'claude-code');
    assert.equal(cp.session, 'sessions/2026-08-14-checkout-flake');
    assert.equal(cp.slug, 'basic-memory/sessions/checkout-flake');
    assert.equal(cp.ts, Date.UTC(2026, 7, 14, 11, 30) / 1000);
    assert.deepEqual(cp.extra, {
      origin: 'basic-memory',
      path: 'sessions/checkout-flake.md',
      agent_session: '7f9c2a1e-5b3d-4c8e-9a6f-0d1e2f3a4b5c',
      cwd: '/home/me/src/kestrel',
      capture: 'pre-compact',
      status: 'completed',
      started: '2026-08-14T09:00:00Z',
      ended: '2026-08-14T11:30:00Z',
      title: 'Coding session — checkout flake',
    });
    assert.equal(parseBasicMemorySession(sessionNote({ type: 'note' }), 'x.md'), null);
    assert.equal(parseBasicMemorySession(sessionNote({ ended: '' }), 'x.md')?.ts, Date.UTC(2026, 7, 14, 9) / 1000, 'started when not ended');
  });

  it('reads only session notes, newest first, skipping broken files and hidden folders, and never writes', () => {
    const before = snapshot(bm);
    const sessions = readBasicMemorySessions(bm);
    assert.deepEqual(
      sessions.map((s) => s.slug),
      ['basic-memory/sessions/checkout-flake', 'basic-memory/sessions/deep/older'],
    );
    assert.deepEqual(snapshot(bm), before);
  });

  it("answers why by the same path rules, merged with Baton's touches by time", () => {
    const sessions = readBasicMemorySessions(bm);
    assert.deepEqual(
      basicMemoryTouches(sessions, './src/checkout/cart.ts').map((t) => [t.slug, t.matched, t.origin]),
      [['basic-memory/sessions/checkout-flake', 'src/checkout/cart.ts', 'basic-memory']],
    );
    assert.deepEqual(basicMemoryTouches(sessions, 'art.ts'), []);
    assert.deepEqual(basicMemoryTouches(sessions, 'fence.ts'), [], 'code fences are not observations');
    const baton = [{ session: 's', project: 'kestrel', agent: 'codex', task: 't', matched: 'cart.ts', ts: Date.UTC(2026, 7, 20) / 1000, slug: 'sessions/kestrel/s' }];
    const merged = mergeTouches(baton, basicMemoryTouches(sessions, 'cart.ts'), 20);
    assert.deepEqual(
      merged.map((t) => t.origin),
      ['baton', 'basic-memory'],
    );
    assert.equal(mergeTouches(baton, basicMemoryTouches(sessions, 'cart.ts'), 1).length, 1);
  });

  it('takes the folder from --basic-memory, else BATON_BASIC_MEMORY', () => {
    assert.equal(basicMemoryDir(undefined, {}), undefined);
    assert.equal(basicMemoryDir(undefined, { BATON_BASIC_MEMORY: '/bm' }), path.resolve('/bm'));
    assert.equal(basicMemoryDir('/flag', { BATON_BASIC_MEMORY: '/bm' }), path.resolve('/flag'));
  });

  it("shows up in the MCP server's why, and the folder stays untouched", async () => {
    ensureBuilt();
    const vault = tempDir('baton-bm-vault-');
    const before = snapshot(bm);
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
    const client = new Client({ name: 'test', version: '1' });
    try {
      assert.equal((await cli(['checkpoint', '--project', 'kestrel', '--agent', 'codex', '--task', 'coupon retry', '--file', 'src/checkout/cart.ts'], { vault })).code, 0);
      await client.connect(
        new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--basic-memory', bm], cwd: vault, env: { ...env, BATON_VAULT: vault }, stderr: 'pipe' }),
      );
      const r = (await client.callTool({ name: 'why', arguments: { file: 'cart.ts' } })) as CallToolResult;
      const touches = (r.structuredContent as { touches: { origin: string; task: string }[] }).touches;
      assert.deepEqual(
        touches.map((t) => [t.origin, t.task]),
        [
          ['baton', 'coupon retry'],
          ['basic-memory', 'Chased the flaky coupon test #testing'],
        ],
      );
      assert.match((r.content[0] as { text: string }).text, /\(basic-memory\)/);
      const resume = (await client.callTool({ name: 'resume', arguments: { project: 'kestrel' } })) as CallToolResult;
      assert.match((resume.content[0] as { text: string }).text, /basic-memory session notes \(2\):\n {2}- basic-memory\/sessions\/checkout-flake \(claude-code, /);
      const bmJson = (resume.structuredContent as { basicMemory: { slug: string }[] }).basicMemory;
      assert.deepEqual(
        bmJson.map((s) => s.slug),
        ['basic-memory/sessions/checkout-flake', 'basic-memory/sessions/deep/older'],
      );
    } finally {
      await client.close();
      fs.rmSync(vault, { recursive: true, force: true });
    }
    assert.deepEqual(snapshot(bm), before);
  });
});
