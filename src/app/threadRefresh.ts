// The shared hand-over kept current (issue 28, item 2): after each local
// checkpoint of the project whose repository holds Baton's agent-thread/, the
// folder's hand-over and session-start files are rewritten in the working
// tree (a change the person commits with their work), and the checkpoint
// files already pulled into the vault are taken out of it, so the folder does
// not grow. `baton thread status` says whether the committed hand-over is
// behind the vault and how many checkpoint files are pulled.
import * as fs from 'fs';
import * as path from 'path';
import { refused } from '../core/errors';
import { README_MARK, THREAD_FILES, THREAD_FOLDER } from '../core/repoThreadText';
import { blobId, readObjects } from '../adapters/git/gitObjects';
import { applyRepoChanges, readRepoFile, type RepoChange } from '../adapters/repoFiles';
import { checkFolderIsOurs, repositoryOf, sharedFolderChanges, sharedThreadText } from './repoThread';
import { judgeThreadFile, pullThread, pulledMarks, scanThread, type PullReport } from './threadPull';
import type { Baton } from '../core/baton';

/** The project a hand-over was rendered for, from its first line (`# Hand-over — NAME`, the name quoted as JSON when not plain). */
export function threadProjectOf(handover: string | null): string | null {
  const m = /^# Hand-over — (.+)\n/.exec(handover ?? '');
  if (!m) return null;
  if (!m[1].startsWith('"')) return m[1];
  try {
    const v: unknown = JSON.parse(m[1]);
    return typeof v === 'string' ? v : null;
  } catch {
    return null;
  }
}

/** The top of the repository holding `folder` when it has Baton's agent-thread/ (file system only: no git runs on a checkpoint's path). */
function threadRootAbove(folder: string): string | null {
  for (let dir = path.resolve(folder); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, '.git'))) {
      const readme = readRepoFile(dir, THREAD_FILES.readme);
      return readme !== null && readme.includes(README_MARK) ? dir : null;
    }
    if (path.dirname(dir) === dir) return null;
  }
}

export interface ThreadRefresh {
  /** Relative to the repository. */
  written: string[];
  removed: string[];
}

/** The working tree's checkpoint files whose bytes the vault already pulled: the pruning's changes. */
async function pulledHere(baton: Baton, root: string, scope: string): Promise<RepoChange[]> {
  let names: string[];
  try {
    names = fs.readdirSync(path.join(root, ...THREAD_FILES.checkpoints.split('/')));
  } catch {
    return [];
  }
  if (!names.length) return [];
  const known = await pulledMarks(baton, [scope]);
  const out: RepoChange[] = [];
  for (const name of names) {
    const mark = known.get(name);
    const rel = `${THREAD_FILES.checkpoints}/${name}`;
    const abs = path.join(root, ...rel.split('/'));
    if (!mark || !fs.lstatSync(abs).isFile()) continue;
    // Only the very bytes that were pulled: a copy the person edited since is theirs, and stays.
    const bytes = fs.readFileSync(abs);
    if (blobId(bytes) !== mark.blob) continue;
    out.push({ rel, before: readRepoFile(root, rel), after: null });
  }
  return out;
}

/**
 * Rewrites the hand-over files and prunes pulled checkpoint files, when
 * `folder` is in a repository whose agent-thread/ is Baton's and shares
 * `scope` (its hand-over's project); null when there is nothing to refresh.
 * Callers treat a throw as a note, never as a failed checkpoint.
 */
export async function refreshThread(baton: Baton, o: { folder: string; scope: string; home: string; vault: string }): Promise<ThreadRefresh | null> {
  const root = threadRootAbove(o.folder);
  if (!root || threadProjectOf(readRepoFile(root, THREAD_FILES.handover)) !== o.scope) return null;
  const shared = await sharedFolderChanges(baton, { ...o, root });
  const prune = await pulledHere(baton, root, o.scope);
  return applyRepoChanges(root, [...shared.changes.filter((c) => c.rel !== THREAD_FILES.readme), ...prune]);
}

export interface ThreadStatus {
  folder: string;
  project: string;
  /** HEAD's hand-over against the vault's rendered now: `behind` when they differ, `uncommitted` when HEAD has none. */
  committed: 'current' | 'behind' | 'uncommitted';
  /** The working tree's hand-over, the same way (`missing`: no file). */
  workingTree: 'current' | 'behind' | 'missing';
  checkpoints: {
    /** Checkpoint files on the branches (each name once) the vault holds. */
    pulled: number;
    /** Those it does not hold yet, and would take. */
    unpulled: number;
    /** Those a pull would refuse by name, size or kind (their contents are judged only by the pull). */
    refused: number;
    /** Pulled files still in the working tree's folder, which the next refresh takes out. */
    inWorkingTree: number;
  };
}

/** Where the thread is shared from `cwd` and for which project: the one given, else the hand-over's own (the working tree's, else HEAD's). */
export async function threadHere(cwd: string, given?: string): Promise<{ root: string; project: string }> {
  const root = await repositoryOf(cwd);
  checkFolderIsOurs(root);
  if (given) return { root, project: given };
  const head = async (): Promise<string | null> => {
    const b = (await readObjects(root, [`HEAD:${THREAD_FILES.handover}`])).get(`HEAD:${THREAD_FILES.handover}`);
    return b ? b.toString('utf8') : null;
  };
  const project = threadProjectOf(readRepoFile(root, THREAD_FILES.handover)) ?? threadProjectOf(await head());
  if (!project) throw refused(`The thread is not shared in ${root}: no ${THREAD_FILES.handover}. Run baton thread enable first, or name the project.`);
  return { root, project };
}

export async function threadStatus(baton: Baton, o: { cwd: string; scope?: string; home: string; vault: string }): Promise<ThreadStatus> {
  const { root, project } = await threadHere(o.cwd, o.scope);
  const now = (await sharedThreadText(baton, { scope: project, root, home: o.home, vault: o.vault })).text;
  const committed = (await readObjects(root, [`HEAD:${THREAD_FILES.handover}`])).get(`HEAD:${THREAD_FILES.handover}`);
  const working = readRepoFile(root, THREAD_FILES.handover);
  const scan = await scanThread(baton, root);
  const pulled = scan.files.filter((f) => scan.known.has(f.name)).length;
  const refusedCount = scan.files.filter((f) => !scan.known.has(f.name) && 'reason' in judgeThreadFile(f)).length;
  return {
    folder: THREAD_FOLDER,
    project,
    committed: !committed ? 'uncommitted' : committed.toString('utf8') === now ? 'current' : 'behind',
    workingTree: working === null ? 'missing' : working === now ? 'current' : 'behind',
    checkpoints: {
      pulled,
      unpulled: scan.files.length - pulled - refusedCount,
      refused: refusedCount,
      inWorkingTree: (await pulledHere(baton, root, project)).length,
    },
  };
}

/**
 * `baton sync`'s pull: the thread of the repository `cwd` is in, when that
 * repository shares one; null when it does not (no repository, no Baton
 * folder, no hand-over naming the project), so a sync elsewhere says nothing.
 * The branches are read as the person's last fetch left them: their
 * repository's remotes are theirs to fetch.
 */
export async function pullThreadHere(baton: Baton, cwd: string): Promise<PullReport | null> {
  const root = threadRootAbove(cwd);
  const project = root ? threadProjectOf(readRepoFile(root, THREAD_FILES.handover)) : null;
  if (!root || !project) return null;
  return pullThread(baton, { root, scope: project });
}
