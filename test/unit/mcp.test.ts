// `baton mcp` driven by the MCP SDK's real client over stdio, against the
// built CLI and a real vault in a temporary folder.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { pathToFileURL } from 'url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ListRootsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CLI, cli, ensureBuilt } from './support/cli';
import { tempDir } from './support/tempVault';

interface Connect {
  vault: string;
  cwd: string;
  name?: string;
  roots?: string[];
  env?: Record<string, string>;
  args?: string[];
}

async function connect(o: Connect): Promise<Client> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', ...(o.args ?? [])],
    cwd: o.cwd,
    env: { ...env, BATON_AGENT: '', BATON_PROJECT: '', ...o.env, BATON_VAULT: o.vault },
    stderr: 'pipe',
  });
  const client = new Client({ name: o.name ?? 'Test Agent', version: '1.0.0' }, { capabilities: o.roots ? { roots: { listChanged: true } } : {} });
  if (o.roots) {
    const roots = o.roots;
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: roots.map((r) => ({ uri: pathToFileURL(r).href, name: path.basename(r) })) }));
  }
  await client.connect(transport);
  return client;
}

const text = (r: unknown): string => ((r as CallToolResult).content[0] as { text: string }).text;
const structured = (r: unknown): Record<string, unknown> => (r as CallToolResult).structuredContent as Record<string, unknown>;
const call = async (c: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> => (await c.callTool({ name, arguments: args })) as CallToolResult;

describe('baton mcp (the SDK client over stdio, real vault)', function () {
  this.timeout(60_000);
  let vault: string;
  let work: string;
  let client: Client | undefined;
  before(() => ensureBuilt());
  beforeEach(() => {
    vault = tempDir('baton-mcp-vault-');
    work = tempDir('baton-mcp-work-');
    fs.writeFileSync(path.join(work, '.baton-project'), 'kestrel\n');
  });
  afterEach(async () => {
    await client?.close();
    client = undefined;
    fs.rmSync(vault, { recursive: true, force: true });
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('lists every tool with a schema, a description and honest annotations', async () => {
    client = await connect({ vault, cwd: work });
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name).sort();
    // The tools agents call in a session; the lists are resources, plans and closing the CLI's (bench/tokens.ts weighs them).
    assert.deepEqual(names, ['before_you_try', 'checkpoint', 'note_progress', 'resume', 'search', 'why']);
    const readOnly = ['before_you_try', 'resume', 'search', 'why'];
    for (const t of tools) {
      assert.ok((t.description ?? '').length > 60, `${t.name} has a description an agent can act on`);
      assert.ok(!('agent' in (t.inputSchema.properties ?? {})), `${t.name}: who writes is the server's to say, not the model's`);
      assert.equal(t.inputSchema.type, 'object');
      assert.ok(t.outputSchema, `${t.name} declares its structured result`);
      assert.equal(t.annotations?.readOnlyHint, readOnly.includes(t.name), `${t.name} readOnlyHint`);
      if (readOnly.includes(t.name)) assert.equal(t.annotations?.idempotentHint, true, `${t.name} idempotentHint`);
      assert.equal(t.annotations?.destructiveHint, false, `${t.name} destructiveHint`);
    }
    const cp = tools.find((t) => t.name === 'checkpoint');
    assert.deepEqual(Object.keys(cp?.inputSchema.properties ?? {}).sort(), [
      'blockers',
      'commands',
      'decisions',
      'failed',
      'files',
      'intent',
      'next',
      'project',
      'questions',
      'state',
      'task',
      'to',
      'verified',
    ]);
  });

  it('serves the prompts and resources from the built bundle too (details in mcpPrompts.test.ts)', async () => {
    client = await connect({ vault, cwd: work });
    assert.deepEqual((await client.listPrompts()).prompts.map((p) => p.name).sort(), ['checkpoint', 'handoff', 'resume']);
    await call(client, 'checkpoint', { task: 'pricing table' });
    const r = await client.getPrompt({ name: 'resume', arguments: {} });
    assert.match((r.messages[0].content as { text: string }).text, /# Hand-over — kestrel\n[\s\S]*\nTask:\n {2}> pricing table\n/);
    const h = await client.readResource({ uri: 'baton://project/kestrel/handover' });
    assert.match((h.contents[0] as { text: string }).text, /^# Hand-over — kestrel\n/);
  });

  it('notes and checkpoints as the client (handshake name) in the project of its first root', async () => {
    const root = tempDir('baton-mcp-root-');
    fs.writeFileSync(path.join(root, '.baton-project'), 'Heron Web\n');
    try {
      client = await connect({ vault, cwd: work, name: 'Claude Code', roots: [root] });
      const n = await call(client, 'note_progress', { text: 'tried the stripe mock: it fails on webhooks' });
      assert.equal(n.isError, undefined, text(n));
      assert.deepEqual({ ...structured(n), ts: 0 }, { project: 'heron-web', agent: 'claude-code', ts: 0, durable: true, redactions: 0 });
      const r = await call(client, 'checkpoint', {
        task: 'billing webhooks',
        failed: ['the stripe mock: no webhook replay'],
        files: ['src/billing/hooks.ts'],
        next: 'record fixtures',
      });
      assert.equal(r.isError, undefined, text(r));
      const s = structured(r);
      assert.equal(s.project, 'heron-web');
      assert.equal(s.agent, 'claude-code');
      assert.equal(s.folded, 1);
      assert.deepEqual(s.placeholdersDropped, []);
      const file = fs.readFileSync(s.path as string, 'utf8');
      assert.match(file, /^agent: claude-code$/m);
      assert.match(file, /## Didn't work\n\n- the stripe mock: no webhook replay/);
      assert.match(file, /Recorded during the session:\n- tried the stripe mock: it fails on webhooks/);
      assert.ok(!fs.existsSync(path.join(vault, 'sessions', 'kestrel')), 'the root wins over the server folder');
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('takes the project from the argument, then BATON_PROJECT, then the server folder', async () => {
    client = await connect({ vault, cwd: work, env: { BATON_PROJECT: 'osprey' } });
    assert.equal(structured(await call(client, 'note_progress', { text: 'a' })).project, 'osprey');
    assert.equal(structured(await call(client, 'note_progress', { text: 'b', project: 'Finch' })).project, 'finch');
    await client.close();
    client = await connect({ vault, cwd: work });
    assert.equal(structured(await call(client, 'note_progress', { text: 'c' })).project, 'kestrel');
  });

  it('says so when "failed" held only placeholders, and records no dead end', async () => {
    client = await connect({ vault, cwd: work });
    const r = await call(client, 'checkpoint', { task: 'refactor the store', failed: ['none', 'N/A', '-'] });
    assert.equal(r.isError, undefined, text(r));
    assert.match(text(r), /only placeholders .*records NO dead ends/);
    assert.deepEqual(structured(r).placeholdersDropped, ['none', 'N/A', '-']);
    assert.doesNotMatch(fs.readFileSync(structured(r).path as string, 'utf8'), /Didn't work/);
    const mixed = await call(client, 'checkpoint', { task: 'again', failed: ['nothing', 'sqlite WAL on NFS: corrupts'] });
    assert.match(text(mixed), /Left out 1 placeholder/);
    assert.match(fs.readFileSync(structured(mixed).path as string, 'utf8'), /## Didn't work\n\n- sqlite WAL on NFS: corrupts\n/);
  });

  it('hands off (checkpoint with to), resumes (text and structure), reads plans and projects as resources, and counts the resume', async () => {
    client = await connect({ vault, cwd: work, name: 'codex' });
    const h = await call(client, 'checkpoint', { to: 'Cursor', task: 'pricing table', failed: ['css grid: breaks safari 15'], next: 'annual toggle' });
    assert.equal(structured(h).handoffTo, 'cursor');
    assert.match(text(h), /^Handoff to cursor /);
    await call(client, 'note_progress', { text: 'toggle state lives in the URL' });
    const r = await call(client, 'resume', {});
    assert.match(text(r), /^# Hand-over — kestrel/);
    assert.match(
      text(r),
      /\nDidn't work \(1, newest first, by the session that ruled each out\):\n {2}- codex, \d+[smhd] ago, the latest checkpoint:\n {4}> - css grid: breaks safari 15\n/,
    );
    assert.match(text(r), /\nUncommitted working notes \(1\):\n {2}- codex, \d+[smhd] ago:\n {4}> toggle state lives in the URL\n/);
    const view = structured(r) as { latest: { session: string; handoffTo: string }; uncommitted: { text: string }[]; thread: { deadEnds: { text: string; session: string }[] } };
    assert.equal(view.latest.session, structured(h).session);
    assert.deepEqual(
      view.thread.deadEnds.map((d) => [d.text, d.session]),
      [['css grid: breaks safari 15', structured(h).session]],
    );
    assert.equal(view.latest.handoffTo, 'cursor');
    assert.deepEqual(
      view.uncommitted.map((n) => n.text),
      ['toggle state lives in the URL'],
    );

    assert.equal((await cli(['plan', '--project', 'kestrel', '--agent', 'codex'], { vault, input: '1. add the toggle\n2. test it' })).code, 0);
    const plans = await client.readResource({ uri: 'baton://project/kestrel/plans' });
    assert.match(
      (plans.contents[0] as { text: string }).text,
      /\nPlan sessions\/kestrel\/plans\/plan-\d{8}-\d{6}-codex \(codex, [\d-]+\):\n {2}> 1\. add the toggle\n {2}> 2\. test it\n/,
    );

    const listed = await client.readResource({ uri: 'baton://projects' });
    const projects = JSON.parse((listed.contents[0] as { text: string }).text) as { projects: { project: string; checkpoints: number; uncommitted: number }[] };
    assert.deepEqual(
      projects.projects.map((x) => [x.project, x.checkpoints, x.uncommitted]),
      [['kestrel', 1, 1]],
    );

    const stats = JSON.parse((await cli(['stats', '--json'], { vault })).stdout);
    assert.deepEqual({ ...stats, projects: undefined }, { open: 1, resumed: 1, closed: 0, autoClosed: 0, abandoned: 0, total: 2, projects: undefined });
  });

  it('answers why (any form of the path) and before_you_try, with who ruled it out', async () => {
    client = await connect({ vault, cwd: work });
    await call(client, 'checkpoint', { task: 'session store', files: ['internal/memory/vaultstore.go'], failed: ['mock the payment gateway: hides webhook races'] });
    for (const form of ['./internal/memory/vaultstore.go', 'vaultstore.go', '/abs/repo/internal/memory/vaultstore.go']) {
      const w = structured(await call(client, 'why', { file: form })) as { touches: { task: string; origin: string }[] };
      assert.deepEqual(
        w.touches.map((t) => [t.task, t.origin]),
        [['session store', 'baton']],
        form,
      );
    }
    assert.deepEqual((structured(await call(client, 'why', { file: 'store.go' })) as { touches: unknown[] }).touches, []);
    const b = await call(client, 'before_you_try', { approach: 'mock the payment gateway' });
    assert.match(
      text(b),
      /\n {2}- ruled out by test-agent on \d{4}-\d{2}-\d{2} in kestrel \(sessions\/kestrel\/[\d-]+test-agent\):\n {4}> mock the payment gateway: hides webhook races\n/,
    );
    const none = await call(client, 'before_you_try', { approach: 'rewrite it in rust' });
    assert.match(text(none), /No recorded dead end matches/);
  });

  it('searches the vault: text quoted, hits as structured content, bad input a tool error saying what to give', async () => {
    client = await connect({ vault, cwd: work });
    await call(client, 'checkpoint', { task: 'payments', failed: ['mocking the payment gateway hid the bug'] });
    await call(client, 'note_progress', { text: 'the gateway sandbox is slow' });
    const r = await call(client, 'search', { query: 'mock gateway' });
    assert.equal(r.isError, undefined, text(r));
    assert.match(text(r), /^2 match\(es\) for "mock gateway", best first\.\n/);
    assert.match(text(r), /\n {2}> \*\*mocking\*\* the payment \*\*gateway\*\* hid the bug\n/);
    const s = structured(r) as { query: string; hits: { kind: string; field: string; project: string; agent: string; snippet: string }[] };
    assert.deepEqual(
      s.hits.map((h) => [h.kind, h.field, h.project, h.agent]),
      [
        ['checkpoint', 'failed', 'kestrel', 'test-agent'],
        ['note', 'text', 'kestrel', 'test-agent'],
      ],
    );
    const notes = structured(await call(client, 'search', { query: 'gateway', kind: 'note', project: 'kestrel', limit: 5 })) as { hits: unknown[] };
    assert.equal(notes.hits.length, 1);
    const odd = await call(client, 'search', { query: 'gateway" OR (NEAR*' });
    assert.equal(odd.isError, undefined, text(odd));
    const bad = await call(client, 'search', { query: '"()"' });
    assert.equal(bad.isError, true);
    assert.match(text(bad), /Give a few words/);
  });

  it('lists an abandoned session (notes back-dated with baton note --at) in resume, closed from the CLI', async () => {
    const eightHoursAgo = String(Math.floor(Date.now() / 1000) - 8 * 3600);
    for (const t of ['half-migrated the schema', 'users table done, orders not']) {
      const r = await cli(['note', '--project', 'kestrel', '--agent', 'gemini', '--at', eightHoursAgo, t], { vault });
      assert.equal(r.code, 0, r.stderr);
    }
    client = await connect({ vault, cwd: work });
    const s = structured(await call(client, 'resume', {})) as { abandoned: { session: string; notes: number }[] };
    assert.equal(s.abandoned.length, 1);
    const id = s.abandoned[0].session;
    assert.equal(s.abandoned[0].notes, 2);
    // Closing another agent's session is a person's call: the CLI's and the editor's, no MCP tool.
    assert.equal((await cli(['sessions', 'kestrel', '--close', id], { vault })).code, 0);
    assert.deepEqual((structured(await call(client, 'resume', {})) as { abandoned: unknown[] }).abandoned, []);
    const latest = (structured(await call(client, 'resume', {})) as { latest: { autoClosed: boolean; agent: string; state: string } }).latest;
    assert.equal(latest.autoClosed, true);
    assert.equal(latest.agent, 'gemini');
    assert.match(latest.state, /not a real handoff[\s\S]*- half-migrated the schema\n- users table done, orders not/);
  });

  it('turns every failure into an error reply and keeps serving', async () => {
    client = await connect({ vault, cwd: work });
    const empty = await call(client, 'checkpoint', {});
    assert.equal(empty.isError, true);
    assert.match(text(empty), /Nothing to checkpoint/);
    const bad = await call(client, 'note_progress', { text: 'x', project: '🚀' });
    assert.equal(bad.isError, true);
    assert.match(text(bad), /no letters or digits/);
    const unknown = await call(client, 'search', { query: '"()"' });
    assert.match(text(unknown), /Give a few words/);
    const invalid = await call(client, 'why', { file: 42 });
    assert.equal(invalid.isError, true);
    assert.equal((await client.listTools()).tools.length, 6, 'still serving');
    assert.ok(!fs.existsSync(path.join(vault, 'sessions', 'kestrel')), 'nothing written by the failures');
  });

  it('loses nothing while a second process writes to the same project', async () => {
    client = await connect({ vault, cwd: work });
    const c = client;
    const viaMcp = Array.from({ length: 15 }, (_, i) => call(c, 'note_progress', { text: `mcp note ${i}` }));
    const viaCli = Array.from({ length: 15 }, (_, i) => cli(['note', '--project', 'kestrel', '--agent', 'cursor', `cli note ${i}`], { vault }));
    const [m, k] = await Promise.all([Promise.all(viaMcp), Promise.all(viaCli)]);
    assert.ok(m.every((r) => !r.isError));
    assert.ok(k.every((r) => r.code === 0));
    const s = structured(await call(c, 'resume', {})) as { uncommitted: { text: string }[] };
    const texts = s.uncommitted.map((n) => n.text).sort();
    const want = [...Array.from({ length: 15 }, (_, i) => `cli note ${i}`), ...Array.from({ length: 15 }, (_, i) => `mcp note ${i}`)].sort();
    assert.deepEqual(texts, want);
    // A checkpoint by the MCP agent meanwhile folds its own notes only; the CLI agent's stay open.
    const [cp] = await Promise.all([call(c, 'checkpoint', { task: 'parallel' }), cli(['note', '--project', 'kestrel', '--agent', 'cursor', 'late cli note'], { vault })]);
    assert.equal(structured(cp).folded, 15);
    const after = structured(await call(c, 'resume', {})) as { uncommitted: { text: string; agent: string }[] };
    assert.deepEqual(
      after.uncommitted.map((n) => n.agent).filter((a) => a !== 'cursor'),
      [],
    );
    assert.equal(after.uncommitted.length, 16);
  });
});
