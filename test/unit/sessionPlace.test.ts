// Where a checkpoint's agent session ran and its transcript: this machine's
// session binding, not the vault (a hook writes no absolute path there);
// older checkpoints that named them in their frontmatter still count.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { updateBinding } from '../../src/adapters/agentSessions';
import { sessionPlace } from '../../src/app/sessionPlace';
import { makeCheckpoint } from './builders';

describe('sessionPlace', () => {
  let vault: string;
  beforeEach(() => (vault = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-place-'))));
  afterEach(() => fs.rmSync(vault, { recursive: true, force: true }));

  it("reads the folder and transcript from this machine's binding of the checkpoint's session", async () => {
    await updateBinding(vault, 'codex', 'sess-1', 100, { scope: 'shop', cwd: '/work/shop', transcript: '/home/p/.codex/sessions/r.jsonl' });
    const cp = makeCheckpoint({ agent: 'codex', extra: { agent_session: 'sess-1' } });
    assert.deepEqual(sessionPlace(vault, cp), { cwd: '/work/shop', transcript: '/home/p/.codex/sessions/r.jsonl' });
  });

  it('falls back to what an older checkpoint names, and to nothing', () => {
    const old = makeCheckpoint({ agent: 'claude-code', extra: { agent_session: 'gone', cwd: '/src/k', transcript: '/t/a.jsonl' } });
    assert.deepEqual(sessionPlace(vault, old), { cwd: '/src/k', transcript: '/t/a.jsonl' });
    assert.deepEqual(sessionPlace(vault, makeCheckpoint({ extra: { transcript: ['/t/a.jsonl'] } })), { cwd: '', transcript: '' });
  });

  it("never lends one agent's binding to another agent's checkpoint of the same id", async () => {
    await updateBinding(vault, 'codex', 'same', 100, { cwd: '/a', transcript: '/a.jsonl' });
    assert.deepEqual(sessionPlace(vault, makeCheckpoint({ agent: 'gemini', extra: { agent_session: 'same' } })), { cwd: '', transcript: '' });
  });
});
