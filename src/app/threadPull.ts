// `baton thread pull`: the checkpoints agents without Baton committed under
// agent-thread/checkpoints/ on their branches (issue 28), brought into the
// vault once each. Read through git's objects only (adapters/git/gitObjects.ts):
// every local and remote-tracking branch as its tip holds it, the person's
// working tree and index untouched. Written as `baton import` writes a past
// session, through the core's commit (exclusive names, secrets masked,
// back-dated to the file's own time, folding no open note), each marked with
// `pulled: {file, blob, branch, commit}`, so a file already brought in, from
// this branch or another, merged or deleted since, is not brought in again.
import { emptyGit, type CheckpointFields } from '../core/model';
import { ident } from '../core/quoted';
import { THREAD_FILES } from '../core/repoThreadText';
import { PULLED_KEY, THREAD_CHECKPOINT_MAX_BYTES, pulledMark, threadCheckpointFields, threadCheckpointName, type PulledMark } from '../core/threadCheckpoint';
import type { Baton } from '../core/baton';
import { branchTips, commitAdding, folderEntries, readObjects } from '../adapters/git/gitObjects';

export interface PulledCheckpoint {
  branch: string;
  /** Relative to the repository. */
  file: string;
  /** The vault's checkpoint id. */
  session: string;
  agent: string;
}

export interface RejectedFile {
  branch: string;
  file: string;
  reason: string;
}

export interface PullReport {
  imported: PulledCheckpoint[];
  rejected: RejectedFile[];
  /** Secrets masked in what was imported. */
  masked: number;
}

/** One checkpoint file as the branches hold it: the first branch (local ones first) for each name. */
export interface ThreadFile {
  branch: string;
  tip: string;
  name: string;
  file: string;
  oid: string;
  size: number;
  plain: boolean;
}

export interface ThreadScan {
  /** Each name once; a later branch's other content for a name is in `conflicting`. */
  files: ThreadFile[];
  conflicting: ThreadFile[];
  /** The marks of what the vault already pulled, by file name. */
  known: Map<string, PulledMark>;
}

const nameOf = (file: string): string => file.slice(file.lastIndexOf('/') + 1);

/** What the vault already pulled, by file name: every scope's checkpoints (the thread's project may have been another). */
export async function pulledMarks(baton: Baton, scopes?: readonly string[]): Promise<Map<string, PulledMark>> {
  const known = new Map<string, PulledMark>();
  for (const scope of scopes ?? (await baton.scopes())) {
    for (const cp of await baton.history(scope)) {
      const mark = pulledMark(cp.extra[PULLED_KEY]);
      if (mark && !known.has(nameOf(mark.file))) known.set(nameOf(mark.file), mark);
    }
  }
  return known;
}

/** Every branch's checkpoint files, each name once, and what the vault holds of them. */
export async function scanThread(baton: Baton, root: string): Promise<ThreadScan> {
  const files: ThreadFile[] = [];
  const conflicting: ThreadFile[] = [];
  const byName = new Map<string, ThreadFile>();
  for (const tip of await branchTips(root)) {
    for (const e of await folderEntries(root, tip.commit, THREAD_FILES.checkpoints)) {
      // A placeholder keeping the folder in git (`.gitkeep`) is nobody's checkpoint.
      if (e.name.startsWith('.')) continue;
      const f: ThreadFile = {
        branch: tip.branch,
        tip: tip.commit,
        name: e.name,
        file: `${THREAD_FILES.checkpoints}/${e.name}`,
        oid: e.oid,
        size: e.size,
        plain: e.type === 'blob' && (e.mode === '100644' || e.mode === '100755'),
      };
      const seen = byName.get(e.name);
      if (!seen) {
        byName.set(e.name, f);
        files.push(f);
      } else if (seen.oid !== f.oid && !conflicting.some((c) => c.name === f.name && c.oid === f.oid)) conflicting.push(f);
    }
  }
  return { files, conflicting, known: await pulledMarks(baton) };
}

/** The time and agent of a file not pulled yet, or why it cannot be, before its bytes are read. */
export function judgeThreadFile(f: ThreadFile): { at: number; agent: string } | { reason: string } {
  if (!f.plain) return { reason: 'not a plain file (a folder, a link or a submodule)' };
  const named = threadCheckpointName(f.name);
  if ('reason' in named) return named;
  if (f.size > THREAD_CHECKPOINT_MAX_BYTES) return { reason: `${f.size} bytes, over the ${THREAD_CHECKPOINT_MAX_BYTES} a checkpoint file may hold` };
  return named;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The text of a file's bytes, or why they are no markdown. */
function textOf(bytes: Buffer | null | undefined): string | { reason: string } {
  if (!bytes) return { reason: 'git could not read it' };
  if (bytes.includes(0)) return { reason: 'binary (holds NUL bytes), not markdown' };
  try {
    return utf8.decode(bytes);
  } catch {
    return { reason: 'not UTF-8 text' };
  }
}

/**
 * Brings each new checkpoint file into `scope`, oldest first (each follows
 * the one before it). A file that is no checkpoint (its name, its size, its
 * bytes, no section saying anything) is reported in `rejected`, as is a name
 * already pulled that a branch now holds with other content (a checkpoint
 * file is read once; the first one read stays the record).
 */
export async function pullThread(baton: Baton, o: { root: string; scope: string }): Promise<PullReport> {
  const scan = await scanThread(baton, o.root);
  const report: PullReport = { imported: [], rejected: [], masked: 0 };
  const reject = (f: ThreadFile, reason: string): void => void report.rejected.push({ branch: f.branch, file: f.file, reason });
  const fresh: { f: ThreadFile; at: number; agent: string }[] = [];
  for (const f of scan.files) {
    const mark = scan.known.get(f.name);
    if (mark) {
      if (mark.blob && mark.blob !== f.oid) reject(f, `already pulled from ${ident(mark.branch)} with other content; a checkpoint file is read once`);
      continue;
    }
    const judged = judgeThreadFile(f);
    if ('reason' in judged) reject(f, judged.reason);
    else fresh.push({ f, ...judged });
  }
  for (const f of scan.conflicting) {
    if (!scan.known.has(f.name)) reject(f, `another branch holds ${f.name} with other content; the first one (local branches first) is read`);
  }
  const bytes = await readObjects(
    o.root,
    fresh.map((x) => x.f.oid),
  );
  const ready: { f: ThreadFile; at: number; agent: string; fields: Partial<CheckpointFields>; masked: number }[] = [];
  for (const x of fresh) {
    const text = textOf(bytes.get(x.f.oid));
    const read = typeof text === 'string' ? threadCheckpointFields(text) : text;
    if ('reason' in read) reject(x.f, read.reason);
    else ready.push({ ...x, ...read });
  }
  ready.sort((a, b) => a.at - b.at || (a.f.name < b.f.name ? -1 : 1));
  for (const { f, at, agent, fields, masked } of ready) {
    const commit = await commitAdding(o.root, f.tip, f.file);
    const mark: PulledMark = { file: f.file, blob: f.oid, branch: f.branch, commit };
    try {
      const r = await baton.commit({
        scope: o.scope,
        agent,
        fields,
        extra: { [PULLED_KEY]: { ...mark } },
        at,
        git: { ...emptyGit(), branch: f.branch, commit },
        foldNotes: false,
      });
      report.imported.push({ branch: f.branch, file: f.file, session: r.checkpoint.session, agent: r.checkpoint.agent });
      report.masked += masked + r.redactions;
    } catch (err) {
      reject(f, `not written: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return report;
}
