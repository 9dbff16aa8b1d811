// The session core: every rule of the vault contract that involves more than
// one file. Entry points (CLI, MCP, VS Code) call this and nothing below it.
import { isEmptyCheckpoint } from './checkpointBody';
import { refused, usage, VaultWriteError } from './errors';
import type { Abandoned, Checkpoint, Note, Plan, ProjectContinuity, Touch } from './model';
import { emptyFields, emptyGit } from './model';
import { safeName, safeScope } from './names';
import { deadEndsElsewhere, deadEndsForApproach } from './deadEnds';
import { rescuePending } from './pendingNotes';
import { newestFirst } from './order';
import { COMMITS_KEY, sessionStart } from './agentBlame';
import type { BatonDeps, DeadEnd, IndexPort, NoteLine, TextHit } from './ports';
import { textQuery, type SearchRequest } from './search';
import type { CommitRequest, CommitResult, IndexResult, NoteResult, ResumeView, SessionsView } from './requests';
import { maskFields, maskSecrets } from './secrets';
import { abandonedAcross, continuityOf } from './continuity';
import { checkTime } from './time';
import { editNote, mergeFiles, splitEdits, uniquePaths } from './edits';
import { workingNotes } from './lifecycle';
import { autoClosedState, foldIntoState, isAbandoned, openSessions, sessionsToFold, toAbandoned } from './sessions';
import { originValue } from './origin';
import { othersWorking, severalMachines, withWhose } from './whose';

/** Where a write comes from, beyond the machine: the agent's own session id, when its host gave one. */
export interface WriteOrigin {
  agentSession?: string;
}

// U+0085 (NEL) and the Unicode line separators end a line for some readers;
// they become spaces like any other line break.
const oneLine = (s: string): string => s.replace(/[\s\u0085]+/g, ' ').trim();

export class Baton {
  constructor(private readonly deps: BatonDeps) {}

  get vaultRoot(): string {
    return this.deps.vault.root;
  }

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
      await this.writing(scope, () => vault.withScopeLock(scope, () => vault.appendNote(scope, line)));
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
   * edits.ts): one O_APPEND line per file under the scope's lock, no index, like
   * `note`. A file this agent's recent notes (the file's last few KB) already
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
    const recorded: string[] = [];
    const lineFor = async (p: string): Promise<NoteLine> => this.lineOf(editNote(p), agent, ts, from);
    try {
      await this.writing(scope, () =>
        vault.withScopeLock(scope, async () => {
          const recent = new Set((await this.mineOf(await vault.recentNotes(scope), agent)).map((n) => n.text));
          for (const p of masked) {
            const line = await lineFor(p);
            if (recent.has(line.text)) continue;
            await vault.appendNote(scope, line);
            recorded.push(p);
          }
        }),
      );
    } catch (err) {
      if (!(err instanceof VaultWriteError)) throw err;
      for (const p of masked.filter((x) => !recorded.includes(x))) await this.deps.pending.add(scope, await lineFor(p));
      return { recorded: masked, redactions, durable: false };
    }
    return { recorded, redactions, durable: true };
  }

  /**
   * Commits a checkpoint. Folds the committing agent's open session on this
   * machine and any other agent's session of this machine silent for more
   * than 30 minutes (never another machine's: see sessionsToFold); writes the file
   * before removing any note, so a crash in between doubles a note rather than
   * losing one. Refuses a checkpoint with nothing in it.
   */
  async commit(req: CommitRequest): Promise<CommitResult> {
    const scope = safeScope(req.scope);
    const agent = safeName(req.agent, 'agent');
    const handoffTo = req.handoffTo?.trim() ? safeName(req.handoffTo, 'handoff target') : '';
    const masked = maskFields({ ...emptyFields(), ...req.fields });
    const fields = masked.value;
    // Git state and Baton's own keys reach the file too: a branch or a commit
    // subject can hold a pasted token as easily as a note can.
    const git = maskFields(req.git ?? emptyGit());
    const extraMasked = maskFields({ ...(req.extra ?? {}) });
    const redactions = masked.count + git.count + extraMasked.count;
    // A time no file name can hold is refused before anything is written.
    const now = checkTime(req.at ?? this.deps.clock.now());
    const { vault } = this.deps;
    const machine = await this.machine();

    return this.writing(scope, () =>
      vault.withScopeLock(scope, async () => {
        const sessions = openSessions(scope, await vault.notes(scope));
        const fold = sessionsToFold(sessions, agent, now, machine);
        const foldedNotes = fold.flatMap((s) => s.notes).sort((a, b) => a.ts - b.ts);
        // Edited files go to Files, once each, never to State; alone they are no
        // checkpoint (Files alone record what was touched, not what is true).
        const { edits, rest } = splitEdits(foldedNotes);
        if (isEmptyCheckpoint(fields) && rest.length === 0) {
          throw refused(
            'Nothing to checkpoint: give at least a task, state, next step, decision, dead end ("didn\'t work"), open question, ' +
              'verified claim or blocker, or record working notes first. Commands run and files alone are not a checkpoint.',
          );
        }
        const earlier = (await vault.checkpoints(scope)).sort(newestFirst);
        const previous = earlier[0];
        const extra: Record<string, unknown> = extraMasked.value;
        if (fold.length > 0) extra.folded = fold.map((s) => s.id);
        if (machine) extra.machine = machine;
        const since = sessionStart(agent, fold, previous?.ts);
        if (req.coveredCommits && git.value.commit && since !== undefined && extra[COMMITS_KEY] === undefined) {
          // Only a shortcut for blame, which walks history without it: a git failure costs no checkpoint.
          const covered = await req.coveredCommits({ previousCommit: earlier.find((c) => c.git.commit)?.git.commit ?? '', since }).catch(() => undefined);
          if (covered) extra[COMMITS_KEY] = covered;
        }
        const cp: Checkpoint = {
          ...fields,
          state: foldIntoState(fields.state, rest, agent),
          files: mergeFiles(fields.files, edits),
          session: '',
          project: scope,
          agent,
          handoffTo,
          autoClosed: false,
          git: git.value,
          ts: now,
          follows: previous?.session ?? '',
          extra,
          slug: '',
        };
        const { id, path, slug } = await vault.createCheckpoint(scope, cp, now);
        await this.takeOutFolded(scope, id, foldedNotes);
        const written = { ...cp, session: id, slug };
        return { checkpoint: written, path, redactions, folded: foldedNotes.length };
      }),
    );
  }

  /** Every scope that has a folder in the vault: `project` and `project/worktree`. */
  scopes(): Promise<string[]> {
    return this.deps.vault.scopes();
  }

  /** History of one scope, newest first, read from the vault (never the index); empty checkpoints skipped. */
  async history(scopeIn: string): Promise<Checkpoint[]> {
    const scope = safeScope(scopeIn);
    const all = await this.deps.vault.checkpoints(scope);
    return all.filter((c) => !isEmptyCheckpoint(c)).sort(newestFirst);
  }

  async latest(scope: string): Promise<Checkpoint | null> {
    return (await this.history(scope))[0] ?? null;
  }

  async sessions(scopeIn: string): Promise<SessionsView> {
    const scope = safeScope(scopeIn);
    const now = this.deps.clock.now();
    const [checkpoints, open] = [await this.history(scope), openSessions(scope, await this.deps.vault.notes(scope))];
    const here = await this.machine();
    return {
      project: scope,
      checkpoints,
      // Lifecycle events are liveness, not notes to read (lifecycle.ts): they count for `abandoned` only.
      uncommitted: workingNotes(open.flatMap((s) => s.notes)).sort((a, b) => a.ts - b.ts),
      abandoned: withWhose(open.filter((s) => isAbandoned(s, now)).map(toAbandoned), severalMachines(open, here), here),
      othersWorking: othersWorking(open, here, now),
    };
  }

  async resume(scope: string): Promise<ResumeView> {
    const view = await this.sessions(scope);
    return { project: view.project, latest: view.checkpoints[0] ?? null, uncommitted: view.uncommitted, abandoned: view.abandoned, othersWorking: view.othersWorking };
  }

  async savePlan(scopeIn: string, agentIn: string, textIn: string, at?: number): Promise<{ plan: Plan; redactions: number }> {
    const scope = safeScope(scopeIn);
    const agent = safeName(agentIn, 'agent');
    const masked = maskSecrets(textIn.trim());
    if (!masked.text) throw usage('The plan is empty: pipe the plan text on stdin, e.g. baton plan < plan.md.');
    const ts = checkTime(at ?? this.deps.clock.now());
    const plan = await this.writing(scope, () => this.deps.vault.createPlan(scope, { project: scope, agent, ts, text: masked.text }));
    return { plan, redactions: masked.count };
  }

  async plans(scopeIn: string): Promise<Plan[]> {
    const plans = await this.deps.vault.plans(safeScope(scopeIn));
    return plans.sort((a, b) => b.ts - a.ts || (a.slug < b.slug ? 1 : a.slug > b.slug ? -1 : 0));
  }

  /**
   * Closes an abandoned session on its owner's behalf: an auto-closed
   * checkpoint stamped from the session's own start, timed at its last
   * activity, holding only its notes. Refuses an unknown id, a closed session,
   * and a session still inside the abandonment window.
   */
  async closeAbandoned(scopeIn: string, id: string): Promise<Checkpoint> {
    const scope = safeScope(scopeIn);
    const now = this.deps.clock.now();
    const { vault } = this.deps;
    return this.writing(scope, () =>
      vault.withScopeLock(scope, async () => {
        const sessions = openSessions(scope, await vault.notes(scope));
        // Two machines' sessions of one agent may start in the same second: the abandoned one is meant.
        const matching = sessions.filter((s) => s.id === id);
        const target = matching.find((s) => isAbandoned(s, now)) ?? matching[0];
        if (!target) {
          const past = await vault.checkpoints(scope);
          const closedBy = past.find((c) => c.session === id || (Array.isArray(c.extra.folded) && c.extra.folded.includes(id)));
          if (closedBy) throw refused(`Session ${id} in ${scope} is already closed (by checkpoint ${closedBy.session}); nothing to do.`);
          throw refused(`No open session ${id} in ${scope}. List them with: baton sessions ${scope}`);
        }
        if (!isAbandoned(target, now)) {
          const mins = Math.floor((now - target.lastActivity) / 60);
          throw refused(
            `Session ${id} was active ${mins} min ago, within the 6h abandonment window: not safe to auto-close. ` + 'Its agent may still be working; let it checkpoint, or wait.',
          );
        }
        const { edits, rest } = splitEdits(target.notes);
        const cp: Checkpoint = {
          ...emptyFields(),
          state: foldIntoState(autoClosedState(now - target.lastActivity), rest, target.agent),
          files: edits,
          session: '',
          project: scope,
          agent: target.agent,
          handoffTo: '',
          autoClosed: true,
          git: emptyGit(),
          ts: target.lastActivity,
          follows: '',
          // The machine whose work this was (it may be another's, closed here on purpose).
          extra: target.machine ? { folded: [target.id], machine: target.machine } : { folded: [target.id] },
          slug: '',
        };
        const previous = (await vault.checkpoints(scope)).filter((c) => c.ts <= cp.ts).sort(newestFirst)[0];
        cp.follows = previous?.session ?? '';
        const written = await vault.createCheckpoint(scope, cp, target.start);
        await this.takeOutFolded(scope, written.id, target.notes);
        return { ...cp, session: written.id, slug: written.slug };
      }),
    );
  }

  /** Abandoned sessions across the vault, from the index's mirror of every `uncommitted.md`. */
  async abandoned(): Promise<Abandoned[]> {
    const now = this.deps.clock.now();
    const here = await this.machine();
    return this.withIndex((index) => abandonedAcross(index.openNotes(), now, here));
  }

  /** How every project stands (see continuityOf). */
  async continuity(): Promise<ProjectContinuity[]> {
    const now = this.deps.clock.now();
    return this.withIndex((index) => continuityOf(index.summaries(), index.openNotes(), now));
  }

  /** Which checkpoints touched a file, across every project and worktree, newest first. */
  async why(path: string, limit = 20): Promise<Touch[]> {
    if (!path.trim()) throw usage('Which file? e.g. baton why src/auth/session.ts');
    return this.withIndex((index) => index.touching(path, Math.max(0, limit)));
  }

  /** Recorded dead ends matching an approach an agent is about to try, best first (see deadEnds.ts). */
  async beforeYouTry(approach: string, project?: string): Promise<DeadEnd[]> {
    return this.withIndex((index) => deadEndsForApproach(index, approach, project));
  }

  /** The few dead ends of other projects than `scope`'s that match a task (for a hand-over, labelled as such). */
  async deadEndsElsewhere(task: string, scope: string): Promise<DeadEnd[]> {
    return this.withIndex((index) => deadEndsElsewhere(index, task, scope));
  }

  /** Full-text search over checkpoints, open notes and plans, best first (see search.ts). */
  async search(req: SearchRequest): Promise<TextHit[]> {
    const q = textQuery(req);
    return this.withIndex((index) => index.search(q));
  }

  /**
   * Brings the index up to date with the vault and writes out any note the
   * vault refused earlier. Never deletes a note it finds only in the index.
   */
  async reindex(): Promise<IndexResult> {
    const index = await this.deps.index.acquire();
    try {
      const before = index.openNotes().length;
      await index.refresh();
      const rescued = await rescuePending(this.deps.vault, this.deps.pending);
      if (rescued > 0) await index.refresh();
      const restored = Math.max(0, index.openNotes().length - before - rescued);
      return { restored, rescued, checkpoints: index.checkpointCount() };
    } finally {
      await this.deps.index.release(index);
    }
  }

  /** Runs a query on an index brought up to date with the vault first. */
  async withIndex<T>(fn: (index: IndexPort) => T): Promise<T> {
    const lease = this.deps.index;
    const index = await lease.acquire();
    try {
      await (lease.refresh ? lease.refresh(index) : index.refresh());
      return fn(index);
    } finally {
      await this.deps.index.release(index);
    }
  }

  /** Runs a vault write and tells the index lease and `onWrite`, even when the write failed halfway. */
  private async writing<T>(scope: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } finally {
      this.deps.index.wrote?.();
      this.deps.onWrite?.(scope);
    }
  }

  /**
   * Takes the folded notes out of the notes file once their checkpoint is
   * written. When that rewrite fails (a full disk), the checkpoint is taken
   * back, so the notes stay open once rather than also folded: the commit
   * fails whole, and says why.
   */
  private async takeOutFolded(scope: string, id: string, folded: Note[]): Promise<void> {
    const { vault } = this.deps;
    if (folded.length === 0) return;
    try {
      await vault.removeNotes(
        scope,
        folded.map(({ text, agent, ts, machine, agentSession }) => ({ text, agent, ts, ...(machine ? { machine } : {}), ...(agentSession ? { agentSession } : {}) })),
      );
    } catch (err) {
      await vault.removeCheckpoint(scope, id).catch(() => undefined);
      throw err;
    }
  }

  // The session id needs the agent's first open note, which would cost a read
  // of the whole notes file; a note's reply leaves it out to stay O(1).
  private asNote(line: NoteLine): Note {
    return { ...line, session: '' };
  }
}
