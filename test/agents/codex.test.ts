// Codex CLI end to end: the real `codex` (pins.json), connected as the README
// says, its model a scripted local endpoint speaking the Responses API
// (support/wire/openaiResponses.ts). Everything else is Codex's own: its hook
// runner and trust rules, its MCP client, apply_patch, compaction, rollouts.
import * as assert from 'assert';
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { codexMessages } from '../../src/adapters/transcripts/codex';
import { agentBin } from './support/install';
import type { RecordedRequest, RunningModel, Step } from './support/scriptedModel';
import { startModel, tokens } from './support/scriptedModel';
import { isCompactionRequest, responsesMessages, responsesToolDefs, responsesTools } from './support/wire/openaiResponses';
import { openaiResponses } from './support/wire/openaiResponses';
import type { World } from './support/world';
import { baton, batonJson, hookLog, makeWorld, removeWorld, run, vaultText } from './support/world';
import { assertOneSession, ORIGIN_NOTE, ORIGIN_TASK } from './support/origin';
import { assertPassBacksTheClaim, FAIL, keepHookPayloads, keptShellPayloads, PASS, saveShellFixtures, writeScripts } from './support/runs';

const FIXTURES = path.resolve(__dirname, '../fixtures/transcripts/codex');
const KEY_ENV = 'SCRIPTED_API_KEY';

// The model endpoint, the only thing a person would not have: a provider of
// its own (developers.openai.com/codex/config-reference, model_providers),
// a real model slug so Codex uses that model's metadata as it would for a
// person (gpt-5.5: the freeform apply_patch tool, MCP tools behind
// tool_search), and a small auto-compaction limit so a large reported usage
// compacts. Top-level keys go first: after a table header they would belong to it.
function useModel(world: World, url: string): void {
  const file = path.join(world.home, '.codex', 'config.toml');
  const ours = /# scripted model \(test\) >>>[\s\S]*?# <<<\n\n/;
  const block = [
    '# scripted model (test) >>>',
    'model_provider = "scripted"',
    'model = "gpt-5.5"',
    'model_auto_compact_token_limit = 50000',
    '',
    '[model_providers.scripted]',
    'name = "Scripted"',
    `base_url = "${url}/v1"`,
    'wire_api = "responses"',
    `env_key = "${KEY_ENV}"`,
    '# <<<',
    '',
    '',
  ].join('\n');
  const text = fs.readFileSync(file, 'utf8').replace(ours, '');
  fs.writeFileSync(file, block + text);
}

type Rpc = (method: string, params: unknown) => Promise<Record<string, unknown>>;

/** A `codex app-server` session (JSON-RPC lines on stdio), the API Codex's own TUI drives. */
async function appServer<T>(world: World, body: (rpc: Rpc) => Promise<T>): Promise<T> {
  const child = spawn(agentBin('codex'), ['app-server'], { cwd: world.project, env: world.env, stdio: ['pipe', 'pipe', 'pipe'] });
  const waiting = new Map<number, (m: Record<string, unknown>) => void>();
  let buf = '';
  child.stdout.on('data', (d: Buffer) => {
    buf += d.toString('utf8');
    for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
      const m = JSON.parse(buf.slice(0, i)) as Record<string, unknown>;
      buf = buf.slice(i + 1);
      if (typeof m.id === 'number') waiting.get(m.id)?.(m);
    }
  });
  child.stderr.resume();
  const ended = new Promise<void>((resolve) => child.on('close', () => resolve()));
  let id = 0;
  const rpc: Rpc = (method, params) =>
    new Promise((resolve, reject) => {
      const n = ++id;
      waiting.set(n, (m) => (m.error ? reject(new Error(`${method}: ${JSON.stringify(m.error)}`)) : resolve(m.result as Record<string, unknown>)));
      child.stdin.write(JSON.stringify({ id: n, method, params }) + '\n');
    });
  const safety = setTimeout(() => child.kill('SIGKILL'), 120_000);
  try {
    await rpc('initialize', { clientInfo: { name: 'baton-agents-test', title: null, version: '0' }, capabilities: null });
    child.stdin.write(JSON.stringify({ method: 'initialized' }) + '\n');
    return await body(rpc);
  } finally {
    // The server ends when its input does.
    child.stdin.end();
    await ended;
    clearTimeout(safety);
  }
}

interface HookEntry {
  key: string;
  eventName: string;
  command: string;
  currentHash: string;
  trustStatus: string;
}

const batonHooks = async (rpc: Rpc, world: World): Promise<HookEntry[]> => {
  const r = (await rpc('hooks/list', { cwds: [world.project] })) as { data: { hooks: HookEntry[] }[] };
  return r.data.flatMap((d) => d.hooks).filter((h) => / hook codex /.test(h.command));
};

/** What Codex itself says of Baton's hooks: event -> trust status. */
const codexVerdict = (world: World): Promise<Record<string, string>> =>
  appServer(world, async (rpc) => Object.fromEntries((await batonHooks(rpc, world)).map((h) => [h.eventName, h.trustStatus])));

/**
 * The trust step, as a person's /hooks screen records it: Codex's TUI is a
 * client of its app-server and trusting a hook there writes the hook's
 * `currentHash` from `hooks/list` as `hooks.state."<key>".trusted_hash` in
 * ~/.codex/config.toml through `config/batchWrite` (the generated protocol,
 * `codex app-server generate-ts`: HooksListResponse, ConfigBatchWriteParams;
 * the same path node9-ai/node9-proxy src/codex-app-server.ts takes). So no
 * terminal UI and no --dangerously-bypass-hook-trust: Codex writes its own
 * trust, for exactly the definitions it lists.
 */
const trustBatonHooks = (world: World): Promise<void> =>
  appServer(world, async (rpc) => {
    const hooks = (await batonHooks(rpc, world)).filter((h) => h.trustStatus !== 'trusted');
    const edits = hooks.map((h) => ({ keyPath: `hooks.state.${JSON.stringify(h.key)}.trusted_hash`, value: h.currentHash, mergeStrategy: 'upsert' }));
    await rpc('config/batchWrite', { edits, reloadUserConfig: false });
  });

interface Session {
  code: number | null;
  stdout: string;
  stderr: string;
  requests: RecordedRequest[];
}

async function codexExec(world: World, script: Step[], prompt: string, extra: string[] = []): Promise<Session> {
  const model: RunningModel = await startModel(openaiResponses, script);
  try {
    useModel(world, model.url);
    // workspace-write: apply_patch writes in the project; Codex's bundled
    // bubblewrap sandboxes it (it warns that none is on PATH, and goes on).
    const r = await run(world, agentBin('codex'), ['exec', '--sandbox', 'workspace-write', ...extra, prompt], { env: { [KEY_ENV]: 'test-key' }, timeoutMs: 150_000 });
    return { ...r, requests: model.model.requests };
  } finally {
    await model.close();
  }
}

const rollouts = (world: World): string[] => {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const e of fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : []) {
      if (e.isDirectory()) walk(path.join(dir, e.name));
      else if (/^rollout-.*\.jsonl$/.test(e.name)) out.push(path.join(dir, e.name));
    }
  };
  walk(path.join(world.home, '.codex', 'sessions'));
  return out.sort();
};

/** A rollout made small and anonymous: long strings cut, this machine's paths a placeholder. */
function fixtureOf(world: World, file: string): string {
  const cut = (v: unknown): unknown => {
    if (typeof v === 'string') {
      return v.length > 600 ? `${v.slice(0, 300)}…[cut]` : v;
    }
    if (Array.isArray(v)) return v.map(cut);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, cut(x)]));
    return v;
  };
  return (
    fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.stringify(cut(JSON.parse(l.split(world.root).join('/ROOT')))))
      .join('\n') + '\n'
  );
}

const PATCH = [
  '*** Begin Patch',
  '*** Update File: src/cart.js',
  '@@',
  '-  return items.reduce((sum, i) => sum + i.price, 0);',
  '+  return items.reduce((sum, i) => sum + i.price * (i.qty ?? 1), 0);',
  '*** End Patch',
  '',
].join('\n');

const DEAD_END = 'parseFloat on each price: prices are numbers already, the total did not change';
const DECISION = 'multiply by qty, default 1';
const NEXT = 'add a test for an item without qty';

describe('Codex CLI, the real one, end to end', function () {
  let world: World;
  let first: Session;
  let second: Session;

  before(() => {
    world = makeWorld('codex-cart');
  });
  after(() => world && removeWorld(world));

  it('connects as the README says; doctor names the trust step until Codex trusts the hooks, and agrees with Codex', async () => {
    const c = await baton(world, ['connect', 'codex']);
    assert.equal(c.code, 0, c.stderr);
    assert.match(c.stdout, /\/hooks/);
    useModel(world, 'http://127.0.0.1:9');
    assert.deepEqual(Object.values(await codexVerdict(world)), ['untrusted', 'untrusted', 'untrusted', 'untrusted', 'untrusted']);
    const before = await baton(world, ['doctor']);
    assert.match(before.stdout, /Codex has not trusted Baton's user-scope hooks \(SessionStart, PreCompact, PostToolUse, Stop, SessionEnd\)[^\n]*\/hooks/);
    assert.notEqual(before.code, 0);
    await trustBatonHooks(world);
    assert.deepEqual(new Set(Object.values(await codexVerdict(world))), new Set(['trusted']));
    // Baton's own hash of each hook is Codex's: doctor has no trust problem left.
    const after = await baton(world, ['doctor']);
    assert.doesNotMatch(after.stdout, /trust/i, after.stdout);
  });

  it('session 1: a note, an apply_patch edit of src/cart.js, a checkpoint; then compaction writes one capture', async () => {
    first = await codexExec(
      world,
      [
        { tool: /^mcp__baton__note_progress$/, input: { text: `Tried ${DEAD_END}.` } },
        { tool: /^apply_patch$/, input: { input: PATCH } },
        {
          tool: /^mcp__baton__checkpoint$/,
          input: { task: 'Cart total counts quantities', state: 'total multiplies price by qty', failed: [DEAD_END], decisions: [DECISION], next: NEXT },
          // Over model_auto_compact_token_limit: Codex compacts before its next request.
          usage: 200_000,
        },
        { text: 'The cart total counts quantities now.' },
      ],
      'Make the cart total count item quantities.',
    );
    assert.equal(first.code, 0, first.stderr);
    assert.match(fs.readFileSync(path.join(world.project, 'src', 'cart.js'), 'utf8'), /i\.qty \?\? 1/);
    const compactions = first.requests.filter(isCompactionRequest);
    assert.equal(compactions.length, 1, 'Codex asked for one summary');

    const sessions = await batonJson<{ checkpoints: { agent: string; files?: string[]; kind?: string; slug?: string }[]; uncommitted: { agent: string; text: string }[] }>(world, [
      'sessions',
    ]);
    const agents = new Set([...sessions.checkpoints.map((c) => c.agent), ...sessions.uncommitted.map((n) => n.agent)]);
    assert.deepEqual([...agents], ['codex'], `one agent name, not the MCP client's: ${[...agents].join(', ')}`);

    const resume = await batonJson<Record<string, unknown>>(world, ['resume']);
    const text = JSON.stringify(resume);
    assert.ok(text.includes(DEAD_END), 'the dead end survives the capture');
    assert.ok(text.includes(DECISION) && text.includes(NEXT), 'decisions and next step survive the capture');
    assert.doesNotMatch(text, /stopped|session \S+ ended/, 'no lifecycle notes in the hand-over');

    const cps = fs
      .readdirSync(path.join(world.vault, 'sessions', world.projectName))
      .filter((f) => f.endsWith('.md') && f !== 'uncommitted.md')
      .map((f) => fs.readFileSync(path.join(world.vault, 'sessions', world.projectName, f), 'utf8'));
    const captures = cps.filter((c) => /capture/i.test(c.split('\n---')[0]));
    assert.equal(captures.length, 1, `one capture checkpoint, got ${captures.length} of ${cps.length}`);
    const real = cps.find((c) => c.includes(DEAD_END));
    assert.ok(real, 'the checkpoint the model wrote');
    assert.match(real, /src\/cart\.js/, "the apply_patch edit is in the checkpoint's Files");
    assert.doesNotMatch(cps.join('\n'), /stopped|session \S+ ended/);
    assert.ok(!vaultText(world).includes(world.root), 'no absolute path of this machine in the vault');
  });

  it("session 2: the first request holds the hand-over with the dead end and next step, and Baton's tools; Baton's share is printed", async () => {
    second = await codexExec(world, [{ tool: /^mcp__baton__resume$/, input: {} }, { text: 'Picked up where the last session stopped.' }], 'Carry on with the cart.');
    assert.equal(second.code, 0, second.stderr);
    const firstReq = second.requests.find((r) => !isCompactionRequest(r) && r.method === 'POST');
    assert.ok(firstReq);
    const msgs = responsesMessages(firstReq);
    const handover = msgs.find((m) => m.role === 'developer' && /Hand-over/.test(m.text));
    assert.ok(handover, 'the SessionStart hook’s hand-over reaches the model');
    assert.ok(handover.text.includes(DEAD_END) && handover.text.includes(NEXT));
    // Baton's tools: Codex starts MCP servers beside its first request, so on a
    // loaded machine their namespace is announced in a developer message of a
    // later request ("Added deferred tool namespaces"), still before the
    // model's first real answer; the model loads their schemas by tool_search.
    const loaded = second.requests.find((r) => responsesTools(r).some((t) => t.startsWith('mcp__baton__')));
    assert.ok(loaded, "Baton's tools loaded by tool_search");
    const nsLine = responsesMessages(loaded)
      .map((m) => m.text)
      .join('\n')
      .match(/^- mcp__baton: .*$/m);
    assert.ok(nsLine, "Baton's tools are offered (deferred behind tool_search)");
    const schemas = responsesToolDefs(loaded).filter((d) => d.name === 'mcp__baton' || (typeof d.name === 'string' && responsesTools(loaded).includes(`mcp__baton__${d.name}`)));
    const schemaChars = JSON.stringify(schemas).length;
    const row = { agent: 'codex', schemas: tokens(schemaChars), instructions: tokens(nsLine[0].length), handover: tokens(handover.text.length) };
    console.log(
      `| Codex CLI | ${row.schemas} | ${row.instructions} | ${row.handover} | ${row.schemas + row.instructions + row.handover} |  (Baton's tokens, chars/4: tool schemas, instructions, hand-over, total)`,
    );
  });

  it('the rollouts Codex wrote read as the person’s words; a reconnect that changes the hooks is reported as Codex reports it', async () => {
    const files = rollouts(world);
    assert.equal(files.length, 2);
    assert.deepEqual(codexMessages(fs.readFileSync(files[0], 'utf8')), ['Make the cart total count item quantities.']);
    assert.deepEqual(codexMessages(fs.readFileSync(files[1], 'utf8')), ['Carry on with the cart.']);
    if (process.env.BATON_UPDATE_FIXTURES) {
      fs.mkdirSync(FIXTURES, { recursive: true });
      files.forEach((f, n) => fs.writeFileSync(path.join(FIXTURES, `codex-${agentVersion()}-session${n + 1}.jsonl`), fixtureOf(world, f)));
    }
    // Another vault changes every hook's command: Codex calls them modified, and so does doctor.
    const other = path.join(world.root, 'vault2');
    fs.mkdirSync(other);
    assert.equal((await baton(world, ['connect', 'codex'], { env: { BATON_VAULT: other } })).code, 0);
    assert.deepEqual(new Set(Object.values(await codexVerdict(world))), new Set(['modified']));
    const doctor = await baton(world, ['doctor'], { env: { BATON_VAULT: other } });
    assert.match(doctor.stdout, /changed since Codex trusted them[^\n]*\/hooks/);
  });

  it("a session's MCP checkpoint and note name its agent session, as its hooks' notes do (each call's _meta.sessionId)", async () => {
    // Back to this world's vault, with the hooks trusted again (the test before pointed them elsewhere).
    assert.equal((await baton(world, ['connect', 'codex'])).code, 0);
    await trustBatonHooks(world);
    const r = await codexExec(
      world,
      [{ tool: /^mcp__baton__checkpoint$/, input: { task: ORIGIN_TASK } }, { tool: /^mcp__baton__note_progress$/, input: { text: ORIGIN_NOTE } }, { text: 'Checked.' }],
      'Which session is this?',
    );
    assert.equal(r.code, 0, r.stderr);
    assertOneSession(world);
  });

  it("its own shell tool's runs, a pass and a failure, are recorded with the exits Codex's rollout gives them: the pass backs the claim, the failure is listed", async () => {
    // The hooks point at this world's vault again (the test before reconnected and trusted them).
    writeScripts(world);
    const shell = /^(exec_command|shell_command|shell|local_shell)$/;
    // Each shell tool's arguments as Codex declares them: exec_command {cmd} (what gpt-5.5 is offered), shell {command: argv}, shell_command {command}.
    const call = (cmd: string) => (name: string) =>
      name === 'exec_command' ? { cmd } : name === 'shell' || name === 'local_shell' ? { command: ['bash', '-lc', cmd] } : { command: cmd };
    const undo = keepHookPayloads(world);
    const r = await codexExec(
      world,
      [
        { tool: shell, input: call(PASS) },
        { tool: shell, input: call(FAIL) },
        { tool: /^mcp__baton__checkpoint$/, input: { task: 'Cart sums checked', verified: [`the cart sums — ${PASS}`] } },
        { text: 'Checked.' },
      ],
      'Check the cart sums.',
    ).finally(undo);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(responsesTools(r.requests[0]).includes('exec_command'), responsesTools(r.requests[0]).join(', '));
    saveShellFixtures(world, 'codex', agentVersion());
    // Codex 0.169.0 hands its PostToolUse hook tool_name "Bash" and the command's output alone (tool_response "a child: exit code 1\n"
    // for the pass, "" for the exit 3): the exit it tells the model is not in the payload, but in its rollout by the call's id.
    const payloads = keptShellPayloads(world);
    assert.deepEqual(payloads.map((p) => [p.tool_name, (p.tool_input as { command: string }).command, p.tool_response]).sort(), [
      ['Bash', FAIL, ''],
      ['Bash', PASS, 'a child: exit code 1\n'],
    ]);
    if (process.env.BATON_UPDATE_FIXTURES) {
      const rollout = rollouts(world).find((f) => payloads.some((p) => p.transcript_path === f));
      if (rollout) fs.writeFileSync(path.resolve(__dirname, `../fixtures/hooks/codex-${agentVersion()}-rollout.jsonl`), fixtureOf(world, rollout));
    }
    assertPassBacksTheClaim(world, 'Cart sums checked', hookLog(world));
  });
});

const agentVersion = (): string => '0.169.0';
