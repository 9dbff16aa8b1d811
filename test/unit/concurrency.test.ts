import { strict as assert } from 'assert';
import * as fs from 'fs';
import { openBaton } from '../../src/app/openBaton';
import { cli, ensureBuilt } from './support/cli';
import { tempDir } from './support/tempVault';

/** Every note text recorded anywhere in the scope: still open, or folded into a checkpoint's State. */
async function everyNote(vault: string, scope: string): Promise<string[]> {
  const baton = openBaton(vault);
  const view = await baton.sessions(scope);
  const folded = view.checkpoints.flatMap((c) =>
    c.state
      .split('\n')
      .filter((l) => l.startsWith('- '))
      .map((l) => l.replace(/^- (\([^)]*\) )?/, '')),
  );
  return [...view.uncommitted.map((n) => n.text), ...folded];
}

describe('several processes writing one vault at once', function () {
  this.timeout(180_000);
  let vault: string;
  before(() => ensureBuilt());
  beforeEach(() => {
    vault = tempDir('baton-conc-');
  });
  afterEach(() => fs.rmSync(vault, { recursive: true, force: true }));

  it('loses no acknowledged note while others commit checkpoints', async () => {
    const writers = 4;
    const perWriter = 25;
    const acked: string[] = [];
    const noteWriter = async (w: number): Promise<void> => {
      for (let i = 0; i < perWriter; i++) {
        const text = `note-${w}-${i}`;
        const r = await cli(['note', '-p', 'kestrel', '-a', `agent${w}`, text], { vault });
        if (r.code === 0) acked.push(text);
      }
    };
    const committer = async (c: number): Promise<number> => {
      let ok = 0;
      for (let i = 0; i < 6; i++) {
        // Each committer is one of the note agents, so it folds that agent's notes.
        const r = await cli(['checkpoint', '-p', 'kestrel', '-a', `agent${c}`, '--task', `commit ${c}-${i}`], { vault });
        if (r.code === 0) ok += 1;
        else assert.fail(r.stderr);
      }
      return ok;
    };
    const reader = async (): Promise<void> => {
      for (let i = 0; i < 5; i++) {
        const r = await cli(['continuity', '--json'], { vault });
        assert.equal(r.code, 0, r.stderr);
        JSON.parse(r.stdout);
      }
    };
    const results = await Promise.all([...Array.from({ length: writers }, (_, w) => noteWriter(w)), committer(0), committer(1), reader()]);
    assert.equal(results[writers], 6);
    assert.equal(acked.length, writers * perWriter, 'every note was acknowledged');
    const all = await everyNote(vault, 'kestrel');
    assert.deepEqual([...all].sort(), [...acked].sort(), 'each acknowledged note exactly once');
    const idx = await openBaton(vault).reindex();
    assert.equal(idx.checkpoints, 12);
  });
});
