// The two files a shared vault needs in its repository, written surgically:
// lines already there are left as they are (a person's own included), missing
// ones are appended, each file replaced atomically. Run by setup and by every
// sync, so a vault put under git by hand gets them too.
import * as fs from 'fs';
import * as path from 'path';
import { writeAtomic } from '../vault/atomicFile';

const IGNORE = ['# Baton: the cache (index, logs), the locks and pending notes stay on each machine', '.baton/', '.baton-live/', '.*.tmp'];

// gitattributes(5), "merge": "Unset: take the version from the current branch
// as the tentative merge result, and declare that the merge has conflicts"
// (git's t6026-merge-attr.sh checks exactly this). So git never merges the
// working notes as text, not even in a `git pull` by hand: the conflict keeps
// all three versions in the index for `baton sync` to merge as notes.
// `-text`: no line-ending conversion, the bytes agents wrote are what is shared.
const ATTRIBUTES = ['# Baton: working notes are merged by `baton sync` (each note once), never as text', 'sessions/**/*.md -text', 'sessions/**/uncommitted.md -merge -text'];

async function ensureLines(file: string, lines: string[]): Promise<boolean> {
  const current = await fs.promises.readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return '';
    throw err;
  });
  const have = new Set(current.split(/\r?\n/).map((l) => l.trim()));
  const missing = lines.filter((l) => !have.has(l));
  if (missing.every((l) => l.startsWith('#'))) return false;
  const lead = current === '' || current.endsWith('\n') ? '' : '\n';
  await writeAtomic(file, `${current}${lead}${missing.join('\n')}\n`);
  return true;
}

/** Makes sure `.gitignore` and `.gitattributes` hold Baton's lines; true when one was changed. */
export async function ensureVaultGitFiles(root: string): Promise<boolean> {
  const a = await ensureLines(path.join(root, '.gitignore'), IGNORE);
  const b = await ensureLines(path.join(root, '.gitattributes'), ATTRIBUTES);
  return a || b;
}
