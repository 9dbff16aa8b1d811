// The ports the core needs from the outside world. Adapters implement them
// over real files, sql.js and git; the core never touches I/O itself.
import type { Checkpoint, GitState, Plan, Touch } from './model';
import type { SearchField, SearchKind } from './searchText';
import type { OriginPort } from './origin';

/** A note as it lies in `uncommitted.md`: no session id, that is derived. */
export interface NoteLine {
  text: string;
  agent: string;
  ts: number;
  /** The machine that wrote it (origin.ts); absent on a line written before origins, or where no id could be kept. */
  machine?: string;
  /** The agent's own session id (its host's, through originValue), when the host gave one. */
  agentSession?: string;
}

export interface PlanInput {
  project: string;
  agent: string;
  ts: number;
  text: string;
}

/** The record: markdown files in the vault. Every whole-file write is atomic. */
export interface VaultPort {
  readonly root: string;
  /** Every scope that has a folder: `project` and `project/worktree`. */
  scopes(): Promise<string[]>;
  /** Checkpoints of this scope's folder only (not its worktree sub-folders), unparseable files skipped. */
  checkpoints(scope: string): Promise<Checkpoint[]>;
  /**
   * Claims `<stamp(stampTs)>-<agent>.md` with an exclusive create, stepping the
   * stamp forward a second on a clash (up to 60 times), and writes `cp` with its
   * session set to the claimed id. Returns the id and the absolute path.
   */
  /** Writes a new checkpoint file; its `slug` is the vault-relative name the model carries (the layout is the vault's). */
  createCheckpoint(scope: string, cp: Checkpoint, stampTs: number): Promise<{ id: string; path: string; slug: string }>;
  /** The scope's open notes; [] when it has none; throws when its notes file cannot be read (never "no notes"). */
  notes(scope: string): Promise<NoteLine[]>;
  /** The notes in the last few KB of the scope's notes file (a bounded read, whatever its size); [] when unreadable or absent. */
  recentNotes(scope: string): Promise<NoteLine[]>;
  /** One O_APPEND line: the cost does not grow with the notes already there. */
  appendNote(scope: string, note: NoteLine): Promise<void>;
  /** Several lines in one O_APPEND write, all or none (an edit hook's files): one write, not one per line. */
  appendNotes(scope: string, notes: readonly NoteLine[]): Promise<void>;
  /**
   * Takes folded notes out of `uncommitted.md` (each once per time listed),
   * keeping every other line as it is (open notes, lines written by hand);
   * deletes the file when nothing but its header is left.
   */
  removeNotes(scope: string, folded: NoteLine[]): Promise<void>;
  /** Removes a checkpoint this process has just written (a commit that could not finish). */
  removeCheckpoint(scope: string, id: string): Promise<void>;
  createPlan(scope: string, plan: PlanInput): Promise<Plan>;
  plans(scope: string): Promise<Plan[]>;
  /** Runs `fn` holding the scope's cross-process lock. */
  withScopeLock<T>(scope: string, fn: () => Promise<T>): Promise<T>;
  /** Absolute path of a vault-relative slug's markdown file. */
  pathOf(slug: string): string;
}

/** Per scope, what the index knows of its checkpoints. */
export interface ScopeSummary {
  scope: string;
  checkpoints: number;
  lastCheckpoint: number;
  lastAgent: string;
  /** The last checkpoint's origin (core/thread.ts originOf), "" when it names none. */
  lastMachine: string;
  lastPerson: string;
  /** Machines its checkpoints name: at most two, enough to tell one machine from several. */
  machines: string[];
}

export interface ScopeNote extends NoteLine {
  scope: string;
}

export interface RefreshStats {
  checkpointsParsed: number;
  /** Of those, how many a cold build's worker threads read and parsed. */
  checkpointsReadInWorkers: number;
  checkpointsRemoved: number;
  scopesScanned: number;
  notesScopesRead: number;
}

/** A dead end recorded in some checkpoint's "Didn't work". */
export interface DeadEnd {
  text: string;
  session: string;
  project: string;
  agent: string;
  ts: number;
  slug: string;
}

/** What the index is asked to find: the words already cut by `queryWords`. */
export interface TextQuery {
  words: string[];
  /** A scope to search: it and the scopes under it (a project's worktrees); none: all. */
  project?: string;
  kinds?: SearchKind[];
  /** Only checkpoints' Didn't work (before_you_try: the index keeps its terms apart); none: every field. */
  field?: 'failed';
  agent?: string;
  /** Unix seconds: nothing older. */
  since?: number;
  limit: number;
}

/** One hit of a full-text search, best first. */
export interface TextHit {
  kind: SearchKind;
  /** The scope it lies in (`project` or `project/worktree`). */
  project: string;
  agent: string;
  ts: number;
  /** The checkpoint's id, the open session's id for a note, the plan's id. */
  session: string;
  slug: string;
  title: string;
  /** The checkpoint section that matched best; `state` for a note's or a plan's text. */
  field: SearchField;
  /** The matching text as written in its record, cut around the matches (core/searchSnippet.ts). */
  snippet: string;
  /** The matched words in `snippet`, as [start, end) offsets in UTF-16 code units. */
  marks: [number, number][];
  /** How many of the query's words it holds. */
  matched: number;
  /** BM25 relevance (higher is better). */
  score: number;
}

/**
 * The cache: a sql.js index kept fresh incrementally from the vault. Anything
 * it says can be rebuilt from the vault.
 */
export interface IndexPort {
  refresh(): Promise<RefreshStats>;
  summaries(): ScopeSummary[];
  openNotes(): ScopeNote[];
  /** Newest first, at most `limit`: a file many checkpoints touched must not cost them all. */
  touching(path: string, limit?: number): Touch[];
  /** Every recorded dead end, newest first; with `slugs`, only those checkpoints'. */
  deadEnds(slugs?: string[]): DeadEnd[];
  /** Full-text search over checkpoints, open notes and plans, best first (all words before some, then relevance, then recency). */
  search(query: TextQuery): TextHit[];
  /** Per agent name, the newest stamp (Unix seconds) of its checkpoints and open notes: when each agent last wrote. */
  lastByAgent(): { agent: string; ts: number }[];
  checkpointCount(): number;
  /** Persists atomically under a lock; a busy lock just skips (it is a cache). */
  save(): Promise<void>;
  close(): void;
}

export interface ClockPort {
  /** Unix seconds. */
  now(): number;
}

export interface GitPort {
  state(): Promise<GitState>;
}

/** A note the vault refused, waiting beside the index to be written out. */
export interface PendingNote extends ScopeNote {
  id: string;
}

/** Notes that exist nowhere else until the vault takes them: never dropped by a rebuild. */
export interface PendingPort {
  add(scope: string, note: NoteLine): Promise<void>;
  list(): Promise<PendingNote[]>;
  remove(id: string): Promise<void>;
}

/**
 * How the core borrows the index. A CLI process opens, saves and closes it per
 * command; the extension keeps one open and saves it when idle.
 */
export interface IndexLease {
  acquire(): Promise<IndexPort>;
  release(index: IndexPort): Promise<void>;
  /**
   * Brings the lent index up to date before a query. Without it the core calls
   * `index.refresh()`; a lease that is told about every change (the extension's,
   * through its file watcher) may answer at once when nothing changed.
   */
  refresh?(index: IndexPort): Promise<void>;
  /** Told after the core wrote to the vault, so the next refresh is never skipped. */
  wrote?(): void;
}

export interface BatonDeps {
  vault: VaultPort;
  clock: ClockPort;
  pending: PendingPort;
  /** Opened lazily: a note must not pay for loading the index. */
  index: IndexLease;
  /** Told the scope after every write, failed halfway or not: the extension's caches listen here. */
  onWrite?(scope: string): void;
  /** This machine's id (origin.ts); without it every note is written and folded as before origins. */
  origin?: OriginPort;
}
