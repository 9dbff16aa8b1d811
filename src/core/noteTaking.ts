// Working notes as agents write them: one append each, no index, since hooks
// write on every step. Each line carries its origin (this machine, the
// agent's own session) so a fold on another machine never takes it.
import { usage, VaultWriteError } from './errors';
import type { Note } from './model';
import { safeName, safeScope } from './names';
import type { BatonDeps, NoteLine } from './ports';
import type { NoteResult } from './requests';
import { maskSecrets } from './secrets';
import { checkTime } from './time';
import { editNote, uniquePaths } from './edits';
import { workingNotes } from './lifecycle';
import { originValue } from './origin';

/** Where a write comes from, beyond the machine: the agent's own session id, when its host gave one. */
export interface WriteOrigin {
  agentSession?: string;
}

// U+0085 (NEL) and the Unicode line separators end a line for some readers;
// they become spaces like any other line break.
export const oneLine = (s: string): string => s.replace(/[\s\u0085]+/g, ' ').trim();

/** Runs a vault write and tells the index lease and `onWrite`, even when the write failed halfway. */
export async function vaultWrite<T>(deps: BatonDeps, scope: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } finally {
    deps.index.wrote?.();
    deps.onWrite?.(scope);
  }
}

export class NoteTaking {
  constructor(private readonly deps: BatonDeps) {}

  /** This machine's id as notes and checkpoints record it; "" when none could be kept. */
  async machine(): Promise<string> {
    return originValue((await this.deps.origin?.machine().catch(() => '')) ?? '');
  }

  /** A note line with its origin: the fields a line without one would have, plus those Baton knows. */
  private async lineOf(text: string, agent: string, ts: number, from?: WriteOrigin): Promise<NoteLine> {
    const line: NoteLine = { text, agent, ts };
    const machine = await this.machine();
    const agentSession = originValue(from?.agentSession?.trim() ?? '');
    if (machine) line.machine = machine;
    if (agentSession) line.agentSession = agentSession;
    return line;
  }

  /** Notes of this agent written here (or without an origin): a hook's look at "its own" recent notes. */
  private async mineOf(lines: NoteLine[], agent: string): Promise<NoteLine[]> {
    const machine = await this.machine();
    return lines.filter((n) => n.agent === agent && (!n.machine || n.machine === machine));
  }

  /**
   * Appends a working note to the agent's open session in the scope. One
   * append, no index: hooks call this on every step. When the vault refuses the
   * write the note is kept aside (.baton-live/pending/, beside the cache, not in it) and the caller is told it is not durable.
   */
  async note(scopeIn: string, agentIn: string, textIn: string, at?: number, from?: WriteOrigin): Promise<NoteResult> {
    const scope = safeScope(scopeIn);
    const agent = safeName(agentIn, 'agent');
    const masked = maskSecrets(oneLine(textIn));
    if (!masked.text) throw usage('The note is empty: give the text to record, e.g. baton note "tried X, it fails because Y".');
    const line = await this.lineOf(masked.text, agent, checkTime(at ?? this.deps.clock.now()), from);
    const { vault } = this.deps;
    try {
      await vaultWrite(this.deps, scope, () => vault.withScopeLock(scope, () => vault.appendNote(scope, line)));
    } catch (err) {
      if (!(err instanceof VaultWriteError)) throw err;
      // If this write fails too, the error reaches the caller: nothing was kept.
      await this.deps.pending.add(scope, line);
      return { note: this.asNote(line), redactions: masked.count, durable: false, reason: err.message };
    }
    return { note: this.asNote(line), redactions: masked.count, durable: true, reason: '' };
  }

  /**
   * A note, unless it is already the agent's latest one in the scope (read from
   * the notes file's last few KB): for hooks that fire at every turn's end.
   */
  async noteUnlessLatest(scopeIn: string, agentIn: string, textIn: string, at?: number, from?: WriteOrigin): Promise<boolean> {
    const scope = safeScope(scopeIn);
    const agent = safeName(agentIn, 'agent');
    const text = maskSecrets(oneLine(textIn)).text;
    const mine = await this.mineOf(await this.deps.vault.recentNotes(scope), agent);
    if (mine.length && mine[mine.length - 1].text === text) return false;
    await this.note(scope, agent, text, at, from);
    return true;
  }

  /**
   * Whether the agent has a working note (not a lifecycle event) among the
   * scope's recent notes (the notes file's last few KB): a cheap look for
   * hooks, which may miss a note older than that.
   */
  async hasOpenNotes(scopeIn: string, agentIn: string): Promise<boolean> {
    const agent = safeName(agentIn, 'agent');
    return workingNotes(await this.mineOf(await this.deps.vault.recentNotes(safeScope(scopeIn)), agent)).length > 0;
  }

  /**
   * Records files the agent's host saw it edit, as `edited: <path>` notes (see
   * edits.ts): one O_APPEND write of a line per file under the scope's lock, no
   * index, like `note`. A file this agent's recent notes (the file's last few KB) already
   * name is not written again, so a file edited thirty times in a row costs one
   * line; an older repeat is dropped when the checkpoint folds them.
   */
  async recordEdits(
    scopeIn: string,
    agentIn: string,
    paths: readonly string[],
    at?: number,
    from?: WriteOrigin,
  ): Promise<{ recorded: string[]; redactions: number; durable: boolean }> {
    const scope = safeScope(scopeIn);
    const agent = safeName(agentIn, 'agent');
    let redactions = 0;
    const masked = uniquePaths(
      paths.map((p) => {
        const m = maskSecrets(oneLine(p));
        redactions += m.count;
        return m.text;
      }),
    );
    if (masked.length === 0) return { recorded: [], redactions, durable: true };
    const ts = checkTime(at ?? this.deps.clock.now());
    const { vault } = this.deps;
    const linesOf = async (ps: readonly string[]): Promise<NoteLine[]> => {
      const lines: NoteLine[] = [];
      for (const p of ps) lines.push(await this.lineOf(editNote(p), agent, ts, from));
      return lines;
    };
    // Known once the recent notes are read; until then every path is still to write.
    let fresh: readonly string[] = masked;
    try {
      await vaultWrite(this.deps, scope, () =>
        vault.withScopeLock(scope, async () => {
          const recent = new Set((await this.mineOf(await vault.recentNotes(scope), agent)).map((n) => n.text));
          fresh = masked.filter((p) => !recent.has(editNote(p)));
          // One write for all of them: a patch naming 100,000 files is one append, not 100,000.
          await vault.appendNotes(scope, await linesOf(fresh));
        }),
      );
    } catch (err) {
      if (!(err instanceof VaultWriteError)) throw err;
      // The append is all or none: none of them reached the notes file.
      for (const line of await linesOf(fresh)) await this.deps.pending.add(scope, line);
      return { recorded: [...fresh], redactions, durable: false };
    }
    return { recorded: [...fresh], redactions, durable: true };
  }

  // The session id needs the agent's first open note, which would cost a read
  // of the whole notes file; a note's reply leaves it out to stay O(1).
  private asNote(line: NoteLine): Note {
    return { ...line, session: '' };
  }
}
