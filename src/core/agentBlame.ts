// Which checkpoint's session made a commit, and so wrote a line. Pure: git's
// answers (the blame's sha per line, the commit graph) come in as data.
//
// A commit belongs to a checkpoint of the project (any of its scopes) when it
// is reachable from that checkpoint's recorded commit, not from an earlier
// checkpoint's commit in the same scope (the previous one's, in a linear
// history), and was made (author time, which a rebase keeps) after that
// session began: the agent's own folded session, else the first folded note,
// else the previous checkpoint of the scope. A checkpoint that recorded the
// commits it covers (`commits`, a key of Baton's own) is taken at its word,
// with no walk. Everything else is nobody's: history from before any session,
// commits no checkpoint covers yet, lines not committed.
import type { Checkpoint } from './model';
import { agentOfId } from './names';

/** The frontmatter key (Baton's own; Logos keeps and ignores it) listing the commits a checkpoint covers. */
export const COMMITS_KEY = 'commits';

export interface BlamedCommit {
  sha: string;
  authorTime: number;
}

export interface Attribution {
  /** 1-based, inclusive. */
  start: number;
  end: number;
  /** The commit of the range's first line (full sha). */
  commit: string;
  checkpoint: Checkpoint;
}

interface Covering {
  cp: Checkpoint;
  commit: string;
  /** Unix seconds; undefined when the session's start cannot be told (then history gives it nothing). */
  start: number | undefined;
  recorded: string[];
}

/** The commits a checkpoint says it covers, when it says so; undefined for one that does not. */
export function recordedCommits(cp: Checkpoint): string[] | undefined {
  const v = cp.extra[COMMITS_KEY];
  if (!Array.isArray(v)) return undefined;
  return v.filter((s): s is string => typeof s === 'string' && /^[0-9a-f]{4,40}$/i.test(s)).map((s) => s.toLowerCase());
}

/** `YYYYMMDD-HHMMSS` at the start of a session id, as unix seconds; undefined when it has none. */
export function stampTime(id: string): number | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})/.exec(id);
  if (!m) return undefined;
  const ms = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]);
  return Number.isNaN(ms) ? undefined : ms / 1000;
}

/**
 * When a checkpoint's session began: the committing agent's own folded
 * session, else the earliest folded one, else the scope's previous
 * checkpoint. Another agent's session folded because it went silent (an
 * abandoned one, weeks old) does not stretch the start back over commits
 * nobody in this session made.
 */
export function sessionStart(agent: string, folded: readonly { agent: string; start: number }[], previousTs: number | undefined): number | undefined {
  const own = folded.filter((s) => s.agent === agent).map((s) => s.start);
  if (own.length) return Math.min(...own);
  if (folded.length) return Math.min(...folded.map((s) => s.start));
  return previousTs;
}

/** Per checkpoint: its commit and when its session began. */
function coverings(checkpoints: readonly Checkpoint[]): Covering[] {
  const byScope = new Map<string, Checkpoint[]>();
  for (const cp of checkpoints) push(byScope, cp.project, cp);
  const out: Covering[] = [];
  for (const list of byScope.values()) {
    list.sort((a, b) => a.ts - b.ts || a.session.localeCompare(b.session));
    list.forEach((cp, i) => {
      const folded = Array.isArray(cp.extra.folded) ? (cp.extra.folded as unknown[]).filter((x): x is string => typeof x === 'string') : [];
      const start = sessionStart(
        cp.agent,
        folded.flatMap((id) => {
          const t = stampTime(id);
          return t === undefined ? [] : [{ agent: agentOfId(id), start: t }];
        }),
        i > 0 ? list[i - 1].ts : undefined,
      );
      out.push({ cp, commit: cp.git.commit.toLowerCase(), start, recorded: recordedCommits(cp) ?? [] });
    });
  }
  // The first checkpoint to cover a commit is the session that made it (a worktree's, before the merge into main).
  return out.sort((a, b) => a.cp.ts - b.cp.ts || a.cp.session.localeCompare(b.cp.session));
}

/** The earliest session start of any checkpoint: no commit before it can be anyone's. */
export function earliestStart(checkpoints: readonly Checkpoint[]): number {
  const starts = coverings(checkpoints)
    .map((c) => c.start)
    .filter((t): t is number => t !== undefined);
  return starts.length ? Math.min(...starts) : Number.POSITIVE_INFINITY;
}

/** The checkpoints' recorded commits, the tips the commit graph is read from. */
export const checkpointTips = (checkpoints: readonly Checkpoint[]): string[] => [...new Set(checkpoints.map((c) => c.git.commit).filter(Boolean))];

const matches = (short: string, full: string): boolean => short.length >= 4 && full.startsWith(short);

/**
 * The checkpoint each blamed commit belongs to. `graph` maps a full sha to its
 * parents, for commits reachable from HEAD and the checkpoints' commits (it
 * may stop at the earliest session start: older commits are nobody's).
 */
export function attributeCommits(commits: readonly BlamedCommit[], checkpoints: readonly Checkpoint[], graph: ReadonlyMap<string, readonly string[]>): Map<string, Checkpoint> {
  const covers = coverings(checkpoints);
  const out = new Map<string, Checkpoint>();
  const wanted = new Map(commits.filter((c) => !/^0+$/.test(c.sha)).map((c) => [c.sha, c.authorTime]));
  if (wanted.size === 0) return out;
  // A recorded list answers without a walk; the earliest checkpoint to record a commit has it.
  const recorded = new Map<string, Covering>();
  for (const k of covers) for (const r of k.recorded) if (!recorded.has(r)) recorded.set(r, k);
  const lengths = [...new Set([...recorded.keys()].map((r) => r.length))];
  for (const sha of wanted.keys()) {
    for (const n of lengths) {
      const by = recorded.get(sha.slice(0, n));
      if (by) {
        out.set(sha, by.cp);
        break;
      }
    }
  }
  // One walk per scope, its checkpoints in order: what a checkpoint's commit reaches that no
  // earlier checkpoint's of its scope reached is its range (the previous one's, in a linear
  // history; after a rewrite, what an older tip still reaches stays excluded too). Each commit
  // is visited once per scope, however many checkpoints there are.
  const full = resolver(graph);
  const owner = new Map<string, Covering>();
  const byScope = new Map<string, Covering[]>();
  for (const k of covers) push(byScope, k.cp.project, k);
  for (const list of byScope.values()) {
    const seen = new Set<string>();
    for (const k of list) {
      const tip = k.commit ? full(k.commit) : undefined;
      if (!tip || seen.has(tip)) continue;
      const walks = k.recorded.length === 0 && k.start !== undefined;
      seen.add(tip);
      const stack = [tip];
      while (stack.length) {
        const sha = stack.pop() as string;
        const made = wanted.get(sha);
        if (walks && made !== undefined && made >= (k.start as number)) {
          const held = owner.get(sha);
          if (!held || k.cp.ts < held.cp.ts) owner.set(sha, k);
        }
        for (const p of graph.get(sha) ?? []) {
          if (!seen.has(p)) {
            seen.add(p);
            stack.push(p);
          }
        }
      }
    }
  }
  for (const [sha, k] of owner) if (!out.has(sha)) out.set(sha, k.cp);
  return out;
}

/** A short sha to the full one in the graph; undefined when absent or ambiguous. */
function resolver(graph: ReadonlyMap<string, unknown>): (short: string) => string | undefined {
  const byPrefix = new Map<string, string[]>();
  for (const sha of graph.keys()) push(byPrefix, sha.slice(0, 4), sha);
  return (short) => {
    const found = (byPrefix.get(short.slice(0, 4)) ?? []).filter((s) => matches(short, s));
    return found.length === 1 ? found[0] : undefined;
  };
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Consecutive lines of one checkpoint as one range; lines of nobody left out. */
export function lineRanges(lines: readonly string[], owners: ReadonlyMap<string, Checkpoint>): Attribution[] {
  const out: Attribution[] = [];
  lines.forEach((sha, i) => {
    const cp = owners.get(sha);
    if (!cp) return;
    const last = out[out.length - 1];
    if (last && last.end === i && last.checkpoint.slug === cp.slug) last.end = i + 1;
    else out.push({ start: i + 1, end: i + 1, commit: sha, checkpoint: cp });
  });
  return out;
}

/** The range holding a 1-based line, by binary search (the cursor asks this on every move). */
export function rangeAt(ranges: readonly Attribution[], line: number): Attribution | undefined {
  let lo = 0;
  let hi = ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const r = ranges[mid];
    if (line < r.start) hi = mid - 1;
    else if (line > r.end) lo = mid + 1;
    else return r;
  }
  return undefined;
}
