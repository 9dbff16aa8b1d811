// The session core: every rule of the vault contract that involves more than
// one file. Entry points (CLI, MCP, VS Code) call this and nothing below it.
import { isEmptyCheckpoint } from './checkpointBody';
import { refused, usage } from './errors';
import type { Abandoned, Checkpoint, Note, Plan, ProjectContinuity, Touch } from './model';
import { emptyFields, emptyGit } from './model';
import { safeName, safeScope } from './names';
import { deadEndsElsewhere, deadEndsForApproach } from './deadEnds';
import { rescuePending } from './pendingNotes';
import { newestFirst } from './order';
import { COMMITS_KEY, sessionStart } from './agentBlame';
import type { BatonDeps, DeadEnd, IndexPort, TextHit } from './ports';
import { textQuery, type SearchRequest } from './search';
import type { CommitRequest, CommitResult, IndexResult, NoteResult, ResumeView, SessionsView } from './requests';
import { maskFields, maskSecrets } from './secrets';
import { abandonedAcross, continuityOf } from './continuity';
import { checkTime } from './time';
import { mergeFiles, splitEdits } from './edits';
import { workingNotes } from './lifecycle';
import { autoClosedState, foldIntoState, isAbandoned, openSessions, sessionsToFold, toAbandoned } from './sessions';
import { NoteTaking, vaultWrite, type WriteOrigin } from './noteTaking';
import { othersWorking, severalMachines, withWhose } from './whose';

export class Baton {
  private readonly notesOf: NoteTaking;

  constructor(private readonly deps: BatonDeps) {
    this.notesOf = new NoteTaking(deps);
  }

  get vaultRoot(): string {
    return this.deps.vault.root;
  }

  /** This machine's id as notes and checkpoints record it; "" when none could be kept. */
  machine(): Promise<string> {
    return this.notesOf.machine();
  }

  /** See NoteTaking.note: one append to the agent's open session, kept aside when the vault refuses it. */
  note(scope: string, agent: string, text: string, at?: number, from?: WriteOrigin): Promise<NoteResult> {
    return this.notesOf.note(scope, agent, text, at, from);
  }

  noteUnlessLatest(scope: string, agent: string, text: string, at?: number, from?: WriteOrigin): Promise<boolean> {
    return this.notesOf.noteUnlessLatest(scope, agent, text, at, from);
  }

  hasOpenNotes(scope: string, agent: string): Promise<boolean> {
    return this.notesOf.hasOpenNotes(scope, agent);
  }

  recordEdits(scope: string, agent: string, paths: readonly string[], at?: number, from?: WriteOrigin): Promise<{ recorded: string[]; redactions: number; durable: boolean }> {
    return this.notesOf.recordEdits(scope, agent, paths, at, from);
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

    return vaultWrite(this.deps, scope, () =>
      vault.withScopeLock(scope, async () => {
        const sessions = openSessions(scope, await vault.notes(scope));
        const fold = req.foldNotes === false ? [] : sessionsToFold(sessions, agent, now, machine);
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
        // A back-dated checkpoint (a past session imported) follows what came before it, not a newer one.
        const earlier = (await vault.checkpoints(scope)).filter((c) => req.at === undefined || c.ts <= now).sort(newestFirst);
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
    const plan = await vaultWrite(this.deps, scope, () => this.deps.vault.createPlan(scope, { project: scope, agent, ts, text: masked.text }));
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
    return vaultWrite(this.deps, scope, () =>
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
}
