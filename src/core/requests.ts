// What the core is asked and what it answers: the shapes every door reads
// through src/app, kept apart from the rules in baton.ts that produce them.
import type { Abandoned, Checkpoint, CheckpointFields, GitState, Note } from './model';
import type { DeadEnd } from './ports';
import type { LiveSession } from './whose';

export interface CommitRequest {
  scope: string;
  agent: string;
  fields: Partial<CheckpointFields>;
  handoffTo?: string;
  /** Back-dates the checkpoint (imports, tests); else now. */
  at?: number;
  /** Baton's own frontmatter keys (agent_session, transcript, capture). */
  extra?: Record<string, unknown>;
  /** False for a past session brought in by `baton import`: today's open notes are not its own and stay open. */
  foldNotes?: boolean;
  git?: GitState;
  /**
   * The commits this session made, asked once the core knows where the scope's
   * previous checkpoint stood and when the session began (core/agentBlame.ts);
   * undefined when they cannot be told. Recorded as `commits`.
   */
  coveredCommits?(range: { previousCommit: string; since: number }): Promise<string[] | undefined>;
}

export interface CommitResult {
  checkpoint: Checkpoint;
  path: string;
  redactions: number;
  /** How many working notes were folded into the State. */
  folded: number;
}

export interface NoteResult {
  note: Note;
  redactions: number;
  /** False when the vault refused the write and the note is kept only in the index. */
  durable: boolean;
  reason: string;
}

export interface SessionsView {
  project: string;
  checkpoints: Checkpoint[];
  uncommitted: Note[];
  abandoned: Abandoned[];
  /** Other machines' sessions in the scope still at work (whose.ts): never folded here. */
  othersWorking?: LiveSession[];
}

export interface ResumeView {
  project: string;
  latest: Checkpoint | null;
  uncommitted: Note[];
  abandoned: Abandoned[];
  /** Dead ends recorded in other projects that match the latest task (every door's resume asks for them: app/resume.ts). */
  elsewhere?: DeadEnd[];
  /** Other machines' sessions in the scope still at work: the hand-over's "also working now" (whose.ts). */
  othersWorking?: LiveSession[];
}

export interface IndexResult {
  restored: number;
  rescued: number;
  checkpoints: number;
}
