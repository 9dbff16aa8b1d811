// Where a door's "here" is, for the commands that write into an agent's
// files: the repository root above the current folder (where agents look for
// a project's settings), and the person's home folder as the environment says
// (tests and sandboxes run the CLI with a HOME of their own).
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

/** The nearest folder at or above `dir` holding `.git` (a folder, or a worktree's file); `dir` itself when none does. */
export function projectRoot(dir: string): string {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    if (fs.existsSync(path.join(d, '.git'))) return d;
    if (path.dirname(d) === d) return path.resolve(dir);
  }
}

export function homeOf(env: NodeJS.ProcessEnv): string {
  return env.HOME?.trim() || env.USERPROFILE?.trim() || os.homedir();
}
