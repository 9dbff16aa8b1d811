// Notes the vault refused (read-only folder, full disk) wait here, one small
// file each under `.baton-live/pending/` (outside the cache, which may be
// deleted at any time), until `baton index` writes them out. Notes an older
// Baton left in `.baton/pending/` are read too. One
// file per note means no process can overwrite another's, and a rescue that
// crashes halfway leaves the note pending rather than lost.
import * as fs from 'fs';
import * as path from 'path';
import type { NoteLine, PendingNote, PendingPort, ScopeNote } from '../../core/ports';
import { sha256Hex } from '../../core/sha256';
import { createExclusive, ensureDir, uniqueHex } from './atomicFile';

/** The note's origin keys, only those present and strings (a pending file from before origins has none). */
function originOf(v: NoteLine): Pick<NoteLine, 'machine' | 'agentSession'> {
  const out: Pick<NoteLine, 'machine' | 'agentSession'> = {};
  if (typeof v.machine === 'string' && v.machine) out.machine = v.machine;
  if (typeof v.agentSession === 'string' && v.agentSession) out.agentSession = v.agentSession;
  return out;
}

export class PendingNotes implements PendingPort {
  private readonly dir: string;
  private readonly dirs: string[];

  /** The first folder is written; every one is read. */
  constructor(dirs: string | string[]) {
    this.dirs = typeof dirs === 'string' ? [dirs] : dirs;
    this.dir = this.dirs[0];
  }

  async add(scope: string, note: NoteLine): Promise<void> {
    await ensureDir(this.dir);
    const name = `${note.ts}-${sha256Hex(scope).slice(0, 8)}-${uniqueHex(4)}.json`;
    const body: ScopeNote = { scope, agent: note.agent, ts: note.ts, text: note.text, ...originOf(note) };
    await createExclusive(path.join(this.dir, name), JSON.stringify(body));
  }

  async list(): Promise<PendingNote[]> {
    const out: PendingNote[] = [];
    for (const dir of this.dirs) {
      let names: string[];
      try {
        names = (await fs.promises.readdir(dir)).filter((n) => n.endsWith('.json')).sort();
      } catch {
        continue;
      }
      for (const name of names) {
        try {
          const v = JSON.parse(await fs.promises.readFile(path.join(dir, name), 'utf8')) as ScopeNote;
          if (typeof v.scope === 'string' && typeof v.text === 'string' && typeof v.agent === 'string' && typeof v.ts === 'number') {
            out.push({ scope: v.scope, agent: v.agent, ts: v.ts, text: v.text, ...originOf(v), id: path.join(dir, name) });
          }
        } catch {
          // a torn pending file holds nothing readable; leave it for a person to see
        }
      }
    }
    return out;
  }

  async remove(id: string): Promise<void> {
    await fs.promises.rm(id, { force: true });
  }
}
