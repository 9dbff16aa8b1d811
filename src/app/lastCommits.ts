// "Has this file changed since the checkpoint?": one git question per file
// (its last commit time, compared with each checkpoint's), answered from a
// cache until HEAD moves, so showing a hover again starts no process.
import { FileHistory } from '../adapters/git/fileHistory';

export interface LastCommits {
  /** Unix seconds of the last commit that changed `file` in the repository of `dir`; 0 when none or no git. */
  lastCommitTime(dir: string, file: string): Promise<number>;
}

/** A cache of its own per caller: the hover keeps one for the life of the extension. */
export function lastCommits(): LastCommits {
  return new FileHistory();
}
