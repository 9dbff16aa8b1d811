// A person's repository, written file by file for `baton thread`: every file
// read as a repository may commit it (a symlink to /dev/zero is refused,
// foreignFile.ts), every change planned whole before the first write, each
// write atomic with the file's mode kept (agents/configWriter.ts), and a file
// that changed since it was read left alone.
import * as fs from 'fs';
import * as path from 'path';
import { refused } from '../core/errors';
import { writeAtomic } from './agents/configWriter';
import { readForeignUtf8 } from './foreignFile';

/** One file of the repository, `/`-separated from its top level, as it is and as it will be (null: no file). */
export interface RepoChange {
  rel: string;
  before: string | null;
  after: string | null;
}

const abs = (root: string, rel: string): string => path.join(root, ...rel.split('/'));

export function readRepoFile(root: string, rel: string): string | null {
  return readForeignUtf8(abs(root, rel));
}

export const repoFileExists = (root: string, rel: string): boolean => fs.existsSync(abs(root, rel));

/**
 * The files among `rels` that are not another one of them under a second name
 * (a `CLAUDE.md` linked to `AGENTS.md`, as many repositories keep them): the
 * first name of each file, so it is edited once.
 */
export function distinctFiles(root: string, rels: readonly string[]): string[] {
  const seen = new Set<string>();
  return rels.filter((rel) => {
    let real: string;
    try {
      real = fs.realpathSync(abs(root, rel));
    } catch {
      return true;
    }
    if (seen.has(real)) return false;
    seen.add(real);
    return true;
  });
}

/** The files a folder of the repository holds, recursively, `/`-separated from the top level; [] when there is no folder. */
export function repoFilesUnder(root: string, rel: string): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(abs(root, rel), { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((e) => (e.isDirectory() ? repoFilesUnder(root, `${rel}/${e.name}`) : [`${rel}/${e.name}`])).sort();
}

/**
 * Writes each change whose bytes differ, in order, and returns what it wrote
 * and removed. Once a removal leaves a folder among `prune` empty, the folder
 * goes too (deepest first): enable made it, and git keeps no empty folder.
 */
export function applyRepoChanges(root: string, changes: readonly RepoChange[], prune: readonly string[] = []): { written: string[]; removed: string[] } {
  const written: string[] = [];
  const removed: string[] = [];
  for (const c of changes) {
    if (c.before === c.after) continue;
    if (readRepoFile(root, c.rel) !== c.before)
      throw refused(`${c.rel} changed while Baton was writing; the files before it are done, nothing more was written. Run the command again.`);
    if (c.after === null) {
      fs.rmSync(abs(root, c.rel), { force: true });
      removed.push(c.rel);
    } else {
      writeAtomic(abs(root, c.rel), c.after);
      written.push(c.rel);
    }
  }
  if (removed.length) {
    for (const dir of [...prune].sort((a, b) => b.length - a.length)) {
      try {
        fs.rmdirSync(abs(root, dir));
      } catch {
        // Not empty (a person's file, an agent's checkpoint), or not there: it stays.
      }
    }
  }
  return { written, removed };
}
