// `baton import` (issue 27) through the CLI in this process, over a temporary
// home holding the transcripts the real CLIs wrote (support/importHome.ts).
import { strict as assert } from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { IMPORTED_KEY } from '../../src/app/importSessions';
import { openBaton } from '../../src/app/openBaton';
import { updateBinding } from '../../src/adapters/agentSessions';
import { git, gitRepo } from './support/gitRepo';
import type { Home } from './support/importHome';
import {
  checkpointFile,
  CLAUDE_FILE,
  CLAUDE_ID,
  CODEX_FILE,
  CODEX_ID,
  COPILOT_FILE,
  COPILOT_ID,
  fixture,
  GEMINI_FILE,
  GEMINI_ID,
  importJson,
  makeHome,
  realHistory,
} from './support/importHome';

describe('baton import', function () {
  this.timeout(60_000);
  let h: Home;
  beforeEach(() => {
    h = makeHome();
  });
  afterEach(() => fs.rmSync(h.home, { recursive: true, force: true }));

  it('makes one checkpoint of each real session, in its agent, project, times and git state', async () => {
    realHistory(h);
    const r = await importJson(h);
    assert.deepEqual(r.skipped, []);
    assert.equal(r.imported, 4);
    const by = new Map(r.checkpoints.map((c) => [c.agent, c]));
    assert.deepEqual(
      r.checkpoints.map((c) => [c.agent, c.project, c.agentSession, c.source]).sort(),
      [
        ['claude-code', 'claude', CLAUDE_ID, CLAUDE_FILE],
        ['codex', 'codex-cart', CODEX_ID, CODEX_FILE],
        ['copilot', 'shop', COPILOT_ID, COPILOT_FILE],
        ['gemini', 'gemini', GEMINI_ID, GEMINI_FILE],
      ].sort(),
    );

    const claude = checkpointFile(h, by.get('claude-code')!);
    assert.match(claude, /^agent: claude-code$/m);
    assert.match(claude, /^branch: main$/m);
    assert.match(claude, new RegExp(`^${IMPORTED_KEY}: ${CLAUDE_ID}$`, 'm'));
    assert.match(claude, new RegExp(`^agent_session: ${CLAUDE_ID}$`, 'm'));
    assert.match(claude, /## Task\n\nRound the cart total to cents\n/);
    assert.match(claude, /## State\n\nImported from a past claude-code session[^\n]*\n\nRounded the total to cents\.\n/);
    assert.match(claude, /## Files\n\n- src\/cart\.js\n/);
    // The session's own last record, not the time of the import.
    assert.match(claude, /^checkpointed: 2026-12-02T00:43:01Z$/m);

    const codex = checkpointFile(h, by.get('codex')!);
    assert.match(codex, /^commit: f8aae60$/m);
    assert.match(codex, /^branch: main$/m);
    assert.match(codex, /## Task\n\nMake the cart total count item quantities\.\n/);
    assert.match(codex, /\n\nThe cart total counts quantities now\.\n/);
    assert.match(codex, /## Files\n\n- src\/cart\.js\n/);
    assert.match(codex, /^checkpointed: 2026-12-02T00:29:23Z$/m);

    const copilot = checkpointFile(h, by.get('copilot')!);
    assert.match(copilot, /^commit: e1b791d$/m);
    assert.match(copilot, /## Task\n\nFix the cart total rounding\.\n/);
    assert.match(copilot, /\n\nDone: total\(\) rounds the sum to cents\.\n/);
    assert.match(copilot, /## Files\n\n- src\/cart\.js\n/);

    const gemini = checkpointFile(h, by.get('gemini')!);
    assert.match(gemini, /^agent: gemini$/m);
    assert.match(gemini, /## Task\n\nRound the cart total to cents\n/);
    // Gemini's recording names no folder, and none is known here: no path is guessed.
    assert.doesNotMatch(gemini, /## Files/);
  });

  it('takes a Gemini session’s folder from the .project_root beside its chats, for its files', async () => {
    // As Gemini CLI 0.61.0 left its folder in the agents' tier (test/fixtures/import/gemini/: the machine's paths made /WORLD and /HOME).
    const real = path.resolve(__dirname, '../fixtures/import/gemini/tmp/gemini');
    const chat = fs.readdirSync(path.join(real, 'chats'))[0];
    h.put(`.gemini/tmp/gemini/chats/${chat}`, fs.readFileSync(path.join(real, 'chats', chat), 'utf8'));
    h.put('.gemini/tmp/gemini/.project_root', fs.readFileSync(path.join(real, '.project_root'), 'utf8'));
    const r = await importJson(h, 'gemini');
    assert.equal(r.imported, 1);
    assert.equal(r.checkpoints[0].agentSession, '04ee248d-4445-40f2-a795-9538818bce09');
    const text = checkpointFile(h, r.checkpoints[0]);
    assert.match(text, /## Task\n\nRound the cart total to cents\n/);
    assert.match(text, /## Files\n\n- src\/cart\.js\n/);
  });

  it('imported twice, the vault is the same byte for byte, and the second run says why it wrote nothing', async () => {
    realHistory(h);
    assert.equal((await importJson(h)).imported, 4);
    const before = h.vaultFiles();
    const again = await importJson(h);
    assert.equal(again.imported, 0);
    assert.deepEqual(again.checkpoints, []);
    assert.equal(again.skipped.length, 4);
    for (const s of again.skipped) assert.match(s.reason, /^already in the vault \(checkpoint \d{8}-\d{6}-[a-z-]+\)$/);
    assert.deepEqual(h.vaultFiles(), before);
  });

  it('leaves out a session Baton already captured: a checkpoint with its agent_session, or its binding', async () => {
    realHistory(h);
    const baton = openBaton(h.vault);
    await baton.commit({ scope: 'claude', agent: 'claude-code', fields: { task: 'captured by the hook' }, extra: { agent_session: CLAUDE_ID } });
    await updateBinding(h.vault, 'codex', CODEX_ID, 1_796_000_000, { scope: 'codex-cart' });
    const r = await importJson(h);
    assert.deepEqual(r.checkpoints.map((c) => c.agent).sort(), ['copilot', 'gemini']);
    const reasons = new Map(r.skipped.map((s) => [s.source, s.reason]));
    assert.match(reasons.get(CLAUDE_FILE) ?? '', /^already in the vault/);
    assert.match(reasons.get(CODEX_FILE) ?? '', /session binding/);
  });

  it('folds none of the open notes of today into a past session', async () => {
    h.put(CLAUDE_FILE, fixture('claude-code/compacted.jsonl'));
    const baton = openBaton(h.vault);
    await baton.note('claude', 'claude-code', 'working on the tax rules right now');
    const r = await importJson(h, 'claude-code');
    assert.equal(r.imported, 1);
    assert.doesNotMatch(checkpointFile(h, r.checkpoints[0]), /tax rules/);
    assert.match(fs.readFileSync(path.join(h.vault, 'sessions/claude/uncommitted.md'), 'utf8'), /working on the tax rules right now/);
  });

  it('links a past session to the checkpoint before it in time, not to a newer one already in the project', async () => {
    h.put(CLAUDE_FILE, fixture('claude-code/compacted.jsonl'));
    const today = await openBaton(h.vault).commit({ scope: 'claude', agent: 'claude-code', fields: { task: 'checkpointed today' } });
    const r = await importJson(h, 'claude-code');
    assert.equal(r.imported, 1);
    const file = checkpointFile(h, r.checkpoints[0]);
    assert.ok(!file.includes(`[[${today.checkpoint.session}]]`), `the past session does not follow a checkpoint made after it:\n${file}`);
  });

  it('never writes a secret a transcript holds, in the request, the answer or a command', async () => {
    const token = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
    const lines = fixture('claude-code/new-session.jsonl')
      .split('\n')
      .map((l) => l.replace('What is left to do?', `Deploy with ${token} please`).replace('The 0.1 + 0.2 test is next.', `Used ${token} to push.`));
    const bash = {
      type: 'assistant',
      sessionId: 'ignored',
      timestamp: '2026-12-02T00:43:06.900Z',
      message: { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_x', name: 'Bash', input: { command: `GITHUB_TOKEN=${token} npm test` } }] },
    };
    const result = {
      type: 'user',
      timestamp: '2026-12-02T00:43:07.000Z',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_x', is_error: true, content: 'exit 1' }] },
      toolUseResult: {},
    };
    h.put('.claude/projects/-WORLD-claude/s1.jsonl', [...lines.slice(0, 2), JSON.stringify(bash), JSON.stringify(result), ...lines.slice(2)].join('\n'));
    const r = await importJson(h);
    assert.equal(r.imported, 1);
    const text = checkpointFile(h, r.checkpoints[0]);
    assert.match(text, /## Commands run\n\n- GITHUB_TOKEN=.* npm test \(failed\)\n/);
    for (const [f, body] of h.vaultFiles()) assert.ok(!body.includes(token), `${f} holds the token`);
    assert.ok(!JSON.stringify(r).includes(token));
  });

  it('lists the commands a Codex session ran with their exit codes', async () => {
    // Shaped as 0.169.0 writes a function call and its output (the fixture's note_progress call), its shell tool exec_command.
    const at = '2026-12-02T00:29:19.000Z';
    const call = {
      timestamp: at,
      type: 'response_item',
      payload: { type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd: 'npm test' }), call_id: 'call_x' },
    };
    const output = {
      timestamp: at,
      type: 'response_item',
      payload: { type: 'function_call_output', call_id: 'call_x', output: 'Exit code: 1\nWall time: 0.4 seconds\nOutput:\n1 failing' },
    };
    const older = { timestamp: at, type: 'event_msg', payload: { type: 'exec_command_end', call_id: 'call_y', command: ['bash', '-lc', 'git status'], exit_code: 0 } };
    const lines = fixture('codex/codex-0.169.0-session1.jsonl').trimEnd().split('\n');
    h.put(CODEX_FILE, [...lines.slice(0, -2), JSON.stringify(call), JSON.stringify(output), JSON.stringify(older), ...lines.slice(-2)].join('\n') + '\n');
    const r = await importJson(h, 'codex');
    assert.match(checkpointFile(h, r.checkpoints[0]), /## Commands run\n\n- npm test \(exit 1\)\n- git status \(exit 0\)\n/);
  });

  it('skips a torn last line and a record of an unknown type, says so, and imports the rest', async () => {
    const torn = fixture('copilot/session1.events.jsonl').trimEnd() + '\n{"type":"future.thing","data":{}}\n{"type":"assistant.message","data":{"content":"half wri';
    h.put(COPILOT_FILE, torn);
    const r = await importJson(h, 'copilot');
    assert.equal(r.imported, 1);
    assert.deepEqual(r.skipped, [{ source: COPILOT_FILE, reason: 'skipped a torn last line, 1 record(s) of unknown type "future.thing"; the rest imported' }]);
    assert.match(checkpointFile(h, r.checkpoints[0]), /Done: total\(\) rounds the sum to cents\./);
  });

  it('reads a transcript over 1 GB as a stream: a record over the line cap is skipped unread, memory stays flat, the session imported', async () => {
    const lines = fixture('copilot/session1.events.jsonl').trimEnd().split('\n');
    const file = h.put(COPILOT_FILE, lines.slice(0, 10).join('\n') + '\n');
    // A tool's output of 1.1 GB in one record (a hole in the file: no disk is spent on it), then the rest of the session.
    const fd = fs.openSync(file, 'r+');
    fs.writeSync(fd, '\n' + lines.slice(10).join('\n') + '\n', fs.statSync(file).size + Math.round(1.1 * 1024 ** 3));
    fs.closeSync(fd);
    const hourAgo = new Date(Date.now() - 3600_000);
    fs.utimesSync(file, hourAgo, hourAgo);
    assert.ok(fs.statSync(file).size > 1024 ** 3);
    const rssBefore = process.resourceUsage().maxRSS * 1024;
    const r = await importJson(h, 'copilot');
    const grew = process.resourceUsage().maxRSS * 1024 - rssBefore;
    assert.ok(grew < 200 * 1024 ** 2, `peak RSS grew by ${Math.round(grew / 1024 ** 2)} MB reading it`);
    assert.equal(r.imported, 1);
    assert.deepEqual(r.skipped, [{ source: COPILOT_FILE, reason: 'skipped 1 line(s) over 32 MB; the rest imported' }]);
    const text = checkpointFile(h, r.checkpoints[0]);
    assert.match(text, /## Task\n\nFix the cart total rounding\./);
    assert.match(text, /Done: total\(\) rounds the sum to cents\./);
  });

  it('leaves a session file changed moments ago for later: a running session is not frozen half-way', async () => {
    realHistory(h);
    fs.utimesSync(path.join(h.home, CODEX_FILE), new Date(), new Date());
    const r = await importJson(h);
    assert.deepEqual(r.checkpoints.map((c) => c.agent).sort(), ['claude-code', 'copilot', 'gemini']);
    assert.equal(r.skipped.length, 1);
    assert.equal(r.skipped[0].source, CODEX_FILE);
    assert.match(r.skipped[0].reason, /^still being written \(changed \d+ s ago\): import it once the session has ended$/);
  });

  it('goes on past a file it cannot read (a FIFO where a session log should be), naming it', async function () {
    if (process.platform === 'win32') this.skip();
    realHistory(h);
    const fifo = path.join(h.home, '.copilot/session-state/stuck/events.jsonl');
    fs.mkdirSync(path.dirname(fifo), { recursive: true });
    execFileSync('mkfifo', [fifo]);
    const hourAgo = new Date(Date.now() - 3600_000);
    fs.utimesSync(fifo, hourAgo, hourAgo);
    const r = await importJson(h);
    assert.equal(r.imported, 4);
    assert.equal(r.skipped.length, 1);
    assert.equal(r.skipped[0].source, '.copilot/session-state/stuck/events.jsonl');
    assert.match(r.skipped[0].reason, /^could not be read \(.*FIFO/);
  });

  it('--dry-run lists what it would write and writes nothing; --since and --project narrow it', async () => {
    realHistory(h);
    const dry = await importJson(h, '--dry-run');
    assert.equal(dry.dryRun, true);
    assert.equal(dry.imported, 0);
    assert.equal(dry.checkpoints.length, 4);
    assert.ok(!fs.existsSync(path.join(h.vault, 'sessions')));
    // Codex's session ended 00:29:23, Claude's 00:43:01 (the files' times are today's, so the records decide).
    assert.deepEqual(
      (await importJson(h, '--dry-run', '--since', '2026-12-02T00:40:00Z')).checkpoints.map((c) => c.agent),
      ['claude-code'],
    );
    assert.deepEqual(
      (await importJson(h, '--dry-run', '--project', 'shop')).checkpoints.map((c) => c.agent),
      ['copilot'],
    );
    const text = await h.baton('codex', '--dry-run');
    assert.equal(text.code, 0);
    assert.match(text.out, new RegExp(`^would import  codex  codex-cart  ${CODEX_ID}  ${CODEX_FILE.replace(/\./g, '\\.')}$`, 'm'));
    assert.match(text.err, /Reading 1 session file\(s\) of codex/);
    assert.equal((await h.baton('windsurf')).code, 2);
  });

  it('names the project of a session in a linked worktree as project/worktree', async () => {
    const repo = gitRepo(h.home, 'kestrel');
    const wt = path.join(h.home, 'kestrel-tax');
    git(repo, 'worktree', 'add', '-q', '-b', 'tax', wt);
    const lines = fixture('claude-code/new-session.jsonl').split('/WORLD/claude').join(wt);
    h.put(`.claude/projects/-x/${CLAUDE_ID}.jsonl`, lines);
    const r = await importJson(h);
    assert.deepEqual(
      r.checkpoints.map((c) => c.project),
      ['kestrel/kestrel-tax'],
    );
  });

  it('is in the vault format’s list of keys', () => {
    const doc = fs.readFileSync(path.resolve(__dirname, '../../docs/vault-format.md'), 'utf8');
    assert.ok(doc.includes(`| \`${IMPORTED_KEY}\` |`));
  });
});
