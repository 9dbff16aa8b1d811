// Reading a person's repository through git's object database only, for
// `baton thread pull` and `status` (issue 28): the branches' tips
// (for-each-ref), a folder of a commit's tree (ls-tree), blobs (one
// cat-file --batch). No checkout, no index, no working tree: nothing the
// person has staged or edited is touched, and a branch never checked out here
// is read as well as the current one.
import { spawn } from 'child_process';
import { createHash } from 'crypto';
import { gitEnv } from './gitEnv';
import { runGit } from './gitRun';

export interface BranchTip {
  /** As a person names it: `main`, `origin/copilot/fix-cart`. */
  branch: string;
  commit: string;
}

/**
 * Every local and remote-tracking branch with its tip, local ones first.
 * Symbolic refs (`origin/HEAD`) are left out: they name a branch listed anyway.
 */
export async function branchTips(root: string): Promise<BranchTip[]> {
  const r = await runGit(root, ['for-each-ref', '--format=%(objectname) %(symref) %(refname)', 'refs/heads', 'refs/remotes']);
  if (r.code !== 0) return [];
  const out: BranchTip[] = [];
  for (const line of r.out.split('\n')) {
    const m = /^([0-9a-f]{40,64}) (\S*) refs\/(heads|remotes)\/(.+)$/.exec(line);
    if (m && !m[2]) out.push({ branch: m[4], commit: m[1] });
  }
  return out;
}

export interface TreeEntry {
  mode: string;
  type: string;
  oid: string;
  /** Bytes, for a blob; -1 for anything else. */
  size: number;
  /** The entry's name inside the folder. */
  name: string;
}

/** The entries of `folder` (`/`-separated, from the top level) in `commit`'s tree; [] when it has no such folder. */
export async function folderEntries(root: string, commit: string, folder: string): Promise<TreeEntry[]> {
  const r = await runGit(root, ['ls-tree', '-z', '-l', '--full-tree', commit, '--', `${folder}/`]);
  if (r.code !== 0) return [];
  const out: TreeEntry[] = [];
  for (const rec of r.out.split('\0')) {
    // `<mode> SP <type> SP <object> SP+ <size> TAB <path>` (git-ls-tree(1), --long).
    const m = /^(\d+) (\w+) ([0-9a-f]+) +(\S+)\t([\s\S]+)$/.exec(rec);
    if (!m || !m[5].startsWith(`${folder}/`)) continue;
    out.push({ mode: m[1], type: m[2], oid: m[3], size: m[4] === '-' ? -1 : Number(m[4]), name: m[5].slice(folder.length + 1) });
  }
  return out;
}

/**
 * The objects named (an oid, or `HEAD:path`), read in one `git cat-file
 * --batch`; a name git cannot find maps to null. Callers ask only for blobs
 * whose size they checked: git writes each object whole.
 */
export function readObjects(root: string, names: readonly string[]): Promise<Map<string, Buffer | null>> {
  const found = new Map<string, Buffer | null>();
  if (!names.length) return Promise.resolve(found);
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['cat-file', '--batch'], { cwd: root, env: gitEnv(), stdio: ['pipe', 'pipe', 'ignore'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => chunks.push(b));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`git cat-file --batch exited with ${code}`));
      const all = Buffer.concat(chunks);
      let at = 0;
      for (const name of names) {
        const eol = all.indexOf(0x0a, at);
        if (eol < 0) break;
        const header = all.subarray(at, eol).toString('utf8');
        at = eol + 1;
        // `<oid> <type> <size>`, then the content and a LF; `<name> missing` (git-cat-file(1), BATCH OUTPUT).
        const m = /^[0-9a-f]+ (\w+) (\d+)$/.exec(header);
        if (!m) {
          found.set(name, null);
          continue;
        }
        const size = Number(m[2]);
        found.set(name, m[1] === 'blob' ? all.subarray(at, at + size) : null);
        at += size + 1;
      }
      resolve(found);
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(names.map((n) => `${n}\n`).join(''));
  });
}

/** The commit of `tip`'s history that added `path` (the agent's commit of its checkpoint); the tip itself when it cannot be told. */
export async function commitAdding(root: string, tip: string, path: string): Promise<string> {
  const r = await runGit(root, ['log', '-1', '--format=%H', '--diff-filter=A', tip, '--', path]);
  return (r.code === 0 && r.out.trim()) || tip;
}

/** The id git gives these bytes as a blob (`git hash-object`), so a file in the working tree is known as the blob that was read. */
export function blobId(bytes: Uint8Array): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}
