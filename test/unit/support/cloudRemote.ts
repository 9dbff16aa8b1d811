// The person's repository with the thread enabled and pushed to a bare
// remote, and a cloud agent's fresh clone of it that commits checkpoint files
// on its own branch and pushes, as agent-thread/README.md tells it to.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { git } from './gitRepo';
import { threadRepo, type ThreadRepo } from './threadRepo';

export interface CloudRemote extends ThreadRepo {
  remote: string;
  /** A fresh clone on `branch` (made from the remote's main), a file per entry written under agent-thread/checkpoints/, committed and pushed. */
  agentPushes(branch: string, files: Record<string, string | Buffer>): string;
  /** The person's `git fetch --prune`. */
  fetch(): void;
  /** `git status --porcelain` plus the index's bytes and every file's: what "untouched" means. */
  workingState(): string;
  pullJson(): Promise<PullJson>;
}

export interface PullJson {
  imported: { branch: string; file: string; session: string; agent: string }[];
  rejected: { branch: string; file: string; reason: string }[];
}

export async function cloudRemote(): Promise<CloudRemote> {
  const t = await threadRepo();
  await t.enable();
  git(t.repo, 'add', '-A');
  git(t.repo, 'commit', '-q', '-m', 'share the thread');
  const remote = path.join(t.base, 'remote.git');
  git(t.base, 'init', '-q', '--bare', '-b', 'main', remote);
  git(t.repo, 'remote', 'add', 'origin', remote);
  git(t.repo, 'push', '-q', '-u', 'origin', 'main');
  let clones = 0;
  return {
    ...t,
    remote,
    agentPushes(branch, files) {
      const dir = path.join(t.base, `cloud-${++clones}`);
      git(t.base, 'clone', '-q', remote, dir);
      git(dir, 'checkout', '-q', '-b', branch);
      for (const [name, body] of Object.entries(files)) {
        const p = path.join(dir, 'agent-thread', 'checkpoints', name);
        fs.mkdirSync(path.dirname(p), { recursive: true });
        fs.writeFileSync(p, body);
      }
      git(dir, 'add', '-A');
      git(dir, 'commit', '-q', '-m', `checkpoint on ${branch}`);
      git(dir, 'push', '-q', 'origin', branch);
      return git(dir, 'rev-parse', 'HEAD');
    },
    fetch: () => void git(t.repo, 'fetch', '-q', '--prune', 'origin'),
    workingState() {
      const files = Object.entries(snapshotAll(t.repo))
        .map(([k, v]) => `${k}\n${v}`)
        .join('\n');
      return [git(t.repo, 'status', '--porcelain', '--untracked-files=all'), fs.readFileSync(path.join(t.repo, '.git', 'index')).toString('base64'), files].join('\n--\n');
    },
    async pullJson() {
      const r = await t.run(['thread', 'pull', '--json']);
      assert.equal(r.code, 0, r.stderr);
      return JSON.parse(r.stdout) as PullJson;
    },
  };
}

function snapshotAll(root: string, rel = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (p === '.git') continue;
    if (e.isDirectory()) Object.assign(out, snapshotAll(root, p));
    else out[p] = fs.readFileSync(path.join(root, p), 'base64');
  }
  return out;
}

/** A checkpoint as an agent without Baton writes it, after the folder's README. */
export const agentCheckpoint = (task: string, extra = ''): string =>
  `## Task\n\n${task}\n\n## State\n\nThe cart total is computed server-side now.\n${extra}\n## Files\n\n- src/cart.ts\n\n## Next\n\nwire the annual toggle\n`;
