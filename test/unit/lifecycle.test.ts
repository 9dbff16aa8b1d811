// Lifecycle events (a turn ended, a session ended) as the hooks' use cases
// write them into a real vault: marked notes that count as activity for the
// 6 h abandonment rule but stay out of the hand-over, out of a folded
// checkpoint's State, and never carry a machine's path.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { HookEnv, HookPayload } from '../../src/app/editHooks';
import { sessionEnd, turnEnded } from '../../src/app/editHooks';
import { renderHandover } from '../../src/core/handover';
import { isLifecycleNote } from '../../src/core/lifecycle';
import { updateBinding } from '../../src/adapters/agentSessions';
import { hasHandover } from '../../src/core/handover';
import { cli, ensureBuilt } from './support/cli';
import { tempDir, tempVault, type TempVault } from './support/tempVault';

const HOUR = 3600;

describe('lifecycle notes', () => {
  let v: TempVault;
  let work: string;
  beforeEach(() => {
    v = tempVault();
    work = tempDir('baton-lifecycle-work-');
    fs.writeFileSync(path.join(work, '.baton-project'), 'kestrel\n');
  });
  afterEach(() => {
    v.cleanup();
    fs.rmSync(work, { recursive: true, force: true });
  });

  const env = (agent: string): HookEnv => ({ vaultRoot: v.root, env: {}, agent, now: () => v.clock.now(), baton: v.baton });
  /** Claude Code's SessionEnd and Stop payloads as hooks/payload.ts reads them (code.claude.com/docs/en/hooks, "SessionEnd input"). */
  const payload = (o: Partial<HookPayload>): HookPayload => ({
    host: 'claude-code',
    sessionId: '',
    transcriptPath: '',
    cwd: work,
    roots: [],
    edited: [],
    source: '',
    prompt: '',
    trigger: '',
    instructions: '',
    context: { percent: null, messages: null, toCompact: null },
    reason: '',
    toolName: '',
    toolInput: {},
    ...o,
  });
  const notesFile = (): string => path.join(v.root, 'sessions', 'kestrel', 'uncommitted.md');
  const notes = (): string => (fs.existsSync(notesFile()) ? fs.readFileSync(notesFile(), 'utf8') : '');

  it('stay out of the hand-over and of the folded State, and never write a transcript path into the vault', async () => {
    const transcript = path.join(work, 'transcript.jsonl');
    fs.writeFileSync(transcript, '{}\n');
    await updateBinding(v.root, 'claude-code', 's-1', v.clock.now(), { scope: 'kestrel', cwd: work, transcript });
    await v.baton.note('kestrel', 'claude-code', 'the coupon clock drifts under load');
    await turnEnded(env('claude-code'), payload({ sessionId: 's-1' }));
    await sessionEnd(env('claude-code'), payload({ sessionId: 's-1', transcriptPath: transcript, reason: 'prompt_input_exit' }));

    assert.ok(!notes().includes(transcript) && !notes().includes(work), 'no path of this machine in uncommitted.md');
    assert.match(notes(), /- lifecycle: stopped (?:<!-- [a-z_]+=[^>]* --> )?<!-- ts=\d+ agent=claude-code -->/);
    assert.match(notes(), /- lifecycle: session ended \(prompt_input_exit\) (?:<!-- [a-z_]+=[^>]* --> )?<!-- ts=\d+ agent=claude-code -->/);

    const text = renderHandover(await v.baton.resume('kestrel'), v.clock.now());
    assert.match(text, /Uncommitted working notes \(1\):/);
    assert.match(text, /the coupon clock drifts/);
    assert.doesNotMatch(text, /stopped|session ended/);

    const r = await v.baton.commit({ scope: 'kestrel', agent: 'claude-code', fields: { next: 'fake the clock' } });
    assert.equal(r.checkpoint.state, 'Recorded during the session:\n- the coupon clock drifts under load');
    assert.equal(r.folded, 3, 'the lifecycle notes are folded away too');
    assert.equal(notes(), '', 'nothing left open');
  });

  it('notes written before they were marked read the same: "<agent> stopped" and "<agent> session … ended …; transcript …"', async () => {
    fs.mkdirSync(path.dirname(notesFile()), { recursive: true });
    const ts = v.clock.now();
    fs.writeFileSync(
      notesFile(),
      [
        '# uncommitted — kestrel',
        '',
        `- tried the read replica: lag breaks the cart <!-- ts=${ts} agent=codex -->`,
        `- codex stopped <!-- ts=${ts} agent=codex -->`,
        `- codex session 019a-77 ended (exit); transcript /home/ann/.codex/sessions/r.jsonl <!-- ts=${ts} agent=codex -->`,
        `- cursor stopped (aborted) <!-- ts=${ts} agent=cursor -->`,
        `- codex stopped the rollout on purpose <!-- ts=${ts} agent=codex -->`,
        '',
      ].join('\n'),
    );
    const view = await v.baton.resume('kestrel');
    assert.deepEqual(
      view.uncommitted.map((n) => n.text),
      ['tried the read replica: lag breaks the cart', 'codex stopped the rollout on purpose'],
    );
    assert.equal(isLifecycleNote({ text: 'cursor stopped', agent: 'codex' }), false, "another agent's name is a note like any other");
    const r = await v.baton.commit({ scope: 'kestrel', agent: 'codex', fields: {} });
    assert.doesNotMatch(r.checkpoint.state, /transcript|session 019a|codex stopped$/m);
  });

  it('count as activity for the 6 h rule, but a session of lifecycle events alone is not abandoned', async () => {
    await v.baton.note('kestrel', 'codex', 'moved half the callers');
    v.advance(5 * HOUR);
    await turnEnded(env('codex'), payload({ host: 'codex' }));
    await turnEnded(env('gemini'), payload({ host: 'gemini' }));
    v.advance(2 * HOUR);
    assert.deepEqual((await v.baton.resume('kestrel')).abandoned, [], 'codex stopped 2 h ago: not silent for 6 h; gemini only ever stopped');
    v.advance(5 * HOUR);
    const abandoned = (await v.baton.resume('kestrel')).abandoned;
    assert.deepEqual(
      abandoned.map((a) => [a.agent, a.notes, a.task]),
      [['codex', 1, 'moved half the callers']],
    );
    assert.deepEqual(
      (await v.baton.continuity()).map((p) => [p.project, p.uncommitted, p.abandoned]),
      [['kestrel', 1, 1]],
    );
  });

  it("a session end Baton never saw start, with no transcript on disk, writes nothing and says why (claude mcp list's health check)", async () => {
    const end = await sessionEnd(env('claude-code'), payload({ sessionId: '27b8a02c', transcriptPath: path.join(work, 'gone.jsonl'), reason: 'other' }));
    assert.match('skipped' in end ? end.skipped : '', /session 27b8a02c never started here/);
    assert.equal(notes(), '');
    const noId = await sessionEnd(env('copilot'), payload({ host: 'copilot', reason: 'complete' }));
    assert.ok('skipped' in noId, 'no id, and no open note of copilot: nothing to mark the end of');
    await v.baton.note('kestrel', 'copilot', 'the cart test passes with the clock injected');
    assert.deepEqual(await sessionEnd(env('copilot'), payload({ host: 'copilot', reason: 'complete' })), { note: 'lifecycle: session ended (complete)' });
  });

  it('alone they are no checkpoint and no hand-over', async () => {
    await turnEnded(env('claude-code'), payload({}));
    const view = await v.baton.resume('kestrel');
    assert.equal(hasHandover(view), false, 'session start prints nothing');
    assert.equal(renderHandover(view, v.clock.now()).includes('stopped'), false);
    await assert.rejects(v.baton.commit({ scope: 'kestrel', agent: 'claude-code', fields: {} }), /Nothing to checkpoint/);
  });
});

describe('a session that never started writes nothing when it ends', function () {
  this.timeout(60_000);
  let vault: string;
  let work: string;
  before(() => ensureBuilt());
  beforeEach(() => {
    vault = tempDir('baton-never-started-vault-');
    work = tempDir('baton-never-started-work-');
    fs.writeFileSync(path.join(work, '.baton-project'), 'kestrel\n');
  });
  afterEach(() => {
    fs.rmSync(vault, { recursive: true, force: true });
    fs.rmSync(work, { recursive: true, force: true });
  });

  /**
   * What Claude Code 2.1.328's `claude mcp list` sent its SessionEnd hook
   * (captured 2026-12-02 from a hook that saved its stdin): no SessionStart
   * before it, reason "other", a transcript path that does not exist.
   */
  const healthCheck = (): Record<string, string> => ({
    session_id: '27b8a02c-42cf-4477-88ea-ab65210930d0',
    transcript_path: path.join(work, '.claude', 'projects', '-tmp-proj', '27b8a02c-42cf-4477-88ea-ab65210930d0.jsonl'),
    cwd: work,
    hook_event_name: 'SessionEnd',
    reason: 'other',
  });
  const hook = (event: string, payload: unknown) => cli(['hook', 'claude-code', event], { vault, cwd: work, input: JSON.stringify(payload) });

  it("claude mcp list's health check: no note, no session, and hooks.log says why", async () => {
    const r = await hook('session-end', healthCheck());
    assert.deepEqual([r.code, r.stdout, r.stderr], [0, '', '']);
    assert.ok(!fs.existsSync(path.join(vault, 'sessions')), 'nothing written into the vault');
    assert.match(fs.readFileSync(path.join(vault, '.baton', 'hooks.log'), 'utf8'), /claude-code session-end session 27b8a02c-\S+ never started here/);
  });

  it('a session that started, or left a transcript, gets its end noted', async () => {
    const started = { ...healthCheck(), session_id: 'started-1', hook_event_name: 'SessionStart', source: 'startup' };
    assert.equal((await hook('session-start', started)).code, 0);
    await hook('session-end', { ...healthCheck(), session_id: 'started-1', reason: 'prompt_input_exit' });
    const transcript = path.join(work, 't.jsonl');
    fs.writeFileSync(transcript, '{}\n');
    await hook('session-end', { ...healthCheck(), session_id: 'no-start-but-ran', transcript_path: transcript });
    const notes = fs.readFileSync(path.join(vault, 'sessions', 'kestrel', 'uncommitted.md'), 'utf8');
    assert.deepEqual(
      notes
        .split('\n')
        .filter((l) => l.startsWith('- '))
        .map((l) => l.replace(/ <!--.*/, '')),
      ['- lifecycle: session ended (prompt_input_exit)', '- lifecycle: session ended (other)'],
    );
  });
});
