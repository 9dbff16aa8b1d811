// `baton import` (issue 27) through the CLI in this process, over a temporary
// home holding the transcripts the real CLIs wrote in the agents' tier
// (test/fixtures/transcripts/: Claude Code 2.1.328, Codex 0.169.0, Gemini CLI
// 0.61.0, Copilot CLI 1.0.102), each put where its agent keeps it. The
// command's handler is called with its flags parsed as the CLI parses them
// (run.ts loads it with a dynamic import, which mocha's loader does not resolve from source).
import { strict as assert } from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { parse } from '../../src/cli/args';
import { COMMANDS } from '../../src/cli/commands';
import { Context } from '../../src/cli/context';
import { importPast } from '../../src/cli/importCommand';
import { BatonError } from '../../src/core/errors';
import { IMPORTED_KEY } from '../../src/app/importSessions';
import { openBaton } from '../../src/app/openBaton';
import { updateBinding } from '../../src/adapters/agentSessions';
import { git, gitRepo } from './support/gitRepo';
import { tempDir } from './support/tempVault';

const FIX = path.resolve(__dirname, '../fixtures/transcripts');
const CLAUDE_ID = '5c163c28-06ca-4809-ae2c-df532c6b92ba';
const CODEX_ID = '01a23427-b882-7e73-a525-bc20fcc1edb1';
const GEMINI_ID = '4c1c2260-86fd-49bc-a285-fd2fb09a14e6';
const COPILOT_ID = 'c4fdfb21-77a4-46b2-9123-87134eeae22b';

const CLAUDE_FILE = `.claude/projects/-WORLD-claude/${CLAUDE_ID}.jsonl`;
const CODEX_FILE = `.codex/sessions/2026/12/02/rollout-2026-12-02T00-29-08-${CODEX_ID}.jsonl`;
const GEMINI_FILE = `.gemini/tmp/gemini/chats/session-2026-12-02T00-14-4c1c2260.jsonl`;
const COPILOT_FILE = `.copilot/session-state/${COPILOT_ID}/events.jsonl`;

interface Home {
  home: string;
  vault: string;
  put(rel: string, text: string): string;
  /** `baton import ARGS…`; a usage error is exit 2, as the CLI exits. */
  baton(...args: string[]): Promise<{ code: number; out: string; err: string }>;
  vaultFiles(): Map<string, string>;
}

function makeHome(): Home {
  const home = tempDir('baton-import-');
  const vault = path.join(home, 'vault');
  const put = (rel: string, text: string): string => {
    const f = path.join(home, rel);
    fs.mkdirSync(path.dirname(f), { recursive: true });
    fs.writeFileSync(f, text);
    // A past session: its agent stopped writing it an hour ago (a fresh file is a running session, left for later).
    const hourAgo = new Date(Date.now() - 3600_000);
    fs.utimesSync(f, hourAgo, hourAgo);
    return f;
  };
  return {
    home,
    vault,
    put,
    baton: async (...args) => {
      let out = '';
      let err = '';
      const io = {
        cwd: home,
        env: { HOME: home, BATON_VAULT: vault, PATH: process.env.PATH },
        out: (t: string) => void (out += t),
        err: (t: string) => void (err += t),
        stdin: async () => '',
      };
      try {
        const code = await importPast(new Context(io, vault), parse(COMMANDS.import, args, 'usage'));
        return { code, out, err };
      } catch (e) {
        if (e instanceof BatonError && e.kind === 'usage') return { code: 2, out, err: e.message };
        throw e;
      }
    },
    vaultFiles: () => {
      const out = new Map<string, string>();
      const walk = (dir: string): void => {
        for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
          const f = path.join(dir, e.name);
          // The index is a cache; the record is everything else.
          if (e.isDirectory() && e.name !== '.baton') walk(f);
          else if (e.isFile()) out.set(path.relative(vault, f), fs.readFileSync(f, 'latin1'));
        }
      };
      walk(vault);
      return out;
    },
  };
}

const fixture = (rel: string): string => fs.readFileSync(path.join(FIX, rel), 'utf8');

/** The four real sessions, one per agent, where each agent keeps them. */
function realHistory(h: Home): void {
  h.put(CLAUDE_FILE, fixture('claude-code/compacted.jsonl'));
  h.put(CODEX_FILE, fixture('codex/codex-0.169.0-session1.jsonl'));
  h.put(GEMINI_FILE, fixture('gemini/resumed-and-compressed.jsonl'));
  h.put(COPILOT_FILE, fixture('copilot/session1.events.jsonl'));
}

interface Report {
  imported: number;
  dryRun: boolean;
  skipped: { source: string; reason: string }[];
  checkpoints: { agent: string; project: string; session: string; slug: string; source: string; agentSession: string }[];
}

async function importJson(h: Home, ...args: string[]): Promise<Report> {
  const r = await h.baton(...args, '--json');
  assert.equal(r.code, 0, r.err);
  return JSON.parse(r.out) as Report;
}

const checkpointFile = (h: Home, c: Report['checkpoints'][number]): string => fs.readFileSync(path.join(h.vault, `${c.slug}.md`), 'utf8');

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
    assert.equal((await h.baton('cursor')).code, 2);
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
