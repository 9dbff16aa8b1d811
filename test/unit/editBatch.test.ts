// An edit hook naming many files (one Codex apply_patch can name 100,000)
// writes its `edited:` notes in one append per hook call, not one per file
// (each append is an open, a stat, a read and a write under the scope's
// lock: 30-40 s for 100,000 files). The lines are the ones a note per file
// would have written, whole and in order, and a file the agent's recent notes
// already name is still written once.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { renderNoteLine } from '../../src/adapters/markdown/notesFile';
import { FsVault } from '../../src/adapters/vault/fsVault';
import type { NoteLine } from '../../src/core/ports';
import { T0, tempVault, type TempVault } from './support/tempVault';

/** The path of an edit note line, whatever else the line carries. */
const LINE = /^- edited: (\S+) <!--/;

describe('edit notes: one append per hook call', () => {
  let v: TempVault;
  const calls: { one: number; many: number[] } = { one: 0, many: [] };
  const proto = FsVault.prototype as unknown as Record<'appendNote' | 'appendNotes', (...a: unknown[]) => Promise<void>>;
  const original = { one: proto.appendNote, many: proto.appendNotes };
  beforeEach(() => {
    v = tempVault();
    calls.one = 0;
    calls.many = [];
    proto.appendNote = function (this: FsVault, ...a: unknown[]) {
      calls.one++;
      return original.one.apply(this, a);
    };
    proto.appendNotes = function (this: FsVault, ...a: unknown[]) {
      calls.many.push((a[1] as NoteLine[]).length);
      return original.many.apply(this, a);
    };
  });
  afterEach(() => {
    proto.appendNote = original.one;
    proto.appendNotes = original.many;
    v.cleanup();
  });

  const lines = (): string[] =>
    fs
      .readFileSync(path.join(v.root, 'sessions', 'kestrel', 'uncommitted.md'), 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('- '));

  it('10,000 files are one append of 10,000 whole lines, in order, each once', async () => {
    const files = Array.from({ length: 10_000 }, (_, i) => `gen/f${i}.ts`);
    const r = await v.baton.recordEdits('kestrel', 'codex', [...files, 'gen/f7.ts'], T0, { agentSession: 's-1' });
    assert.deepEqual(r.recorded, files);
    assert.equal(r.durable, true);
    assert.deepEqual(calls, { one: 0, many: [10_000] }, 'one append for the whole hook call');
    // Byte for byte the line a note of its own would be (the contract's note line, its origin included).
    const machine = fs.readFileSync(path.join(v.root, '.baton-live', 'machine-id'), 'utf8').trim();
    const want = files.map((f) => renderNoteLine({ text: `edited: ${f}`, agent: 'codex', ts: T0, machine, agentSession: 's-1' }).slice(0, -1));
    assert.deepEqual(lines(), want);
  });

  it('files the recent notes already name are left out of the append; a call with none left writes nothing', async () => {
    await v.baton.recordEdits('kestrel', 'codex', ['src/a.ts', 'src/b.ts'], T0, { agentSession: 's-1' });
    const again = await v.baton.recordEdits('kestrel', 'codex', ['src/b.ts', 'src/c.ts', 'src/a.ts'], T0 + 1, { agentSession: 's-1' });
    assert.deepEqual(again.recorded, ['src/c.ts']);
    const none = await v.baton.recordEdits('kestrel', 'codex', ['src/c.ts'], T0 + 2, { agentSession: 's-1' });
    assert.deepEqual(none.recorded, []);
    assert.deepEqual(calls, { one: 0, many: [2, 1, 0] });
    assert.deepEqual(
      lines().map((l) => LINE.exec(l)?.[1]),
      ['src/a.ts', 'src/b.ts', 'src/c.ts'],
    );
  });

  it('a notes file without a final newline: the batch starts on a line of its own', async () => {
    await v.baton.note('kestrel', 'codex', 'first', T0);
    const file = path.join(v.root, 'sessions', 'kestrel', 'uncommitted.md');
    fs.appendFileSync(file, '- torn by a power cut');
    await v.baton.recordEdits('kestrel', 'codex', ['src/a.ts', 'src/b.ts'], T0, { agentSession: 's-1' });
    const text = fs.readFileSync(file, 'utf8');
    assert.match(text, /\n- torn by a power cut\n- edited: src\/a\.ts [^\n]*\n- edited: src\/b\.ts [^\n]*\n$/);
  });
});
