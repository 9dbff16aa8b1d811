// The checkpoints agent blame attributes to: every scope of a project. Read
// whole from the vault (hundreds of files in an old project), so the editor
// keeps them until a checkpoint file of the project is added, removed or
// rewritten, told by a listing and a stat of each, not a read. A working note
// (the common write while agents work) changes none of them.
import * as fs from 'fs';
import * as path from 'path';
import type { Baton } from '../core/baton';
import type { Checkpoint } from '../core/model';
import { rootProject } from '../core/names';
import { isCheckpointFileName } from '../adapters/markdown/checkpointFile';
import { scopeDirOf } from '../adapters/vaultLayout';

/** Every checkpoint of a project and its worktree scopes, the candidates for a line of its files. */
export async function projectCheckpoints(baton: Baton, project: string): Promise<Checkpoint[]> {
  const scopes = await scopesOf(baton, project);
  return (await Promise.all(scopes.map((s) => baton.history(s)))).flat();
}

const scopesOf = async (baton: Baton, project: string): Promise<string[]> => (await baton.scopes()).filter((s) => rootProject(s) === project);

/** Names, sizes and times of the project's checkpoint files: what changes when one is added, removed or rewritten. */
async function fingerprint(baton: Baton, project: string): Promise<string> {
  const parts: string[] = [];
  for (const scope of (await scopesOf(baton, project)).sort()) {
    const dir = scopeDirOf(baton.vaultRoot, scope);
    const names = (await fs.promises.readdir(dir).catch(() => [] as string[])).filter(isCheckpointFileName).sort();
    const stats = await Promise.all(
      names.map((n) =>
        fs.promises.stat(path.join(dir, n)).then(
          (s) => `${s.size}:${s.mtimeMs}`,
          () => '-',
        ),
      ),
    );
    parts.push(`${scope}\n${names.map((n, i) => `${n}@${stats[i]}`).join('\n')}`);
  }
  return parts.join('\n\n');
}

/** Kept per project and read again only when its fingerprint moved. */
export class ProjectCheckpoints {
  private readonly kept = new Map<string, { print: string; checkpoints: Promise<Checkpoint[]> }>();

  constructor(private readonly baton: () => Baton) {}

  async of(project: string): Promise<Checkpoint[]> {
    const baton = this.baton();
    const print = `${baton.vaultRoot}\0${await fingerprint(baton, project)}`;
    const hit = this.kept.get(project);
    if (hit && hit.print === print) return hit.checkpoints;
    const entry = { print, checkpoints: projectCheckpoints(baton, project) };
    this.kept.set(project, entry);
    entry.checkpoints.catch(() => this.kept.get(project) === entry && this.kept.delete(project));
    return entry.checkpoints;
  }
}
