// Scenario 7b: limits that must never drop data without a word. A notes file
// past the old 256 MB read cap folds every note, the last ones included; a
// checkpoint past 1 MB (large folded notes) still shows its Didn't work,
// Verified, Files and Next in `resume`, MCP `resume` and `why`, and says what
// it left out; an MCP message past the transport's limit gets a reply that
// says so (the server does not go silent), and one just under it is noted.
import { strict as assert } from 'assert';
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { CLI, ensureBuilt, log, parseJson, removeTree, run, tempRoot } from './support';

const MB = 1 << 20;

/** Counts lines of `file` containing `needle`, reading it a chunk at a time (it may be bigger than a string can be). */
function countLines(file: string, needle: string): number {
  const fd = fs.openSync(file, 'r');
  const buf = Buffer.allocUnsafe(8 * MB);
  const want = Buffer.from(needle);
  let count = 0;
  let carry = Buffer.alloc(0);
  try {
    for (;;) {
      const n = fs.readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      const chunk = Buffer.concat([carry, buf.subarray(0, n)]);
      let from = 0;
      for (;;) {
        const nl = chunk.indexOf(0x0a, from);
        if (nl < 0) break;
        if (chunk.subarray(from, nl).includes(want)) count++;
        from = nl + 1;
      }
      carry = Buffer.from(chunk.subarray(from));
    }
  } finally {
    fs.closeSync(fd);
  }
  return count;
}

interface Rpc {
  id?: number | string | null;
  result?: { content: { text: string }[]; structuredContent?: Record<string, unknown>; isError?: boolean };
  error?: { message: string };
}

/** A minimal MCP client over stdio that sends each request as one write and waits for its reply (or gives up). */
async function mcp(vault: string, cwd: string, calls: { name: string; arguments: Record<string, unknown> }[], timeoutMs = 30_000): Promise<(Rpc | string)[]> {
  const child = spawn(process.execPath, [CLI, 'mcp'], {
    cwd,
    env: { ...process.env, BATON_VAULT: vault, BATON_PROJECT: 'kestrel', BATON_AGENT: 'mcp-agent' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const parts: Buffer[] = [];
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  child.stdin.on('error', () => undefined);
  const waiting = new Map<number, (v: Rpc) => void>();
  child.stdout.on('data', (d: Buffer) => {
    parts.push(d);
    if (!d.includes(0x0a)) return;
    const all = Buffer.concat(parts).toString('utf8');
    parts.length = 0;
    const lines = all.split('\n');
    const rest = lines.pop() ?? '';
    if (rest) parts.push(Buffer.from(rest));
    for (const line of lines) {
      try {
        const msg = JSON.parse(line) as Rpc;
        if (typeof msg.id === 'number') waiting.get(msg.id)?.(msg);
        else if (msg.id === null) for (const w of waiting.values()) w(msg);
      } catch {
        // not ours
      }
    }
  });
  let id = 0;
  const request = (method: string, params: unknown): Promise<Rpc | string> =>
    new Promise((resolve) => {
      const my = ++id;
      const timer = setTimeout(() => resolve(`no reply to ${method} within ${timeoutMs} ms; stderr: ${stderr.slice(0, 300)}`), timeoutMs);
      waiting.set(my, (v) => {
        clearTimeout(timer);
        waiting.delete(my);
        resolve(v);
      });
      // The SDK client's shape: the id comes last.
      child.stdin.write(JSON.stringify({ method, params, jsonrpc: '2.0', id: my }) + '\n');
    });
  await request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'chaos', version: '0' } });
  child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
  const out: (Rpc | string)[] = [];
  for (const call of calls) out.push(await request('tools/call', call));
  child.stdin.end();
  child.kill();
  return out;
}

describe('chaos 7b: no limit drops data without a word', function () {
  this.timeout(10 * 60_000);
  let root: string;
  before(() => ensureBuilt());
  beforeEach(() => {
    root = tempRoot('baton-chaos7b-');
  });
  afterEach(() => removeTree(root));

  it('folds every note of a notes file past 256 MB, the ones past the old cap included, and keeps the others', async () => {
    const started = Date.now();
    const vault = path.join(root, 'vault');
    const dir = path.join(vault, 'sessions', 'kestrel');
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = path.join(dir, 'uncommitted.md');
    const ts = Math.floor(Date.now() / 1000);
    // 264 MB of a parallel agent's open notes (2 KB each), then claude's own notes past the 256 MB mark.
    const fd = fs.openSync(file, 'w', 0o600);
    fs.writeSync(fd, '# uncommitted — kestrel\n\nWorking notes from sessions that have not been checkpointed yet.\n\n');
    const pad = 'p'.repeat(2000);
    const others = 132 * 1024;
    const batch: string[] = [];
    for (let i = 0; i < others; i++) {
      batch.push(`- codex open ${i} ${pad} <!-- ts=${ts} agent=codex -->\n`);
      if (batch.length === 4096) fs.writeSync(fd, batch.splice(0).join(''));
    }
    fs.writeSync(fd, batch.splice(0).join(''));
    for (let i = 0; i < 3; i++) fs.writeSync(fd, `- claude past the cap ${i} <!-- ts=${ts} agent=claude -->\n`);
    fs.closeSync(fd);
    assert.ok(fs.statSync(file).size > 256 * MB, 'the file is past the old cap');

    const r = await run(['checkpoint', '-p', 'kestrel', '-a', 'claude', '--task', 'fold past the cap', '--json'], { vault, timeoutMs: 180_000 });
    assert.ok(r.acked, r.stderr);
    const cp = fs.readFileSync(parseJson<{ path: string }>(r, 'checkpoint').path, 'utf8');
    for (let i = 0; i < 3; i++) assert.match(cp, new RegExp(`- claude past the cap ${i}\\n`), `note ${i} past the cap is folded into the checkpoint`);
    assert.equal(countLines(file, 'claude past the cap'), 0, 'and taken out of the notes file');
    assert.equal(countLines(file, 'agent=codex -->'), others, 'every other open note is kept');
    log(`264 MB notes file folded in ${(r.ms / 1000).toFixed(1)}s; ${((Date.now() - started) / 1000).toFixed(1)}s`);
  });

  it('shows every section of a checkpoint past 1 MB in resume, MCP resume and why, and says what it left out', async () => {
    const started = Date.now();
    const vault = path.join(root, 'vault');
    const work = path.join(root, 'work');
    fs.mkdirSync(work);
    const cli = (args: string[]) => run(args, { vault, cwd: work, timeoutMs: 60_000 });
    for (let i = 0; i < 12; i++) {
      const n = await cli(['note', '-p', 'kestrel', '-a', 'claude', `large note ${i} ${String(i % 10).repeat(100_000)}`]);
      assert.ok(n.acked, n.stderr);
    }
    const c = await cli([
      'checkpoint',
      '-p',
      'kestrel',
      '-a',
      'claude',
      '--task',
      'a big checkpoint',
      '--failed',
      'mocking the gateway: it hid the retry bug',
      '--verified',
      'retries back off — npm test -- retry',
      '--file',
      'src/payments/gateway.ts',
      '--next',
      'wire the backoff into checkout',
      '--json',
    ]);
    assert.ok(c.acked, c.stderr);
    const cpFile = parseJson<{ path: string }>(c, 'checkpoint').path;
    assert.ok(fs.statSync(cpFile).size > MB, 'the checkpoint is past 1 MB');

    const resume = parseJson<{ latest: { failed: string[]; verified: string[]; files: string[]; next: string; state: string } }>(
      await cli(['resume', 'kestrel', '--json']),
      'resume',
    );
    assert.deepEqual(resume.latest.failed, ['mocking the gateway: it hid the retry bug'], "resume keeps Didn't work");
    assert.deepEqual(resume.latest.verified, ['retries back off — npm test -- retry'], 'and Verified');
    assert.deepEqual(resume.latest.files, ['src/payments/gateway.ts'], 'and Files');
    assert.equal(resume.latest.next, 'wire the backoff into checkout', 'and Next');
    assert.match(resume.latest.state, /not shown/, 'and says what of State it left out');
    assert.ok(resume.latest.state.length < 2 * MB, 'without printing megabytes of it');

    const why = parseJson<{ session: string }[]>(await cli(['why', 'gateway.ts', '--json']), 'why');
    assert.ok(
      why.some((t) => cpFile.endsWith(`${t.session}.md`)),
      `why finds the big checkpoint by its Files: ${JSON.stringify(why).slice(0, 200)}`,
    );
    // The same from an index built from nothing by worker threads (they read only the first 1 MB of a file).
    fs.rmSync(path.join(vault, '.baton'), { recursive: true, force: true });
    const viaWorkers = await run(['why', 'gateway.ts', '--json'], { vault, cwd: work, env: { BATON_INDEX_WORKER: '1', BATON_INDEX_STEAL: '0' } });
    const why2 = parseJson<{ session: string }[]>(viaWorkers, 'why (workers)');
    assert.ok(
      why2.some((t) => cpFile.endsWith(`${t.session}.md`)),
      `why finds it through a worker-built index too: ${JSON.stringify(why2).slice(0, 200)}`,
    );

    const [mcpResume] = await mcp(vault, work, [{ name: 'resume', arguments: { project: 'kestrel' } }]);
    assert.ok(typeof mcpResume !== 'string', mcpResume as string);
    const text = mcpResume.result?.content.map((x) => x.text).join('\n') ?? '';
    for (const want of ['mocking the gateway', 'retries back off', 'wire the backoff into checkout']) assert.ok(text.includes(want), `MCP resume shows "${want}"`);
    log(`${(fs.statSync(cpFile).size / MB).toFixed(1)} MB checkpoint; ${((Date.now() - started) / 1000).toFixed(1)}s`);
  });

  it('answers an MCP note past the transport limit with a refusal that says so, and records one just under it', async () => {
    const started = Date.now();
    const vault = path.join(root, 'vault');
    const work = path.join(root, 'work');
    fs.mkdirSync(work);
    const huge = 'é'.repeat(10 * MB); // 20 MB of UTF-8 in one message
    const large = `large ${'word '.repeat(2 * MB)}`; // 10 MB, under the limit
    const replies = await mcp(vault, work, [
      { name: 'note_progress', arguments: { text: huge } },
      { name: 'note_progress', arguments: { text: large } },
      { name: 'note_progress', arguments: { text: 'small note after the big ones' } },
    ]);
    const [tooBig, ok, after] = replies;
    assert.ok(typeof tooBig !== 'string', `the oversized message gets a reply: ${tooBig as string}`);
    const msg = tooBig.error?.message ?? tooBig.result?.content[0]?.text ?? '';
    assert.ok(tooBig.error || tooBig.result?.isError, `it is refused: ${JSON.stringify(tooBig).slice(0, 300)}`);
    assert.match(msg, /MB/, `the refusal says how big and what the limit is: ${msg}`);
    assert.ok(typeof ok !== 'string' && !ok.error && !ok.result?.isError, `a 10 MB note is recorded: ${JSON.stringify(ok).slice(0, 300)}`);
    assert.ok(typeof after !== 'string' && !after.error, 'the server still answers afterwards');
    const notes = fs.readFileSync(path.join(vault, 'sessions', 'kestrel', 'uncommitted.md'), 'utf8');
    assert.ok(notes.includes('small note after the big ones') && notes.includes('- large word word'), 'both notes are in the vault');
    assert.ok(!notes.includes('éééé'), 'the refused one is not');
    log(`${((Date.now() - started) / 1000).toFixed(1)}s`);
  });
});
