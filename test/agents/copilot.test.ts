// GitHub Copilot CLI, the real pinned CLI, end to end: connected as the
// README says, driven non-interactively (`copilot -p`) against a scripted
// chat-completions model (support/wire/openaiChat.ts) through its custom
// provider settings (COPILOT_PROVIDER_*: its `copilot help providers`), with
// its real hooks, MCP client and session log.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { userWordsIn } from '../../src/adapters/transcripts/transcripts';
import { INSTRUCTIONS } from '../../src/mcp/server';
import { AGENTS_DIR, agentBin, agentVersion } from './support/install';
import type { RecordedRequest, RunningModel, Step } from './support/scriptedModel';
import { startModel, tokens } from './support/scriptedModel';
import { chatMessages, chatToolDefs, chatTools, isSummaryRequest, nameOf, openaiChat } from './support/wire/openaiChat';
import type { Exit, World } from './support/world';
import type { Checkpoint, Resume, Sessions } from './support/replies';
import { baton, batonJson, hookLog, makeWorld, removeWorld, run, vaultText } from './support/world';
import { assertOneSession, ORIGIN_NOTE, ORIGIN_TASK } from './support/origin';
import { assertPassBacksTheClaim, FAIL, keepHookPayloads, keptShellPayloads, PASS, saveShellFixtures, writeScripts } from './support/runs';

const DEAD_END = 'Rounding each price before summing: the total is still a cent off, 1.005 is 1.00499 in binary';
const DECISION = 'Round once, on the sum: one rounding error at most';
const NEXT = 'Add a test for a cart of three 0.1 items';
const PATCH = [
  '*** Begin Patch',
  '*** Update File: src/cart.js',
  '@@',
  '-  return items.reduce((sum, i) => sum + i.price, 0);',
  '+  return Math.round(items.reduce((sum, i) => sum + i.price, 0) * 100) / 100;',
  '*** End Patch',
  '',
].join('\n');
/** The first line of Baton's session-start hand-over (app/agentHooks.ts). */
const HANDOVER_HEAD = /Baton, the session record of shop/;
const BATON_TOOL = /^baton-/;
const SHELL = /^(bash|shell|powershell)$/;
const SHELL_TASK = 'Cart sums checked';
/** A compaction capture (app/agentHooks.ts preCompact), by the first line of its State. */
const isCapture = (c: Checkpoint): boolean => /capture before context compaction/i.test(c.state);
/** Copilot's own loop offers its `view` tool; side requests (titles) offer none. */
const loop = (m: RunningModel): RecordedRequest[] => m.model.loopRequests(chatTools, /^view$/).filter((r) => !isSummaryRequest(r));

// Session 1 reports this usage once, against a prompt limit just above it:
// Copilot compacts when the reported prompt tokens near its limit
// (COPILOT_PROVIDER_MAX_PROMPT_TOKENS, `copilot help providers`).
const PROMPT_LIMIT = 20_000;
const LARGE_USAGE = 19_000;

describe(`GitHub Copilot CLI ${agentVersion('copilot')}, end to end against a scripted model`, function () {
  let world: World;
  const runs: Exit[] = [];
  let session1: RunningModel;
  let session2: RunningModel;

  /** `copilot -p PROMPT` in the project, as a person scripting it would, against `model`. */
  const copilot = async (model: RunningModel, prompt: string, modelName: string, allow: string[] = []): Promise<Exit> => {
    const r = await run(world, agentBin('copilot'), ['-p', prompt, ...ALLOW, ...allow], {
      timeoutMs: 180_000,
      env: {
        COPILOT_PROVIDER_BASE_URL: `${model.url}/v1`,
        COPILOT_PROVIDER_TYPE: 'openai',
        COPILOT_PROVIDER_WIRE_API: 'completions',
        COPILOT_PROVIDER_API_KEY: 'scripted-model-key',
        COPILOT_MODEL: modelName,
        COPILOT_OFFLINE: 'true',
        COPILOT_PROVIDER_MAX_PROMPT_TOKENS: String(PROMPT_LIMIT),
        // The CLI unpacks its 235 MB JavaScript package into its cache on first
        // run (its sea-loader reads COPILOT_PKG_CACHE_HOME first): once per
        // install, not once per fresh HOME.
        COPILOT_PKG_CACHE_HOME: path.join(AGENTS_DIR, 'copilot-cache'),
      },
    });
    runs.push(r);
    assert.equal(r.code, 0, `copilot exited ${r.code}\n${r.stdout}\n${r.stderr}`);
    return r;
  };

  before(async function () {
    world = makeWorld('shop');
    // 1. Connect exactly as the README says (user scope).
    const c = await baton(world, ['connect', 'copilot']);
    assert.equal(c.code, 0, c.stderr);
    // No trust step: Copilot CLI gates a folder's own configuration
    // (.github/hooks, its skills and MCP servers) behind folder trust, not the
    // user's ~/.copilot hooks and MCP servers, which run in a folder it has
    // never been told to trust (asserted below: no trusted folder is saved).
    // `-p` needs tool approval up front: ALLOW names Baton's server and the
    // edit tools, the way `copilot --help` documents --allow-tool.

    // 2. Session 1: a note, an edit with Copilot's own apply_patch (offered to
    // the GPT-5 codex models), a checkpoint reporting a large usage (3.), the end.
    const script1: Step[] = [
      { tool: /^baton-note_progress$/, input: { text: DEAD_END } },
      { tool: /^apply_patch$/, input: { input: PATCH } },
      {
        tool: /^baton-checkpoint$/,
        input: { task: 'Fix the cart total rounding', state: 'total() rounds the sum to cents', failed: [DEAD_END], decisions: [DECISION], next: NEXT },
        usage: LARGE_USAGE,
      },
      { text: 'Done: total() rounds the sum to cents.' },
    ];
    session1 = await startModel(openaiChat, script1);
    await copilot(session1, 'Fix the cart total rounding.', 'gpt-5.1-codex');

    // 4. Session 2, a new one: Copilot's `edit` and `create` (the tools it
    // offers other models), then the end.
    const script2: Step[] = [
      { tool: /^edit$/, input: { path: path.join(world.project, 'src', 'cart.js'), old_str: 'module.exports', new_str: '// Cents, rounded once.\nmodule.exports' } },
      { tool: /^create$/, input: { path: path.join(world.project, 'src', 'tax.js'), file_text: 'module.exports = { rate: 0.2 };\n' } },
      { text: 'Noted the hand-over.' },
    ];
    session2 = await startModel(openaiChat, script2);
    await copilot(session2, 'Carry on with the cart.', 'gpt-4.1');
  });

  after(async function () {
    await session1?.close();
    await session2?.close();
    if (world) removeWorld(world);
  });

  /** Copilot's own record of the hooks it ran (its session logs' hook.start / hook.end events), for failure messages. */
  const hookEvents = (): string =>
    sessionLogs()
      .flatMap((f) => fs.readFileSync(f, 'utf8').split('\n'))
      .filter((l) => /"type":"hook\.(start|end)"|compaction/.test(l))
      .map((l) => l.slice(0, 600))
      .join('\n');

  const checkpoints = async (): Promise<Checkpoint[]> => (await batonJson<Sessions>(world, ['sessions'])).checkpoints;

  it('ran session 1 as scripted: the note, the apply_patch edit and the checkpoint reached Baton and the file', async function () {
    assert.match(fs.readFileSync(path.join(world.project, 'src', 'cart.js'), 'utf8'), /Math\.round/);
    const cps = await checkpoints();
    assert.ok(
      cps.some((c) => c.failed.includes(DEAD_END) && c.next === NEXT),
      JSON.stringify(cps, null, 2),
    );
    // No trust was saved, and yet the user's hooks ran (the binding below is the session-start hook's).
    assert.doesNotMatch(fs.readFileSync(path.join(world.home, '.copilot', 'config.json'), 'utf8'), /trusted_folders"\s*:\s*\[\s*"/);
  });

  it('records one agent name for Copilot CLI, from its MCP tools and its hooks alike', async function () {
    const s = await batonJson<Sessions>(world, ['sessions']);
    const names = new Set([...s.checkpoints.map((c) => c.agent), ...s.uncommitted.map((n) => n.agent)]);
    assert.deepEqual([...names], ['copilot'], JSON.stringify(s, null, 2));
  });

  it("puts the file Copilot's apply_patch edited into the checkpoint's Files", async function () {
    const real = (await checkpoints()).filter((c) => !isCapture(c));
    assert.equal(real.length, 1, JSON.stringify(real, null, 2));
    assert.deepEqual(real[0].files, ['src/cart.js']);
  });

  it("records the files Copilot's edit and create tools changed, relative to the project", async function () {
    const r = await batonJson<Resume>(world, ['resume']);
    const edited = r.uncommitted.map((n) => n.text).filter((t) => t.startsWith('edited'));
    assert.ok(edited.some((t) => t.includes('src/cart.js')) && edited.some((t) => t.includes('src/tax.js')), JSON.stringify(r.uncommitted, null, 2));
  });

  it('keeps lifecycle clutter and the paths of this machine out of the vault', async function () {
    const r = await batonJson<Resume>(world, ['resume']);
    const all = [...r.uncommitted.map((n) => n.text), r.latest?.state ?? ''].join('\n');
    assert.doesNotMatch(all, /\bstopped\b|session \S+ ended/, all);
    const text = vaultText(world);
    assert.ok(
      !text.includes(world.root),
      `the vault holds ${world.root}:\n${text
        .split('\n')
        .filter((l) => l.includes(world.root))
        .join('\n')}`,
    );
  });

  it('compacts once when the model reports a large usage: one capture, and the hand-over keeps the dead end, decision and next step', async function () {
    assert.equal(session1.model.requests.filter(isSummaryRequest).length, 1, 'Copilot asked for one summary');
    const captures = (await checkpoints()).filter(isCapture);
    assert.equal(captures.length, 1, `${JSON.stringify(captures, null, 2)}\nhook log:\n${hookLog(world)}\nCopilot's hook events:\n${hookEvents()}`);
    const r = await batonJson<Resume>(world, ['resume']);
    const said = JSON.stringify(r);
    for (const kept of [DEAD_END, DECISION, NEXT]) assert.ok(said.includes(kept), `the hand-over lost "${kept}":\n${said}`);
  });

  it("gives session 2's first model request the hand-over (by the session-start hook) and Baton's tools, and measures Baton's share", async function () {
    const first = loop(session2)[0];
    assert.ok(first, 'session 2 sent no request');
    const messages = chatMessages(first);
    const handover = messages.find((m) => HANDOVER_HEAD.test(m.content));
    assert.ok(handover, `no hand-over among:\n${messages.map((m) => `${m.role}: ${m.content.slice(0, 120)}`).join('\n')}`);
    assert.ok(handover.content.includes(DEAD_END) && handover.content.includes(NEXT), handover.content);
    // It comes before the person's prompt, as context, not as their words.
    assert.ok(messages.indexOf(handover) < messages.findIndex((m) => m.content.includes('Carry on with the cart.')));
    const batonTools = chatToolDefs(first).filter((t) => BATON_TOOL.test(nameOf(t)));
    assert.ok(batonTools.length > 0, chatTools(first).join(', '));
    // Copilot passes no MCP server instructions to the model (not an
    // allowlisted server; --allow-all-mcp-server-instructions would): the hook is the way in.
    const instructions = first.raw.includes(INSTRUCTIONS.slice(0, 60)) ? INSTRUCTIONS.length : 0;
    assert.equal(instructions, 0, 'Copilot now passes MCP server instructions: count them, and the hand-over may come twice');
    const schemaChars = batonTools.reduce((n, t) => n + JSON.stringify(t).length, 0);
    const share = tokens(schemaChars) + tokens(instructions) + tokens(handover.content.length);
    console.log(
      `      | Copilot CLI ${agentVersion('copilot')} | ${batonTools.length} tools, ${tokens(schemaChars)} tok | instructions ${tokens(instructions)} tok | hand-over ${tokens(handover.content.length)} tok | Baton ${share} of ${tokens(first.raw.length)} tok |`,
    );
  });

  it("reads the user's words from Copilot's session log, and never the hand-over the hook injected", async function () {
    const logs = sessionLogs();
    assert.equal(logs.length, 2, logs.join('\n'));
    const words = logs.map((f) => userWordsIn(f, 'copilot'));
    const openings = words.map((w) => w.opening).sort();
    assert.deepEqual(openings, ['Carry on with the cart.', 'Fix the cart total rounding.']);
    assert.ok(!JSON.stringify(words).includes('Baton, the session record'));
    if (process.env.BATON_AGENTS_WRITE_FIXTURES) writeFixtures(logs);
  });

  it("names a session's agent session in its MCP checkpoint and note, as its hooks' notes do (the server's COPILOT_AGENT_SESSION_ID)", async function () {
    const m = await startModel(openaiChat, [
      { tool: /^baton-checkpoint$/, input: { task: ORIGIN_TASK } },
      { tool: /^baton-note_progress$/, input: { text: ORIGIN_NOTE } },
      { text: 'Checked.' },
    ]);
    try {
      await copilot(m, 'Which session is this?', 'gpt-4.1');
      assertOneSession(world);
    } finally {
      await m.close();
    }
  });

  it('records its own shell tool runs, a pass and a failure; a Verified claim naming the pass is backed by it, the failure is in Commands run', async function () {
    writeScripts(world);
    const m = await startModel(openaiChat, [
      { tool: SHELL, input: { command: PASS, description: 'Run the passing check' } },
      { tool: SHELL, input: { command: FAIL, description: 'Run the failing check' } },
      { tool: /^baton-checkpoint$/, input: { task: SHELL_TASK, verified: [`the cart sums — ${PASS}`] } },
      { text: 'Checked.' },
    ]);
    const undo = keepHookPayloads(world);
    try {
      // --allow-tool=shell: a person's approval of Copilot's shell tool for -p (`copilot --help`).
      await copilot(m, 'Check the cart sums.', 'gpt-4.1', ['--allow-tool=shell']);
    } finally {
      undo();
      await m.close();
    }
    saveShellFixtures(world, 'copilot', agentVersion('copilot'));
    // Seen (1.0.102, gpt-4.1 offers `bash`): postToolUse, toolName "bash", toolArgs.command, resultType "success" for both, the exit
    // only in the last line of textResultForLlm, "<shellId: N completed with exit code 3>" (not the docs' "<exited with exit code N>").
    assert.deepEqual(
      keptShellPayloads(world)
        .map((p) => [
          p.toolName,
          (p.toolArgs as { command: string }).command,
          (p.toolResult as { textResultForLlm: string }).textResultForLlm
            .split('\n')
            .pop()
            ?.replace(/shellId: \d+/, 'shellId: N'),
        ])
        .sort(),
      [
        ['bash', FAIL, '<shellId: N completed with exit code 3>'],
        ['bash', PASS, '<shellId: N completed with exit code 0>'],
      ],
    );
    assertPassBacksTheClaim(world, SHELL_TASK, hookLog(world));
  });

  /** Copilot's session logs, `~/.copilot/session-state/<id>/events.jsonl`, oldest first. */
  const sessionLogs = (): string[] => {
    const dir = path.join(world.home, '.copilot', 'session-state');
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
      .map((e) => path.join(dir, e.name, 'events.jsonl'))
      .filter((f) => fs.existsSync(f))
      .sort((a, b) => fs.statSync(a).mtimeMs - fs.statSync(b).mtimeMs);
  };

  /** The logs, made small (long strings cut) and without this machine's paths, as the reader's fixtures. */
  const writeFixtures = (logs: string[]): void => {
    const out = path.resolve(__dirname, '../fixtures/transcripts/copilot');
    fs.mkdirSync(out, { recursive: true });
    const small = (v: unknown): unknown =>
      typeof v === 'string'
        ? (v.length > 400 ? `${v.slice(0, 400)}…` : v).split(world.root).join('/WORLD')
        : Array.isArray(v)
          ? v.map(small)
          : v && typeof v === 'object'
            ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, small(x)]))
            : v;
    logs.forEach((f, i) => {
      const lines = fs.readFileSync(f, 'utf8').split('\n').filter(Boolean);
      fs.writeFileSync(path.join(out, `session${i + 1}.events.jsonl`), lines.map((l) => JSON.stringify(small(JSON.parse(l)))).join('\n') + '\n');
    });
  };
});

/** Tool approval for `-p`: Baton's MCP server (all its tools) and Copilot's file writes (edit, create, apply_patch). */
const ALLOW = ['--allow-tool=baton', '--allow-tool=write'];
