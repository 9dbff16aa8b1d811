// Gemini CLI, end to end: the pinned CLI (pins.json) against a scripted
// Gemini API (support/wire/gemini.ts), in a fresh HOME, vault and project.
// Everything but the model is the real agent: its hooks, its MCP client, its
// chat recording, its trust rules.
//
// How Gemini CLI 0.61.0 reaches the local model (read from its bundle):
// GOOGLE_GEMINI_BASE_URL and GEMINI_API_KEY, with API-key auth selected in
// ~/.gemini/settings.json (`security.auth.selectedType: "gemini-api-key"`,
// what its first-run auth dialog writes; `-p` refuses to start without one:
// validateAuthMethod). Compression: `model.compressionThreshold` (a fraction of
// the model's 1,048,576 tokens) against the prompt tokens the model reports;
// Gemini compresses only up to a prompt the user typed, so the compaction
// runs in a resumed session (`--resume latest -p …`), after a tool call
// reported as large.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { agentBin, agentVersion } from './support/install';
import type { RecordedRequest, RunningModel, Step } from './support/scriptedModel';
import { startModel, printShare } from './support/scriptedModel';
import { geminiTools, geminiWire, requestKind } from './support/wire/gemini';
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
const FIXTURES = path.resolve(__dirname, '../fixtures/transcripts/gemini');

const mcpBaton = (name: string): boolean => name.startsWith('mcp_baton_');
/** The agent's own loop: the requests that offer Baton's tools (not the router's or the compression's side requests). */
const loopOf = (m: RunningModel, from = 0): RecordedRequest[] => m.model.requests.slice(from).filter((r) => requestKind(r) === 'loop' && geminiTools(r).some(mcpBaton));
const captures = (world: World): string[] =>
  vaultFiles(world)
    .filter((f) => f.endsWith('.md') && !f.endsWith('uncommitted.md'))
    .map((f) => fs.readFileSync(path.join(world.vault, f), 'utf8'))
    .filter((t) => /^capture: extractive$/m.test(t));
const chats = (world: World): string[] => {
  const dir = path.join(world.home, '.gemini', 'tmp', world.projectName, 'chats');
  return fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((f) => f.endsWith('.jsonl'))
        .map((f) => path.join(dir, f))
    : [];
};

describe(`Gemini CLI ${agentVersion('gemini')}, end to end`, function () {
  let world: World;
  let model: RunningModel;
  /** The chat recordings, copied after each run: Gemini's own cleanup may delete an earlier session's file. */
  const recordings = new Map<string, string>();

  const gemini = async (m: RunningModel, args: string[]): Promise<Exit> => {
    const r = await run(world, agentBin('gemini'), [...args, '--yolo'], { env: { GOOGLE_GEMINI_BASE_URL: m.url, GEMINI_API_KEY: 'scripted-key' }, timeoutMs: 150_000 });
    assert.equal(r.code, 0, `gemini ${args.join(' ')}: ${r.signal ?? ''}\n${r.stdout}\n${r.stderr}`);
    for (const f of chats(world)) recordings.set(path.basename(f), fs.readFileSync(f, 'utf8'));
    return r;
  };

  before(async function () {
    world = makeWorld('gemini');
    const file = path.join(world.project, 'src', 'cart.js');
    const script: Step[] = [
      { tool: /^mcp_baton_note_progress$/, input: { text: 'tried toFixed(2) in total(): it returns a string, the sum concatenates' } },
      {
        tool: /^replace$/,
        input: {
          file_path: file,
          instruction: 'round the total to cents',
          old_string: 'return items.reduce((sum, i) => sum + i.price, 0);',
          new_string: 'return Math.round(items.reduce((sum, i) => sum + i.price, 0) * 100) / 100;',
        },
      },
      { tool: /^mcp_baton_checkpoint$/, input: { task: 'Round cart totals to cents', failed: [DEAD_END], decisions: [DECISION], next: NEXT } },
      { text: 'Rounded the total to cents.' },
      // The resumed session: a tool call reported at 300,000 prompt tokens, over 0.2 of 1,048,576, so the next call compresses.
      { tool: /^read_file$/, input: { file_path: file }, usage: 300_000 },
      { text: 'The total is rounded; the 0.1 + 0.2 test is next.' },
    ];
    model = await startModel(geminiWire, script);
  });

  after(async () => {
    await model?.close();
    if (world) removeWorld(world);
  });

  it('connects as the README says; doctor names the untrusted folder, and trusting it as Gemini records it clears that', async () => {
    const r = await baton(world, ['connect', 'gemini']);
    assert.equal(r.code, 0, r.stderr);
    const settingsFile = path.join(world.home, '.gemini', 'settings.json');
    // The model endpoint's key: API-key auth, as Gemini's auth dialog selects it; and a small compression threshold.
    const settings = JSON.parse(fs.readFileSync(settingsFile, 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(settingsFile, JSON.stringify({ ...settings, security: { auth: { selectedType: 'gemini-api-key' } }, model: { compressionThreshold: 0.2 } }, null, 2));

    // Doctor exits 1 when something needs fixing: its JSON is read either way.
    const doctor = JSON.parse((await baton(world, ['doctor', '--json'])).stdout) as Doctor;
    const problems = doctor.agents.find((a) => a.agent === 'gemini' && a.scope === 'user')?.problems ?? [];
    assert.ok(
      problems.some((p) => p.includes(`has not been told to trust ${world.project}`) && p.includes('choose "Trust folder"')),
      `doctor names the untrusted folder with its step: ${JSON.stringify(problems)}`,
    );
    // The trust step: Gemini's trust dialog needs its terminal UI, so this writes what choosing "Trust folder"
    // writes (docs/cli/trusted-folders.md: the choice is saved in ~/.gemini/trustedFolders.json; the 0.61.0
    // bundle's LoadedTrustedFolders.setValue), the file doctor's step names.
    fs.writeFileSync(path.join(world.home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [world.project]: 'TRUST_FOLDER' }, null, 2));
    const after = JSON.parse((await baton(world, ['doctor', '--json'])).stdout) as Doctor;
    const left = after.agents.find((a) => a.agent === 'gemini' && a.scope === 'user')?.problems ?? [];
    assert.ok(!left.some((p) => /trust/.test(p)), JSON.stringify(left));
  });

  it('session 1: a note, its own edit tool, a checkpoint with a dead end: one agent, the edited file in Files, no clutter', async () => {
    await gemini(model, ['-p', PROMPT]);
    assert.equal(loopOf(model).length, 4, 'note, replace, checkpoint, the answer');
    assert.match(fs.readFileSync(path.join(world.project, 'src', 'cart.js'), 'utf8'), /Math\.round/);

    const sessions = await batonJson<Sessions>(world, ['sessions', world.projectName]);
    const [cp] = sessions.checkpoints.filter((c) => c.failed.length);
    assert.ok(cp, JSON.stringify(sessions));
    assert.deepEqual(cp.failed, [DEAD_END]);
    assert.equal(cp.next, NEXT);
    // A check before a model call that does not compress writes no capture (issue 23: one fired before every call).
    assert.deepEqual(captures(world), [], 'no capture in a session that did not compress');
    const names = new Set([...sessions.checkpoints.map((c) => c.agent), ...sessions.uncommitted.map((n) => n.agent)]);
    assert.deepEqual([...names], ['gemini'], 'one agent name for Gemini CLI, not its MCP client name');
    assert.deepEqual(cp.files, ['src/cart.js']);
    const resume = await batonJson<Resume>(world, ['resume', world.projectName]);
    const clutter = /\bstopped\b|session .* ended/;
    assert.ok(!resume.uncommitted.some((n) => clutter.test(n.text)), `lifecycle notes in the hand-over: ${JSON.stringify(resume.uncommitted)}`);
    assert.ok(!clutter.test(cp.state), cp.state);
    assert.ok(!vaultText(world).includes(world.root), 'no absolute path of this machine in the vault');
  });

  it("compaction: one capture, the user's words (not the hand-over), and the dead end, decisions and next step still handed over", async () => {
    const from = model.model.requests.length;
    await gemini(model, ['--resume', 'latest', '-p', 'Go on']);
    const summaries = model.model.requests.slice(from).filter((r) => requestKind(r) === 'summary');
    assert.ok(summaries.length >= 1, 'Gemini compressed (its summary request)');
    const [capture, ...more] = captures(world);
    assert.ok(capture, 'a capture before the compression');
    assert.equal(more.length, 0, `exactly one capture:\n${more.join('\n---\n')}`);
    assert.match(capture, /^## Task\n\nRound the cart total to cents\n/m);
    assert.doesNotMatch(capture, /hook_context|Hand-over —|Baton, the session record/);
    assert.match(capture, /- Go on\n/);

    const resume = await batonJson<Resume>(world, ['resume', world.projectName]);
    assert.ok(resume.latest);
    assert.deepEqual(resume.latest.failed, [DEAD_END], 'the capture hides no dead end');
    assert.deepEqual(resume.latest.decisions, [DECISION]);
    assert.equal(resume.latest.next, NEXT);
    const text = (await baton(world, ['resume', world.projectName])).stdout;
    assert.ok(text.includes(DEAD_END) && text.includes(NEXT), text);
  });

  it("session 2: its first request holds the hand-over's dead end and next step and Baton's tools; Baton's share measured", async () => {
    const fresh = await startModel(geminiWire, [{ text: 'The 0.1 + 0.2 test is next.' }]);
    try {
      await gemini(fresh, ['-p', 'What is left to do?']);
      const [first] = loopOf(fresh);
      assert.ok(first, "a loop request with Baton's tools");
      const body = first.body as { contents: { parts: { text?: string }[] }[]; tools: { functionDeclarations: { name: string }[] }[] };
      const said = body.contents.flatMap((c) => c.parts.map((p) => p.text ?? '')).join('\n');
      const handover = /<hook_context>([\s\S]*?)<\/hook_context>/.exec(said)?.[1] ?? '';
      assert.ok(handover.includes(DEAD_END), `the dead end in the hand-over:\n${said.slice(0, 4000)}`);
      assert.ok(handover.includes(NEXT));
      const batonTools = body.tools.flatMap((t) => t.functionDeclarations).filter((d) => mcpBaton(d.name));
      assert.ok(batonTools.some((d) => d.name === 'mcp_baton_checkpoint') && batonTools.some((d) => d.name === 'mcp_baton_note_progress'));
      const instructions = /---\[start of server instructions\]---([\s\S]*?)---\[end of server instructions\]---/.exec(said)?.[1] ?? '';
      assert.ok(instructions.includes('Baton'), 'the MCP server instructions reach the model');
      const schemaChars = JSON.stringify(batonTools).length;
      printShare(
        `Gemini CLI ${agentVersion('gemini')}`,
        [
          [`${batonTools.length} tools`, schemaChars],
          ['instructions', instructions.length],
          ['hand-over', handover.length],
        ],
        first.raw.length,
      );
      assert.equal(captures(world).length, 1, 'a session that did not compress writes no capture');
    } finally {
      await fresh.close();
    }
  });

  it("the transcripts Gemini wrote read as the user's words, never Baton's hand-over (and become the reader's fixtures)", () => {
    assert.ok(recordings.size >= 2, [...recordings.keys()].join(', '));
    const dir = path.join(world.root, 'recordings');
    fs.mkdirSync(dir, { recursive: true });
    const said: string[] = [];
    for (const [name, text] of recordings) {
      const file = path.join(dir, name);
      fs.writeFileSync(file, text);
      const words = userWordsIn(file, 'gemini');
      said.push(words.opening, ...words.latest);
    }
    // A resumed session leaves the file it started before switching to the resumed one: no words in it.
    assert.deepEqual(said.filter(Boolean).sort(), ['Go on', PROMPT, 'What is left to do?'].sort());
    // BATON_AGENTS_FIXTURES=1 refreshes test/fixtures/transcripts/gemini/ from this run, this machine's paths replaced.
    if (process.env.BATON_AGENTS_FIXTURES) {
      fs.mkdirSync(FIXTURES, { recursive: true });
      const texts = [...recordings.values()];
      const pick = (needle: string): string => texts.find((t) => t.includes(needle)) ?? '';
      fs.writeFileSync(path.join(FIXTURES, 'resumed-and-compressed.jsonl'), pick('<state_snapshot>').split(world.root).join('/WORLD'));
      fs.writeFileSync(path.join(FIXTURES, 'with-handover.jsonl'), pick('What is left to do?').split(world.root).join('/WORLD'));
    }
  });

  it("a session's MCP checkpoint and note name its agent session, as its hooks' notes do (its session-start hook's record of the CLI process)", async () => {
    // Gemini CLI 0.61.0 gives its MCP server no session id (app/agentHostSession.ts): the record is the only way.
    const m = await startModel(geminiWire, [
      { tool: /^mcp_baton_checkpoint$/, input: { task: ORIGIN_TASK } },
      { tool: /^mcp_baton_note_progress$/, input: { text: ORIGIN_NOTE } },
      { text: 'Checked.' },
    ]);
    try {
      await gemini(m, ['-p', 'Which session is this?']);
      assertOneSession(world);
    } finally {
      await m.close();
    }
  });

  it('its own run_shell_command, a pass and a failure, is recorded as runs; a Verified claim naming the pass is backed by it', async () => {
    writeScripts(world);
    const m = await startModel(geminiWire, [
      { tool: /^run_shell_command$/, input: { command: PASS, description: 'Run the passing check' } },
      { tool: /^run_shell_command$/, input: { command: FAIL, description: 'Run the failing check' } },
      { tool: /^mcp_baton_checkpoint$/, input: { task: SHELL_TASK, verified: [`the cart sums — ${PASS}`] } },
      { text: 'Checked.' },
    ]);
    const undo = keepHookPayloads(world);
    try {
      await gemini(m, ['-p', 'Check the cart sums.']);
    } finally {
      undo();
      await m.close();
    }
    saveShellFixtures(world, 'gemini', agentVersion('gemini'));
    // Seen (0.61.0): AfterTool, tool_name run_shell_command, the exit only in llmContent's "Exit Code: 3"; the pass states none.
    assert.deepEqual(
      keptShellPayloads(world)
        .map((p) => [p.hook_event_name, p.tool_name, (p.tool_input as { command: string }).command])
        .sort(),
      [
        ['AfterTool', 'run_shell_command', FAIL],
        ['AfterTool', 'run_shell_command', PASS],
      ],
    );
    assertPassBacksTheClaim(world, SHELL_TASK, hookLog(world));
  });
});
