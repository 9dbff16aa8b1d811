// What the editor's Import Past Sessions stands on (issue 27): the cheap look
// at what history is on this machine (pastHistory: listed and stat-ed, never
// read), and an import that stops between sessions when asked, leaving a vault
// the next import completes as if it had never stopped.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { ImportOptions } from '../../src/app/importSessions';
import { importSessions } from '../../src/app/importSessions';
import { openBaton } from '../../src/app/openBaton';
import { pastHistory } from '../../src/app/pastHistory';
import { IMPORT_AGENTS } from '../../src/core/importAgents';
import type { Home } from './support/importHome';
import { CLAUDE_FILE, fixture, makeHome, realHistory } from './support/importHome';

const options = (h: Home, more: Partial<ImportOptions> = {}): ImportOptions => ({
  vaultRoot: h.vault,
  home: h.home,
  env: { HOME: h.home },
  agents: IMPORT_AGENTS,
  ...more,
});

describe('import past sessions: the look before, and cancel', function () {
  this.timeout(60_000);
  let h: Home;
  let other: Home | undefined;
  beforeEach(() => {
    h = makeHome();
  });
  afterEach(() => {
    for (const x of [h, other]) if (x) fs.rmSync(x.home, { recursive: true, force: true });
    other = undefined;
  });

  it('counts each agent’s session files and since when, without opening them', async () => {
    realHistory(h);
    h.put(CLAUDE_FILE.replace(/[^/]+\.jsonl$/, 'second.jsonl'), fixture('claude-code/new-session.jsonl'));
    const day = new Date('2026-03-04T10:00:00Z');
    fs.utimesSync(path.join(h.home, CLAUDE_FILE), day, day);
    const r = await pastHistory(h.home, { HOME: h.home });
    assert.deepEqual(
      r.found.map((a) => [a.agent, a.sessions]),
      [
        ['claude-code', 2],
        ['codex', 1],
        ['gemini', 1],
        ['copilot', 1],
      ],
    );
    const claude = r.found[0];
    assert.equal(claude.oldest, day.getTime() / 1000);
    assert.ok(claude.newest > claude.oldest);
    assert.equal(claude.folder, path.join(h.home, '.claude/projects'));
    assert.deepEqual(r.unlisted, []);
  });

  it('finds nothing in an empty home, and names every folder it looked in (the agents’ own variables honoured)', async () => {
    const elsewhere = path.join(h.home, 'codex-home');
    const r = await pastHistory(h.home, { HOME: h.home, CODEX_HOME: elsewhere });
    assert.deepEqual(r.found, []);
    assert.deepEqual(r.looked, [
      { agent: 'claude-code', folder: path.join(h.home, '.claude/projects') },
      { agent: 'codex', folder: path.join(elsewhere, 'sessions') },
      { agent: 'gemini', folder: path.join(h.home, '.gemini/tmp') },
      { agent: 'copilot', folder: path.join(h.home, '.copilot/session-state') },
      { agent: 'vscode-copilot', folder: path.join(h.home, '.config/Code/User/workspaceStorage') },
      { agent: 'cursor', folder: path.join(h.home, '.config/Cursor/User/globalStorage') },
    ]);
  });

  it('stops between sessions when cancelled; what it wrote is whole, and the next import writes the rest as one run would have', async () => {
    realHistory(h);
    let written = 0;
    const steps: string[] = [];
    const first = await importSessions(
      openBaton(h.vault),
      options(h, {
        step: (s) => {
          steps.push(`${s.phase} ${s.done}/${s.total}`);
          if (s.phase === 'writing') written = s.done;
        },
        cancelled: () => written >= 2,
      }),
    );
    assert.equal(first.imported, 2);
    assert.deepEqual(first.cancelled, { left: 2 });
    assert.deepEqual(steps, ['reading 1/4', 'reading 2/4', 'reading 3/4', 'reading 4/4', 'writing 1/4', 'writing 2/4']);
    const checkpoints = [...h.vaultFiles().keys()].filter((f) => /\/\d{8}-\d{6}-.*\.md$/.test(f));
    assert.equal(checkpoints.length, 2);

    const rest = await importSessions(openBaton(h.vault), options(h));
    assert.equal(rest.imported, 2);
    assert.equal(rest.cancelled, undefined);
    assert.deepEqual(
      rest.skipped.map((s) => s.reason.replace(/\(checkpoint .*\)/, '(…)')),
      ['already in the vault (…)', 'already in the vault (…)'],
    );

    // The same history imported in one go, elsewhere: the same vault, byte for byte.
    other = makeHome();
    realHistory(other);
    // The same machine: its clone id (which every checkpoint names) copied.
    const id = '.baton-live/machine-id';
    fs.mkdirSync(path.dirname(path.join(other.vault, id)), { recursive: true });
    fs.copyFileSync(path.join(h.vault, id), path.join(other.vault, id));
    assert.equal((await importSessions(openBaton(other.vault), options(other))).imported, 4);
    assert.deepEqual(h.vaultFiles(), other.vaultFiles());
  });

  it('cancelled while reading, writes nothing', async () => {
    realHistory(h);
    let read = 0;
    const r = await importSessions(
      openBaton(h.vault),
      options(h, {
        step: (s) => void (read = s.done),
        cancelled: () => read >= 1,
      }),
    );
    assert.equal(r.imported, 0);
    assert.deepEqual(r.checkpoints, []);
    assert.ok(r.cancelled && r.cancelled.left >= 3, JSON.stringify(r.cancelled));
    assert.ok(!fs.existsSync(path.join(h.vault, 'sessions')));
  });
});
