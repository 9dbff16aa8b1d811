// Before compaction, every host: connect writes the host's hooks into a
// temporary HOME, the pre-compaction command is run as the host runs it (see
// support/hostShell.ts) with the host's documented payload and a small
// transcript in the host's own format (builders below, from the schemas cited
// in src/adapters/transcripts/*.ts), and the checkpoint written is read back.
// A torn or foreign transcript gives a capture of the session's notes, never a
// crash and never an empty checkpoint; with no notes either, nothing at all.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { AgentId } from '../../src/adapters/agents/agentPlan';
import { cli, ensureBuilt } from './support/cli';
import type { HostShell } from './support/hostShell';
import { hostShell } from './support/hostShell';

const OPENING = 'Fix the flaky checkout test in src/checkout/cart.test.ts; it fails one run in five.';
const LATEST = ['Try fake timers first.', 'What does the coupon service return on a 429?', 'Keep the fix inside cart.ts.'];
const j = (v: unknown): string => JSON.stringify(v);

/** Each host's transcript of the same session: the user's four messages among what the host writes on its own. */
const transcripts: Record<AgentId, () => string[]> = {
  'claude-code': () => [
    j({ type: 'user', message: { role: 'user', content: OPENING } }),
    j({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'Looking at the test.' }] } }),
    j({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'FAIL cart.test.ts' }] }, toolUseResult: {} }),
    ...LATEST.map((m) => j({ type: 'user', message: { role: 'user', content: m } })),
  ],
  // RolloutLine {timestamp, type, payload}: what Codex injects arrives as user response items too.
  codex: () => [
    j({ timestamp: 't', type: 'session_meta', payload: { id: 'x-1', cwd: '/w', originator: 'codex_cli_rs' } }),
    j({
      timestamp: 't',
      type: 'response_item',
      payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: '# AGENTS.md instructions for /w\n\nUse pnpm.' }] },
    }),
    j({
      timestamp: 't',
      type: 'response_item',
      payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: '<environment_context>\n  <cwd>/w</cwd>\n</environment_context>' }] },
    }),
    j({ timestamp: 't', type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: OPENING }] } }),
    j({ timestamp: 't', type: 'event_msg', payload: { type: 'user_message', message: OPENING, images: [] } }),
    j({ timestamp: 't', type: 'event_msg', payload: { type: 'agent_message', message: 'Looking at the test.' } }),
    j({ timestamp: 't', type: 'response_item', payload: { type: 'function_call_output', call_id: 'c1', output: 'FAIL cart.test.ts' } }),
    ...LATEST.map((m) => j({ timestamp: 't', type: 'event_msg', payload: { type: 'user_message', message: m, images: [] } })),
  ],
  // JSONL chat recording: metadata, message records (displayContent is what was typed), a rewind, a $set.
  gemini: () => [
    j({ sessionId: 'g-1', projectHash: 'abc', startTime: '2026-12-01T10:00:00Z', lastUpdated: '2026-12-01T10:00:00Z' }),
    j({
      id: 'm1',
      timestamp: 't',
      type: 'user',
      content: [{ text: `${OPENING}\n--- Content from referenced files ---\nexport const cart = 1;` }],
      displayContent: [{ text: OPENING }],
    }),
    // Reported over Gemini's threshold (0.5 of 1,048,576 by default): this check compresses (see the Gemini test below).
    j({
      id: 'm2',
      timestamp: 't',
      type: 'gemini',
      content: 'Looking at the test.',
      toolCalls: [{ id: 'c1', name: 'read_file', args: {}, status: 'success', timestamp: 't' }],
      tokens: { input: 600000, output: 10 },
      model: 'gemini-3.8-flash',
    }),
    j({ id: 'm3', timestamp: 't', type: 'info', content: 'Compressing chat history' }),
    j({ id: 'm4', timestamp: 't', type: 'user', content: 'typo, ignore this' }),
    j({ $rewindTo: 'm4' }),
    ...LATEST.map((m, i) => j({ id: `u${i}`, timestamp: 't', type: 'user', content: [{ text: m }] })),
    j({ $set: { lastUpdated: '2026-12-01T11:00:00Z' } }),
  ],
  cursor: () => [
    j({ role: 'user', message: { content: [{ type: 'text', text: `<timestamp>Tuesday, Dec 1, 2026</timestamp>\n<user_query>\n${OPENING}\n</user_query>` }] } }),
    j({
      role: 'assistant',
      message: {
        content: [
          { type: 'text', text: 'Looking at the test.' },
          { type: 'tool_use', name: 'Read', input: { path: '/w/cart.ts' } },
        ],
      },
    }),
    ...LATEST.map((m) => j({ role: 'user', message: { content: [{ type: 'text', text: `<user_query>\n${m}\n</user_query>` }] } })),
  ],
  copilot: () => [
    j({ type: 'session.start', data: { sessionId: 'p-1', producer: 'copilot-agent', context: { cwd: '/w' } }, id: 'e1', timestamp: 't', parentId: null }),
    j({
      type: 'user.message',
      data: { content: OPENING, transformedContent: `<current_datetime>now</current_datetime>\n\n${OPENING}`, attachments: [] },
      id: 'e2',
      timestamp: 't',
      parentId: 'e1',
    }),
    j({ type: 'assistant.message', data: { messageId: 'a1', content: 'Looking at the test.' }, id: 'e3', timestamp: 't', parentId: 'e2' }),
    j({ type: 'tool.execution_complete', data: { toolName: 'bash', result: 'FAIL cart.test.ts' }, id: 'e4', timestamp: 't', parentId: 'e3' }),
    ...LATEST.map((m, i) => j({ type: 'user.message', data: { content: m, attachments: [] }, id: `u${i}`, timestamp: 't', parentId: 'e4' })),
  ],
};

/** Each host's compaction event, as its config names it, and its documented payload around a transcript path. */
const hosts: Record<AgentId, { event: string; payload: (transcript: string | null, repo: string) => Record<string, unknown> }> = {
  'claude-code': {
    event: 'PreCompact',
    payload: (t, repo) => ({ session_id: 'c-1', transcript_path: t, cwd: repo, hook_event_name: 'PreCompact', trigger: 'auto', custom_instructions: '' }),
  },
  // codex-rs/hooks/schema/generated/pre-compact.command.input.schema.json
  codex: {
    event: 'PreCompact',
    payload: (t, repo) => ({ session_id: 'x-1', turn_id: 'turn-1', transcript_path: t, cwd: repo, hook_event_name: 'PreCompact', model: 'gpt-5', trigger: 'auto' }),
  },
  // gemini-cli docs/hooks/reference.md: the base input plus trigger
  gemini: {
    event: 'PreCompress',
    payload: (t, repo) => ({ session_id: 'g-1', transcript_path: t, cwd: repo, hook_event_name: 'PreCompress', timestamp: '2026-12-01T11:00:00Z', trigger: 'auto' }),
  },
  cursor: {
    event: 'preCompact',
    payload: (t, repo) => ({
      conversation_id: 'conv-1',
      generation_id: 'gen-1',
      model: 'claude-4',
      hook_event_name: 'preCompact',
      cursor_version: '2.1.0',
      workspace_roots: [repo],
      user_email: null,
      transcript_path: t,
      trigger: 'auto',
      context_usage_percent: 87,
      context_tokens: 174000,
      context_window_size: 200000,
      message_count: 42,
      messages_to_compact: 30,
      is_first_compaction: true,
    }),
  },
  // cli-command-reference, "preCompact", camelCase input
  copilot: { event: 'preCompact', payload: (t, repo) => ({ sessionId: 'p-1', timestamp: 1764586800000, cwd: repo, transcriptPath: t, trigger: 'auto', customInstructions: '' }) },
};

const AGENTS = Object.keys(hosts) as AgentId[];

describe('before compaction, every host: a capture from its own transcript, else from the notes, never an empty one', function () {
  this.timeout(60_000);
  let world: HostShell;
  before(() => ensureBuilt());
  beforeEach(() => {
    world = hostShell('baton-precompact-');
  });
  afterEach(() => world.dispose());

  const scopeDir = (): string => path.join(world.vault, 'sessions', 'kestrel');
  const checkpoints = (): string[] =>
    fs.existsSync(scopeDir())
      ? fs
          .readdirSync(scopeDir())
          .filter((f) => f.endsWith('.md') && f !== 'uncommitted.md')
          .map((f) => fs.readFileSync(path.join(scopeDir(), f), 'utf8'))
      : [];
  const writeTranscript = (name: string, lines: string[], tail = ''): string => {
    const file = path.join(world.root, name);
    fs.writeFileSync(file, lines.join('\n') + '\n' + tail);
    return file;
  };
  const compact = (agent: AgentId, transcript: string | null): void => {
    const r = world.run(world.commandFor(agent, hosts[agent].event), hosts[agent].payload(transcript, world.repo));
    assert.deepEqual([r.code, r.stdout], [0, ''], `${agent}: ${r.stderr}`);
  };
  const hooksLog = (): string => {
    const file = path.join(world.vault, '.baton', 'hooks.log');
    return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  };

  for (const agent of AGENTS) {
    it(`${agent}: the opening request and the latest three messages, under its own agent name, from its own format`, () => {
      // A torn last line (the host was writing when the hook ran) is skipped, not fatal.
      const transcript = writeTranscript(`${agent}.jsonl`, transcripts[agent](), '{"type":"user","message":{"role":"user","content":"cut mid-wr');
      compact(agent, transcript);
      const [cp, ...more] = checkpoints();
      assert.equal(more.length, 0);
      assert.match(cp, new RegExp(`^agent: ${agent}$`, 'm'));
      assert.match(cp, /^capture: extractive$/m);
      assert.match(cp, /^capture_source: transcript$/m);
      assert.ok(cp.includes(`## Task\n\n${OPENING}\n`), cp);
      assert.ok(cp.includes(`Latest user messages:\n${LATEST.map((m) => `- ${m}`).join('\n')}\n`), cp);
      assert.doesNotMatch(cp, /AGENTS\.md|environment_context|Looking at the test|FAIL cart|typo, ignore|Content from referenced|current_datetime|user_query|timestamp>|cut mid/);
      // Nothing new said: the next compaction writes nothing more.
      compact(agent, transcript);
      assert.equal(checkpoints().length, 1);
    });

    it(`${agent}: a torn or foreign transcript gives a capture of the session's working notes; with no notes, nothing, and the reason in hooks.log`, async () => {
      // Another host's transcript (a misconfigured path) holds nothing this host's reader takes, and the last line is torn.
      const foreign = transcripts[AGENTS[(AGENTS.indexOf(agent) + 1) % AGENTS.length]]();
      const torn = writeTranscript(`${agent}-torn.jsonl`, foreign, '{"type":"user","message":{"role":"user","content":"Fix the fla');
      compact(agent, torn);
      assert.deepEqual(checkpoints(), [], 'no empty capture');
      assert.match(
        hooksLog(),
        new RegExp(
          `${agent} pre-compact nothing to capture: the transcript holds no message of the user's that Baton can read \\(.*${agent}-torn\\.jsonl\\), and ${agent} has no open working notes in kestrel`,
        ),
      );

      assert.equal((await cli(['note', '--project', 'kestrel', '--agent', agent, 'fake timers did not help: the coupon clock is real time'], { vault: world.vault })).code, 0);
      compact(agent, torn);
      const [cp] = checkpoints();
      assert.match(cp, /^capture: extractive$/m);
      assert.match(cp, /^capture_source: notes$/m);
      assert.ok(!cp.includes(world.root), `this machine's paths reached the vault:\n${cp}`);
      assert.match(cp, new RegExp(`^agent: ${agent}$`, 'm'));
      assert.match(cp, /Capture before context compaction \(auto\): the transcript holds no message of the user's that Baton can read, so this holds the session's working notes/);
      assert.match(cp, /Recorded during the session:\n- fake timers did not help: the coupon clock is real time/);
      assert.ok(!cp.includes('## Task'), 'no task made up');
    });
  }

  it("Gemini CLI: a PreCompress that only checks (under its threshold, or one prompt mid-turn) writes nothing; one that compresses carries the last checkpoint's dead ends", async () => {
    const record = (input: number, answered: boolean, ...typed: string[]): string[] => [
      j({ sessionId: 'g-1', projectHash: 'abc', startTime: 't', lastUpdated: 't', kind: 'main' }),
      ...typed.map((m, i) => j({ id: `u${i}`, timestamp: 't', type: 'user', content: [{ text: m }] })),
      j({
        id: 'g1',
        timestamp: 't',
        type: 'gemini',
        content: answered ? 'Done.' : '',
        ...(answered ? {} : { toolCalls: [{ id: 'c1', name: 'read_file' }] }),
        tokens: { input, output: 10 },
        model: 'gemini-3.8-flash',
      }),
    ];
    compact('gemini', writeTranscript('under.jsonl', record(1000, true, OPENING)));
    compact('gemini', writeTranscript('midturn.jsonl', record(900000, false, OPENING)));
    assert.deepEqual(checkpoints(), []);
    assert.match(hooksLog(), /gemini pre-compact Gemini CLI checks before every model call whether to compress; 1000 prompt tokens are under its threshold of 524288/);
    assert.match(hooksLog(), /one request in the middle of its tool calls leaves it nothing to compress yet/);
    // The person's threshold, from Gemini's settings: 1000 tokens are over 0.0005 of the limit.
    const settings = path.join(world.home, '.gemini', 'settings.json');
    fs.writeFileSync(settings, JSON.stringify({ ...JSON.parse(fs.readFileSync(settings, 'utf8')), model: { compressionThreshold: 0.0005 } }));
    assert.equal(
      (
        await cli(
          [
            'checkpoint',
            '--project',
            'kestrel',
            '--agent',
            'gemini',
            '--task',
            'the flaky test',
            '--failed',
            'fake timers: the coupon clock is real time',
            '--decided',
            'keep the fix in cart.ts',
            '--next',
            'stub the coupon service',
          ],
          { vault: world.vault },
        )
      ).code,
      0,
    );
    compact('gemini', writeTranscript('over.jsonl', record(1000, true, OPENING)));
    const cp = checkpoints().find((c) => /^capture: extractive$/m.test(c));
    assert.ok(cp, hooksLog());
    assert.match(cp, /## Didn't work\n\n- fake timers: the coupon clock is real time\n/);
    assert.match(cp, /## Decisions\n\n- keep the fix in cart\.ts\n/);
    assert.match(cp, /## Next\n\nstub the coupon service\n/);
    assert.match(cp, /carried over from \S+-gemini, the checkpoint before this capture/);
  });

  it('Cursor: the context figures of its payload are stated; a null transcript_path is looked up where Cursor keeps the conversation', () => {
    const dir = path.join(world.home, '.cursor', 'projects', world.repo.replace(/^\/+/, '').replace(/[^A-Za-z0-9]/g, '-'), 'agent-transcripts', 'conv-1');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'conv-1.jsonl'), transcripts.cursor().join('\n') + '\n');
    compact('cursor', null);
    const [cp] = checkpoints();
    assert.match(cp, /^capture_source: transcript$/m);
    assert.ok(cp.includes(`## Task\n\n${OPENING}\n`), cp);
    assert.match(cp, /The host reported 87% of the context window in use, 30 of 42 messages to be compacted\./);
  });

  it('Copilot CLI: the compaction instructions the user typed are a capture even without a transcript', () => {
    const command = world.commandFor('copilot', 'preCompact');
    const r = world.run(command, { ...hosts.copilot.payload(path.join(world.root, 'gone.jsonl'), world.repo), trigger: 'manual', customInstructions: 'focus on the coupon clock' });
    assert.equal(r.code, 0);
    const [cp] = checkpoints();
    assert.match(cp, /^capture_source: notes$/m);
    assert.match(cp, /could not be read \(ENOENT[^)]*\), so this holds the session's working notes and the compaction instructions the user gave/);
    assert.match(cp, /Compaction instructions the user gave:\n- focus on the coupon clock/);
    // Compacting again with the same instructions and nothing noted since adds nothing.
    assert.equal(
      world.run(command, { ...hosts.copilot.payload(path.join(world.root, 'gone.jsonl'), world.repo), trigger: 'manual', customInstructions: 'focus on the coupon clock' }).code,
      0,
    );
    assert.equal(checkpoints().length, 1);
  });

  it('Copilot CLI: a compaction before its session log is written quotes the prompt its session start gave (1.0.102 writes the log behind the session)', () => {
    const start = world.run(world.commandFor('copilot', 'sessionStart'), { source: 'new', initialPrompt: OPENING, sessionId: 'p-1', timestamp: 1764586800000, cwd: world.repo });
    assert.equal(start.code, 0, start.stderr);
    const notYet = path.join(world.root, 'session-state', 'p-1', 'events.jsonl');
    compact('copilot', notYet);
    const [cp, ...more] = checkpoints();
    assert.equal(more.length, 0, hooksLog());
    assert.ok(cp, `no capture; hooks.log:\n${hooksLog()}`);
    assert.match(cp, /^capture_source: session-start$/m);
    assert.ok(cp.includes(`## Task\n\n${OPENING}\n`), cp);
    assert.match(cp, /the user's opening request as the session start gave it \(the transcript could not be read \(ENOENT\)\)/);
    assert.ok(!cp.includes(world.root), `this machine's paths reached the vault:\n${cp}`);
    // Once the log exists, its words are read as every host's are.
    fs.mkdirSync(path.dirname(notYet), { recursive: true });
    fs.writeFileSync(notYet, transcripts.copilot().join('\n') + '\n');
    compact('copilot', notYet);
    assert.equal(checkpoints().filter((c) => /^capture_source: transcript$/m.test(c)).length, 1, hooksLog());
  });

  it('VS Code running a Claude hook: its transcript format is unknown, so every reader is tried', () => {
    const transcript = writeTranscript('vscode.jsonl', transcripts['claude-code']());
    const command = world.commandFor('claude-code', 'PreCompact');
    // code.visualstudio.com/docs/agent-customization/hooks: common fields, then PreCompact's trigger.
    const r = world.run(command, {
      timestamp: '2026-12-01T11:00:00.000Z',
      cwd: world.repo,
      sessionId: 'v-1',
      hookEventName: 'PreCompact',
      transcript_path: transcript,
      trigger: 'auto',
    });
    assert.equal(r.code, 0);
    const [cp] = checkpoints();
    assert.match(cp, /^agent: copilot$/m);
    assert.match(cp, /^agent_session: v-1$/m);
    assert.ok(cp.includes(`## Task\n\n${OPENING}\n`), cp);
  });
});
