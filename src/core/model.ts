// The records of continuity, as the core and every entry point see them.
// Times are unix seconds; an absent text is "" and an absent list is [].

/** Git state captured when a checkpoint is committed. */
export interface GitState {
  branch: string;
  /** Short sha, "" when the repository has no commits or there is none. */
  commit: string;
  subject: string;
  /** Git's count of dirty files (not working notes). */
  dirty: number;
  /** True when git status could not be read: never to be recorded as clean. */
  unreadable: boolean;
  /** Paths git saw changed, at most 20. */
  files: string[];
  /** Top-level path of the linked worktree, "" when in the main one. */
  worktree: string;
}

export const emptyGit = (): GitState => ({
  branch: '',
  commit: '',
  subject: '',
  dirty: 0,
  unreadable: false,
  files: [],
  worktree: '',
});

/** What an agent or person states when committing; every field optional in spirit. */
export interface CheckpointFields {
  task: string;
  intent: string;
  state: string;
  decisions: string[];
  failed: string[];
  verified: string[];
  blockers: string[];
  commands: string[];
  questions: string[];
  files: string[];
  next: string;
}

export const emptyFields = (): CheckpointFields => ({
  task: '',
  intent: '',
  state: '',
  decisions: [],
  failed: [],
  verified: [],
  blockers: [],
  commands: [],
  questions: [],
  files: [],
  next: '',
});

export interface Checkpoint extends CheckpointFields {
  /** The id: the file name without `.md`. */
  session: string;
  /** The scope: `project` or `project/worktree`. */
  project: string;
  agent: string;
  handoffTo: string;
  autoClosed: boolean;
  git: GitState;
  /** The `checkpointed` time (else `first_seen`, else 0). */
  ts: number;
  /** Id of the previous checkpoint in the scope ("follows" relation), "" if none. */
  follows: string;
  /** Frontmatter keys this version does not model; kept so a re-render loses nothing. */
  extra: Record<string, unknown>;
  /** Vault-relative `sessions/<scope>/<id>`. */
  slug: string;
}

/** A working note, one line of `uncommitted.md`. */
export interface Note {
  text: string;
  agent: string;
  ts: number;
  /** The open session it belongs to (derived: stamp of its first note + agent). */
  session: string;
  /** Its origin (origin.ts), absent on a line written without one. */
  machine?: string;
  agentSession?: string;
}

/** A session that went silent past the abandonment window. */
export interface Abandoned {
  session: string;
  project: string;
  agent: string;
  /** The machine it was open on ("" or absent when its notes carry no origin): whose it is, in a team's vault. */
  machine?: string;
  /** "this machine" or "machine 3f9c2a1b", set only where the project is written from more than one machine (whose.ts). */
  whose?: string;
  task: string;
  /** How many notes it holds. */
  notes: number;
  lastActivity: number;
}

export interface Plan {
  slug: string;
  project: string;
  agent: string;
  ts: number;
  title: string;
  text: string;
}

export interface ProjectContinuity {
  project: string;
  /** Checkpoints across the project and all its worktree scopes. */
  checkpoints: number;
  lastCheckpoint: number;
  lastAgent: string;
  /** The origin of the last checkpoint ("" when it names none), for whose it was where a project has several machines. */
  lastMachine: string;
  lastPerson: string;
  /** Machines the project's checkpoints and open sessions come from (checkpoints: at most two per scope). */
  machines: string[];
  uncommitted: number;
  abandoned: number;
  quiet: boolean;
  /** Worktree scopes (`project/worktree`) seen under this project. */
  scopes: string[];
}

/** A checkpoint that touched a file, as `why` answers. */
export interface Touch {
  session: string;
  project: string;
  agent: string;
  task: string;
  /** The path as the checkpoint wrote it. */
  matched: string;
  ts: number;
  slug: string;
}
