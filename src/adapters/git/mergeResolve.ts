// What only Baton understands in a merge of two vaults, resolved in code from
// the index's stages (git-merge(1), "HOW CONFLICTS ARE PRESENTED": stage 1 the
// common ancestor, 2 ours, 3 theirs; checked on git 2.39: add/add has stages
// 2 and 3, modify/delete stage 1 and one side). See README.md beside this
// file for why this and not a merge driver.
//   - `uncommitted.md`: the notes' three-way set merge (notesMerge.ts). The
//     `.gitattributes` Baton writes marks it `-merge`, so git never merges it
//     as text and every two-sided change comes here.
//   - a checkpoint or plan both sides added under one name (the same agent,
//     scope and second on two machines): theirs is already on the remote, and
//     others may have pulled it and follow it, so it keeps the name; ours,
//     never yet pushed, takes the next free second, its `session:` and any of
//     our unpushed checkpoints' `follows` with it.
//   - a checkpoint or plan changed on one side and deleted on the other (by
//     hand): the changed one is kept; nothing of Baton's is lost.
// Anything else (a person's own file, a checkpoint both sides edited by hand)
// is left for the person, with the merge in progress and Baton's files
// already resolved and staged.
import * as fs from 'fs';
import * as path from 'path';
import { BatonError } from '../../core/errors';
import { stamp } from '../../core/time';
import { linksTo, withFollows, withSession } from '../markdown/checkpointRename';
import { isCheckpointFileName } from '../markdown/checkpointFile';
import { mergeNotes } from '../markdown/notesMerge';
import { ensureDir, writeAtomic } from '../vault/atomicFile';
import type { Unmerged, VaultRepo } from './vaultRepo';

export interface Resolution {
  renamed: { from: string; to: string }[];
  /** Paths left for the person (vault-relative, `/`-separated). */
  conflicts: string[];
}

type Kind = 'notes' | 'checkpoint' | 'plan' | 'other';

/** Which of Baton's files a vault path is; 'other' for anything outside `sessions/` or not Baton's. */
export function kindOf(p: string): Kind {
  const parts = p.split('/');
  if (parts[0] !== 'sessions' || parts.length < 3) return 'other';
  const name = parts[parts.length - 1];
  if (name === 'uncommitted.md') return 'notes';
  if (parts[parts.length - 2] === 'plans' && name.startsWith('plan-') && name.endsWith('.md')) return 'plan';
  return isCheckpointFileName(name) ? 'checkpoint' : 'other';
}

const STAMP = /^(plan-)?([0-9]{4})([0-9]{2})([0-9]{2})-([0-9]{2})([0-9]{2})([0-9]{2})(-.*)?\.md$/;

/** Names for a file that must move, in the order tried: the next seconds, as an exclusive create steps. */
function* nextNames(name: string): Generator<string> {
  const m = STAMP.exec(name);
  if (m) {
    const ts = Date.UTC(+m[2], +m[3] - 1, +m[4], +m[5], +m[6], +m[7]) / 1000;
    for (let step = 1; step <= 3600; step++) yield `${m[1] ?? ''}${stamp(ts + step)}${m[8] ?? ''}.md`;
  }
  for (let n = 2; ; n++) yield name.replace(/\.md$/, `-${n}.md`);
}

/**
 * Whether every folder from the vault down to `p`, and `p` itself when there,
 * is plain: a resolution never writes through a symbolic link (out of the
 * vault) nor reads one (a file from outside would be merged, committed and
 * pushed). git's own checkout refuses paths beyond a link the same way.
 */
function plainPath(root: string, p: string, folder = false): boolean {
  const parts = p.split('/');
  for (let i = 1; i <= parts.length; i++) {
    let st: fs.Stats;
    try {
      st = fs.lstatSync(path.join(root, ...parts.slice(0, i)));
    } catch {
      return true; // not there: made plain
    }
    if (i < parts.length || folder ? !st.isDirectory() : !st.isFile()) return false;
  }
  return true;
}

async function write(repo: VaultRepo, p: string, content: Buffer | string): Promise<void> {
  const full = path.join(repo.root, ...p.split('/'));
  // A link in the way (made here) is replaced by the plain file, never written through; a link above it is refused.
  if (!plainPath(repo.root, path.posix.dirname(p), true))
    throw new BatonError('refused', `${p} lies beyond a symbolic link in the vault; Baton never writes through one. Replace the link with a plain folder, then sync again.`);
  await ensureDir(path.dirname(full));
  await writeAtomic(full, content);
  await repo.ok(['add', '--', p]);
}

async function remove(repo: VaultRepo, p: string): Promise<void> {
  await repo.ok(['rm', '-q', '--cached', '--ignore-unmatch', '--', p]);
  await fs.promises.rm(path.join(repo.root, ...p.split('/')), { force: true });
}

/**
 * Resolves every unmerged path Baton owns and stages the result; returns the
 * renames and the paths it left. `ourNew` lists the checkpoints our side added
 * since the merge base: only those can follow a checkpoint of ours that moves.
 */
export async function resolveMerge(repo: VaultRepo, unmerged: Unmerged[], ourNew: string[]): Promise<Resolution> {
  const out: Resolution = { renamed: [], conflicts: [] };
  const blob = (sha?: string): Promise<Buffer | null> => (sha ? repo.blob(sha) : Promise.resolve(null));
  // Ids and paths of ours that moved so far: a later checkpoint of ours may follow an earlier one that moved too.
  const movedIds = new Map<string, string>();
  const movedPaths = new Map<string, string>();
  const repointed = (text: string): string => [...movedIds].reduce((t, [from, to]) => withFollows(t, from, to), text);
  // Oldest first, so a checkpoint is moved before the ones that follow it.
  unmerged = [...unmerged].sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
  // Not yet resolved: their working-tree file may hold git's conflict markers, and they get `repointed` when their turn comes.
  const pending = new Set(unmerged.map((u) => u.path));
  for (const u of unmerged) {
    pending.delete(u.path);
    const kind = kindOf(u.path);
    const { 1: base, 2: ours, 3: theirs } = u.stages;
    if (kind === 'notes') {
      // The working tree's file only when it is a plain one: a link's target is nobody's notes.
      const local = plainPath(repo.root, u.path) ? await fs.promises.readFile(path.join(repo.root, ...u.path.split('/'))).catch(() => null) : null;
      const merged = mergeNotes(await blob(base), await blob(ours), await blob(theirs), local);
      if (merged) await write(repo, u.path, merged);
      else await remove(repo, u.path);
    } else if (kind === 'other') {
      out.conflicts.push(u.path);
    } else if (!ours || !theirs) {
      // Changed on one side, deleted (by hand) on the other: keep what is left.
      await write(repo, u.path, (await blob(ours ?? theirs)) ?? Buffer.alloc(0));
    } else if (base) {
      // Both sides edited one checkpoint by hand: only the person can say which words stand.
      out.conflicts.push(u.path);
    } else {
      const dir = path.posix.dirname(u.path);
      const name = path.posix.basename(u.path);
      const fromId = name.slice(0, -3);
      const mine = repointed((await blob(ours))!.toString('utf8'));
      const contentFor = (candidate: string): string => (kind === 'checkpoint' ? withSession(mine, candidate.slice(0, -3)) : mine);
      let to = '';
      for (const candidate of nextNames(name)) {
        const p = `${dir}/${candidate}`;
        if (!(await repo.taken(p))) {
          to = p;
          break;
        }
        // A sync killed after writing it: the same file again, not a second copy.
        const there = await fs.promises.readFile(path.join(repo.root, ...p.split('/')), 'utf8').catch(() => null);
        if (there === contentFor(candidate)) {
          to = p;
          break;
        }
      }
      const toId = path.posix.basename(to).slice(0, -3);
      // Ours to its new name first, theirs onto the old name last: until that
      // last step the path stays unmerged, so a sync killed in between finds
      // it again and finishes it, and our checkpoint is on disk throughout.
      await write(repo, to, contentFor(path.posix.basename(to)));
      if (kind === 'checkpoint') {
        movedIds.set(fromId, toId);
        movedPaths.set(u.path, to);
        for (const p of ourNew.map((x) => movedPaths.get(x) ?? x).filter((x) => x !== to && !pending.has(x) && path.posix.dirname(x) === dir && kindOf(x) === 'checkpoint')) {
          const full = path.join(repo.root, ...p.split('/'));
          const text = await fs.promises.readFile(full, 'utf8').catch(() => null);
          if (text !== null && linksTo(text, fromId)) await write(repo, p, withFollows(text, fromId, toId));
        }
      }
      await write(repo, u.path, (await blob(theirs))!);
      out.renamed.push({ from: u.path, to });
    }
  }
  return out;
}
