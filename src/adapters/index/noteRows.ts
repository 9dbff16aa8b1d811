// The index's mirror of every scope's `uncommitted.md`, one row per note in
// file order, each note also in the text index. Notes are appended, so the
// mirror keeps the notes it holds as the file begins and rewrites from the
// first that differs: a note is written to the text index once, not once per
// note appended after it.
import { TextRows } from './textRows';
import { readNoteLinesSync } from '../vault/notesLines';
import { RACY_MS, statOf, type Stat } from './vaultFiles';

/** What NoteRows needs of a scope row (indexWriter.ts). */
interface NoteScope {
  id: number;
  /** The notes file as last mirrored; null when there was none. */
  notes: Stat | null;
  /** Its notes file (absolute). */
  notesFile: string;
}

export class NoteRows extends TextRows {
  /**
   * Mirrors a scope's notes file when its size or mtime moved. A scope whose
   * folder did not change and which had no notes file still has none
   * (creating one moves the folder's mtime), so it costs nothing. `read` is
   * the bytes a saved copy would spare (0: nothing was read).
   */
  refresh(scope: NoteScope, folderUnchanged: boolean): { changed: boolean; read: number } {
    const prev = scope.notes;
    if (folderUnchanged && !prev) return { changed: false, read: 0 };
    const st = statOf(scope.notesFile);
    if (!st) {
      if (!prev) return { changed: false, read: 0 };
      this.forget(scope);
      this.setStat(scope, null);
      return { changed: true, read: 0 };
    }
    if (prev && prev.mtime === st.mtime && prev.size === st.size && Date.now() - st.mtime > RACY_MS) return { changed: false, read: 0 };
    // Every line, however big the file (a mirror cut at a cap would hide the last notes from continuity).
    const notes = readNoteLinesSync(scope.notesFile);
    // Unreadable (permissions): keep what was mirrored, and look again next time; never mirror it as empty.
    if (notes === null) return { changed: false, read: 0 };
    const held = this.sql.rows<[number, string, number, string, string, string]>('SELECT rowid, agent, ts, text, machine, asession FROM notes WHERE scope = ? ORDER BY rowid', [
      scope.id,
    ]);
    const alike = (h: (typeof held)[number], n: (typeof notes)[number]): boolean =>
      h[1] === n.agent && h[2] === n.ts && h[3] === n.text && h[4] === (n.machine ?? '') && h[5] === (n.agentSession ?? '');
    let same = 0;
    while (same < held.length && same < notes.length && alike(held[same], notes[same])) same++;
    if (same < held.length) {
      for (let k = same; k < held.length; k++) this.text.remove('note', held[k][0]);
      this.sql.run('DELETE FROM notes WHERE scope = ? AND rowid >= ?', [scope.id, held[same][0]]);
    }
    for (const n of notes.slice(same)) {
      const rowid = this.next++;
      this.sql.run('INSERT INTO notes(rowid, scope, agent, ts, text, machine, asession) VALUES (?, ?, ?, ?, ?, ?, ?)', [
        rowid,
        scope.id,
        n.agent,
        n.ts,
        n.text,
        n.machine ?? '',
        n.agentSession ?? '',
      ]);
      this.text.put('note', rowid, n.text);
    }
    this.setStat(scope, st);
    return { changed: !prev || prev.mtime !== st.mtime || prev.size !== st.size, read: st.size };
  }

  forget(scope: NoteScope): void {
    for (const [rowid] of this.sql.rows<[number]>('SELECT rowid FROM notes WHERE scope = ?', [scope.id])) this.text.remove('note', rowid);
    this.sql.run('DELETE FROM notes WHERE scope = ?', [scope.id]);
  }

  private setStat(scope: NoteScope, st: Stat | null): void {
    scope.notes = st;
    this.sql.run('UPDATE scopes SET notes_mtime = ?, notes_size = ? WHERE id = ?', [st?.mtime ?? null, st?.size ?? null, scope.id]);
  }
}
