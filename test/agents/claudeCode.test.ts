// Claude Code, end to end: the pinned CLI (pins.json) against a scripted
// Anthropic Messages API (support/wire/anthropic.ts), in a fresh HOME, vault
// and project. Everything but the model is the real agent: its hooks, its MCP
// client (`claude mcp add-json`, `claude mcp list`), its transcripts.
//
// How Claude Code 2.1.328 reaches the local model (tried here): ANTHROPIC_BASE_URL
// and ANTHROPIC_API_KEY, with CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1; in
// `-p` mode it needs no onboarding state in ~/.claude.json and no sign-in.
// Trust: none to give. `-p` runs without the workspace trust dialog ("Trust
// verification is disabled when running non-interactively with the -p flag",
// code.claude.com/docs/en/security), and the hooks and the user-scope MCP
// server run in a folder never trusted (seen here). Permissions are the
// documented switches a person scripting `-p` uses: `--permission-mode
// acceptEdits` for Claude's own Edit, `--allowedTools mcp__baton` for Baton's
// tools (docs/iam.md, "Permission modes" and "Tool-specific permission rules").
// Its MCP tools are deferred: the first request names them in a system turn
// ("The following deferred tools are now available via ToolSearch") and the
// model loads them with ToolSearch `select:…` before calling them.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { agentBin, agentVersion } from './support/install';
import type { RecordedRequest, RunningModel, Step } from './support/scriptedModel';
import { startModel, printShare } from './support/scriptedModel';
import { anthropicTools, anthropicWire, isCompaction, messagesOf, systemText } from './support/wire/anthropic';
import type { Exit, World } from './support/world';
import type { Doctor, Resume, Sessions } from './support/replies';
import { baton, batonJson, hookLog, makeWorld, removeWorld, run, vaultFiles, vaultText } from './support/world';
import { userWordsIn } from '../../src/adapters/transcripts/transcripts';
import { assertOneSession, ORIGIN_NOTE, ORIGIN_TASK } from './support/origin';
import { assertPassBacksTheClaim, FAIL, keepHookPayloads, keptShellPayloads, PASS, saveShellFixtures, writeScripts } from './support/runs';

const DEAD_END = 'toFixed(2) in total(): returns a string, so the sum concatenates';
const DECISION = 'kept reduce: one pass, no mutation';
const NEXT = 'add a test for 0.1 + 0.2 in test/cart.test.js';
const PROMPT = 'Round the cart total to cents';
const SHELL_TASK = 'Cart sums checked';
const FIXTURES = path.resolve(__dirname, '../fixtures/transcripts/claude-code');

interface Connected {
  ran: string[];
  commands: string[];
  failures: string[];
  files: { path: string; action: string }[];
}
interface ClaudeJson {
  mcpServers?: Record<string, { command: string; args: string[]; env?: Record<string, string> }>;
}

const isBaton = (name: string): boolean => name.startsWith('mcp__baton__');
/** The agent's own loop: the requests that offer ToolSearch (not a title or a compaction's summary). */
const loopOf = (m: RunningModel, from = 0): RecordedRequest[] =>
  m.model.requests
    .slice(from)
    .filter((r) => r.path.startsWith('/v1/messages?') || r.path === '/v1/messages')
    .filter((r) => anthropicTools(r).includes('ToolSearch'));
const checkpointTexts = (world: World): string[] =>
  vaultFiles(world)
    .filter((f) => f.endsWith('.md') && !f.endsWith('uncommitted.md'))
    .map((f) => fs.readFileSync(path.join(world.vault, f), 'utf8'));
const captures = (world: World): string[] => checkpointTexts(world).filter((t) => /^capture: extractive$/m.test(t));
const claudeJson = (world: World): ClaudeJson => JSON.parse(fs.readFileSync(path.join(world.home, '.claude.json'), 'utf8')) as ClaudeJson;
const claudeProblems = async (world: World): Promise<string[]> => {
  // Doctor exits 1 when something needs fixing: its JSON is read either way.
  const doctor = JSON.parse((await baton(world, ['doctor', '--json'])).stdout) as Doctor;
  return doctor.agents.find((a) => a.agent === 'claude-code' && a.scope === 'user')?.problems ?? [];
};
/** Each text a request carries to the model: the system prompt, then each message's text blocks. */
const blocksOf = (r: RecordedRequest): string[] => [
  systemText(r),
  ...messagesOf(r.body).flatMap((m) => (typeof m.content === 'string' ? [m.content] : m.content.map((b) => b.text ?? ''))),
];
const saidIn = (r: RecordedRequest): string => blocksOf(r).join('\n');

describe(`Claude Code ${agentVersion('claude-code')}, end to end`, function () {
  let world: World;
  let model: RunningModel;
  let sessionId = '';
  /** The transcripts, copied after each run. */
  const transcripts = new Map<string, string>();

  const claude = async (m: RunningModel, args: string[]): Promise<Exit> => {
    const env = { ANTHROPIC_BASE_URL: m.url, ANTHROPIC_API_KEY: 'scripted-key', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' };
    const r = await run(world, agentBin('claude-code'), [...args, '--permission-mode', 'acceptEdits', '--allowedTools', 'mcp__baton', '--output-format', 'json'], {
      env,
      timeoutMs: 150_000,
    });
    assert.equal(r.code, 0, `claude ${args.join(' ')}: ${r.signal ?? ''}\n${r.stdout}\n${r.stderr}`);
    const dir = path.join(world.home, '.claude', 'projects');
    for (const sub of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
      for (const f of fs.readdirSync(path.join(dir, sub)).filter((n) => n.endsWith('.jsonl'))) transcripts.set(f, fs.readFileSync(path.join(dir, sub, f), 'utf8'));
    }
    return r;
  };

  before(async function () {
    world = makeWorld('claude');
    const file = path.join(world.project, 'src', 'cart.js');
    const script: Step[] = [
      { tool: /^ToolSearch$/, input: { query: 'select:mcp__baton__note_progress,mcp__baton__checkpoint', max_results: 5 } },
      { tool: /^mcp__baton__note_progress$/, input: { text: 'tried toFixed(2) in total(): it returns a string, the sum concatenates' } },
      // Claude Code's Edit refuses a file not read in the session: Read first, as the model would.
      { tool: /^Read$/, input: { file_path: file } },
      {
        tool: /^Edit$/,
        input: {
          file_path: file,
          old_string: 'return items.reduce((sum, i) => sum + i.price, 0);',
          new_string: 'return Math.round(items.reduce((sum, i) => sum + i.price, 0) * 100) / 100;',
        },
      },
      { tool: /^mcp__baton__checkpoint$/, input: { task: 'Round cart totals to cents', failed: [DEAD_END], decisions: [DECISION], next: NEXT } },
      { text: 'Rounded the total to cents.' },
    ];
    model = await startModel(anthropicWire, script);
  });

  after(async () => {
    await model?.close();
    // A kept world keeps what the model was asked too, to read the real requests.
    if (world && process.env.BATON_AGENTS_KEEP) fs.writeFileSync(path.join(world.root, 'requests.json'), JSON.stringify(model.model.requests, null, 1));
    if (world) removeWorld(world);
  });

  it('connect is one step: a dry run shows `claude mcp add-json` and runs nothing; connect runs it; `claude mcp list` writes no note', async () => {
    const dry = await baton(world, ['connect', 'claude-code', '--dry-run']);
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /Would run:\n {2}claude mcp add-json --scope user baton '\{/);
    assert.ok(!fs.existsSync(path.join(world.home, '.claude.json')), 'a dry run runs no claude command');

    // As the README says: one command, `claude` on PATH.
    const r = await batonJson<Connected>(world, ['connect', 'claude-code']);
    assert.deepEqual(r.failures, []);
    assert.deepEqual(r.commands, [], 'nothing left for the person to run');
    assert.equal(r.ran.length, 1);
    const server = claudeJson(world).mcpServers?.baton;
    assert.ok(server, "claude mcp add-json wrote Baton's server into ~/.claude.json");
    assert.deepEqual(server.args, ['mcp']);
    assert.equal(server.env?.BATON_AGENT, 'claude-code');
    assert.equal(server.env?.BATON_VAULT, world.vault);
    assert.deepEqual(await claudeProblems(world), []);
    // Connecting again runs nothing: the server is already the current one.
    assert.deepEqual((await batonJson<Connected>(world, ['connect', 'claude-code'])).ran, []);

    // `claude mcp list` checks each server's health and fires SessionEnd for a session that never started.
    const before = vaultFiles(world);
    const list = await run(world, agentBin('claude-code'), ['mcp', 'list'], { timeoutMs: 120_000 });
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /baton: .* - ✔ Connected/);
    assert.deepEqual(vaultFiles(world), before, `claude mcp list wrote into the vault:\n${vaultText(world)}`);
  });

  it('doctor and the Agents view name a Claude Code whose MCP server was removed, and Reconnect (connect) fixes it', async () => {
    const rm = await run(world, agentBin('claude-code'), ['mcp', 'remove', '--scope', 'user', 'baton'], { timeoutMs: 120_000 });
    assert.equal(rm.code, 0, rm.stderr);
    const problems = await claudeProblems(world);
    assert.ok(
      problems.some((p) => /MCP server is missing in ~\/\.claude\.json/.test(p) && p.includes('run baton connect claude-code')),
      JSON.stringify(problems),
    );
    const again = await batonJson<Connected>(world, ['connect', 'claude-code']);
    assert.equal(again.ran.length, 1, JSON.stringify(again));
    assert.deepEqual(await claudeProblems(world), []);
  });

  it('session 1: a note, its own Edit, a checkpoint with a dead end: one agent, the edited file in Files, no clutter', async () => {
    const r = await claude(model, ['-p', PROMPT]);
    sessionId = (JSON.parse(r.stdout) as { session_id: string }).session_id;
    assert.ok(sessionId, r.stdout);
    const loop = loopOf(model);
    assert.equal(loop.length, 6, 'ToolSearch, note, Read, Edit, checkpoint, the answer');
    assert.ok(anthropicTools(loop[1]).includes('mcp__baton__checkpoint'), "ToolSearch loaded Baton's tools into the next request");
    assert.match(fs.readFileSync(path.join(world.project, 'src', 'cart.js'), 'utf8'), /Math\.round/);

    const sessions = await batonJson<Sessions>(world, ['sessions', world.projectName]);
    const [cp] = sessions.checkpoints.filter((c) => c.failed.length);
    assert.ok(cp, JSON.stringify(sessions));
    assert.deepEqual(cp.failed, [DEAD_END]);
    assert.equal(cp.next, NEXT);
    assert.deepEqual(captures(world), [], 'no capture in a session that did not compact');
    const names = new Set([...sessions.checkpoints.map((c) => c.agent), ...sessions.uncommitted.map((n) => n.agent)]);
    assert.deepEqual([...names], ['claude-code'], 'one agent name for Claude Code');
    assert.deepEqual(cp.files, ['src/cart.js']);
    const resume = await batonJson<Resume>(world, ['resume', world.projectName]);
    const clutter = /\bstopped\b|session .* ended/;
    assert.ok(!resume.uncommitted.some((n) => clutter.test(n.text)), `lifecycle notes in the hand-over: ${JSON.stringify(resume.uncommitted)}`);
    assert.ok(!clutter.test(cp.state), cp.state);
    assert.ok(!vaultText(world).includes(world.root), `no absolute path of this machine in the vault:\n${vaultText(world)}`);
  });

  it('compaction (`claude -p /compact --resume`): one capture, and the dead end, decisions and next step still handed over', async () => {
    const from = model.model.requests.length;
    await claude(model, ['-p', '/compact', '--resume', sessionId]);
    assert.ok(model.model.requests.slice(from).some(isCompaction), 'Claude Code asked for the compaction summary');
    const [capture, ...more] = captures(world);
    assert.ok(capture, `a capture before the compaction:\n${checkpointTexts(world).join('\n---\n')}`);
    assert.equal(more.length, 0, `exactly one capture:\n${more.join('\n---\n')}`);
    assert.match(capture, new RegExp(`^## Task\\n\\n${PROMPT}\\n`, 'm'));

    const resume = await batonJson<Resume>(world, ['resume', world.projectName]);
    assert.ok(resume.latest);
    assert.deepEqual(resume.latest.failed, [DEAD_END], 'the capture hides no dead end');
    assert.deepEqual(resume.latest.decisions, [DECISION]);
    assert.equal(resume.latest.next, NEXT);
  });

  it("session 2: its first request holds the hand-over's dead end and next step; Baton's tools are offered; Baton's share measured", async () => {
    // Claude Code 2.1.328 does not wait for MCP servers before its first
    // request: on a loaded machine Baton's tools are announced in a later one
    // (seen in this tier at load 20+). ToolSearch waits for them, as in
    // session 1, so the script asks for them first; the hand-over comes by the
    // SessionStart hook, which Claude Code awaits, so it is always in the first.
    const fresh = await startModel(anthropicWire, [
      { tool: /^ToolSearch$/, input: { query: 'select:mcp__baton__note_progress,mcp__baton__checkpoint', max_results: 5 } },
      { text: 'The 0.1 + 0.2 test is next.' },
    ]);
    try {
      await claude(fresh, ['-p', 'What is left to do?']);
      const loop = loopOf(fresh);
      const [first] = loop;
      assert.ok(first, 'a loop request');
      const said = saidIn(first);
      // Claude Code 2.1.328 passes a SessionStart hook's stdout as a system turn: "SessionStart:startup hook success: …".
      const handover = /SessionStart:startup hook success: ([\s\S]*?\(End of Baton's hand-over\.\))/.exec(said)?.[1] ?? '';
      assert.ok(handover.includes(DEAD_END), `the dead end in the hand-over:\n${said.slice(-6000)}`);
      assert.ok(handover.includes(NEXT));
      // Deferred: Baton's tools are named in a system turn, their schemas loaded by ToolSearch when called.
      // Each system turn may name more ("deferred tools are now available…", then one name a line): all of them count.
      const deferredIn = (r: RecordedRequest): string[] =>
        [...saidIn(r).matchAll(/deferred tools are now available via ToolSearch[^\n]*\n([\s\S]*?)(?:\n\n|$)/g)].flatMap((m) => m[1].split('\n'));
      const offered = loop.find((r) => deferredIn(r).some(isBaton));
      assert.ok(offered, `Baton's tools offered in none of ${loop.length} requests: ${loop.map((r) => deferredIn(r).join(', ')).join(' | ')}`);
      const batonNamed = deferredIn(offered).filter(isBaton);
      assert.ok(batonNamed.includes('mcp__baton__checkpoint') && batonNamed.includes('mcp__baton__note_progress'), `Baton's tools offered: ${batonNamed.join(', ')}`);
      const schemas = ((offered.body as { tools: { name: string }[] }).tools ?? []).filter((t) => isBaton(t.name));
      // Under "# MCP Server Instructions", one "## NAME" section per server, up to the next server, the skills' list or the block's end.
      const instructions =
        blocksOf(offered)
          .map((t) => /## baton\n([\s\S]*?)(?=\n## |\n\nThe following |$)/.exec(t)?.[1] ?? '')
          .find(Boolean) ?? '';
      assert.ok(instructions.includes('Baton'), `the MCP server instructions reach the model:\n${saidIn(offered).slice(0, 3000)}`);
      const schemaChars = JSON.stringify(schemas).length + batonNamed.join('\n').length;
      printShare(
        `Claude Code ${agentVersion('claude-code')}`,
        [
          [`${batonNamed.length} tools deferred, ${schemas.length} schemas sent:`, schemaChars],
          ['instructions', instructions.length],
          ['hand-over', handover.length],
        ],
        offered.raw.length,
      );
      assert.equal(captures(world).length, 1, 'a session that did not compact writes no capture');
    } finally {
      await fresh.close();
    }
  });

  it("the transcripts Claude Code wrote read as the user's words (and become the reader's fixtures)", () => {
    assert.ok(transcripts.size >= 2, [...transcripts.keys()].join(', '));
    const dir = path.join(world.root, 'transcripts');
    fs.mkdirSync(dir, { recursive: true });
    const said: string[] = [];
    for (const [name, text] of transcripts) {
      const file = path.join(dir, name);
      fs.writeFileSync(file, text);
      const words = userWordsIn(file, 'claude');
      said.push(words.opening, ...words.latest);
    }
    assert.deepEqual(said.filter(Boolean).sort(), [PROMPT, 'What is left to do?'].sort());
    // BATON_AGENTS_FIXTURES=1 refreshes test/fixtures/transcripts/claude-code/ from this run: the conversation's
    // lines only (Claude Code also logs each request's blobs and attachments: 200 KB of its own prompt), this
    // machine's paths replaced.
    if (process.env.BATON_AGENTS_FIXTURES) {
      fs.mkdirSync(FIXTURES, { recursive: true });
      for (const text of transcripts.values()) {
        const kind = text.includes('"isCompactSummary":true') ? 'compacted' : 'new-session';
        const kept = text.split('\n').filter((l) => (/"type":"(?:user|assistant|system)"/.test(l) && !/"type":"attachment"/.test(l)) || /"type":"hook_success"/.test(l));
        fs.writeFileSync(path.join(FIXTURES, `${kind}.jsonl`), kept.join('\n').split(world.root).join('/WORLD').split(world.root.replace(/\//g, '-')).join('-WORLD') + '\n');
      }
    }
  });

  it("a session's MCP checkpoint and note name its agent session, as its hooks' notes do (the server's CLAUDE_CODE_SESSION_ID, else the hook's record)", async () => {
    const m = await startModel(anthropicWire, [
      { tool: /^ToolSearch$/, input: { query: 'select:mcp__baton__note_progress,mcp__baton__checkpoint', max_results: 5 } },
      { tool: /^mcp__baton__checkpoint$/, input: { task: ORIGIN_TASK } },
      { tool: /^mcp__baton__note_progress$/, input: { text: ORIGIN_NOTE } },
      { text: 'Checked.' },
    ]);
    try {
      const r = await claude(m, ['-p', 'Which session is this?']);
      assertOneSession(world, (JSON.parse(r.stdout) as { session_id: string }).session_id);
    } finally {
      await m.close();
    }
  });

  it('its own Bash, a pass and a failure, is recorded as runs; a Verified claim naming the pass is backed by it, the failure is in Commands run', async () => {
    writeScripts(world);
    // Bash asks for permission in -p mode: allowed the way a person allows it, in the project's local settings.
    fs.mkdirSync(path.join(world.project, '.claude'), { recursive: true });
    fs.writeFileSync(path.join(world.project, '.claude', 'settings.local.json'), JSON.stringify({ permissions: { allow: ['Bash'] } }));
    const m = await startModel(anthropicWire, [
      { tool: /^Bash$/, input: { command: PASS, description: 'Run the passing check' } },
      { tool: /^Bash$/, input: { command: FAIL, description: 'Run the failing check' } },
      { tool: /^ToolSearch$/, input: { query: 'select:mcp__baton__checkpoint', max_results: 5 } },
      { tool: /^mcp__baton__checkpoint$/, input: { task: SHELL_TASK, verified: [`the cart sums — ${PASS}`] } },
      { text: 'Checked.' },
    ]);
    const undo = keepHookPayloads(world);
    try {
      await claude(m, ['-p', 'Check the cart sums.']);
    } finally {
      undo();
      await m.close();
    }
    saveShellFixtures(world, 'claude-code', agentVersion('claude-code'));
    // Seen (2.1.328): PostToolUse for the pass (tool_response {stdout, stderr, interrupted, …}), PostToolUseFailure for the exit 3 (error "Exit code 3").
    assert.deepEqual(
      keptShellPayloads(world)
        .map((p) => [p.hook_event_name, p.tool_name, (p.tool_input as { command: string }).command])
        .sort(),
      [
        ['PostToolUse', 'Bash', PASS],
        ['PostToolUseFailure', 'Bash', FAIL],
      ],
    );
    assertPassBacksTheClaim(world, SHELL_TASK, hookLog(world));
  });
});

describe(`Claude Code ${agentVersion('claude-code')}, connect without \`claude\` on PATH and disconnect`, function () {
  let world: World;
  before(() => {
    world = makeWorld('claude-nopath');
  });
  after(() => world && removeWorld(world));

  it('prints the command for the person, doctor names the missing server; with claude, disconnect runs `claude mcp remove`', async () => {
    // The world's PATH without the agents' folder: no `claude` to run.
    const bare = {
      PATH: (world.env.PATH ?? '')
        .split(':')
        .filter((d) => !d.includes('.agents-test'))
        .join(':'),
    };
    const r = await baton(world, ['connect', 'claude-code'], { env: bare });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Now run:\n {2}claude mcp add-json --scope user baton '\{"command":[^']*"BATON_AGENT":"claude-code"/);
    // Claude Code never ran here: no ~/.claude.json, so no server (doctor said "Nothing needs fixing" before).
    const problems = await claudeProblems(world);
    assert.ok(
      problems.some((p) => /MCP server is missing/.test(p)),
      JSON.stringify(problems),
    );

    assert.equal((await batonJson<Connected>(world, ['connect', 'claude-code'])).ran.length, 1);
    const off = await batonJson<Connected>(world, ['disconnect', 'claude-code']);
    assert.deepEqual(off.ran, ['claude mcp remove --scope user baton']);
    assert.equal(claudeJson(world).mcpServers?.baton, undefined, 'disconnect took the server out of ~/.claude.json');
    assert.ok(!fs.existsSync(path.join(world.home, '.claude', 'settings.json')), 'and the hooks file Baton created');
  });
});
