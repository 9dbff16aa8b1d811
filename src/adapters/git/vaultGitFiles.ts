// The two files a shared vault needs in its repository, written surgically:
// lines already there are left as they are (a person's own included), missing
// ones are appended, each file replaced atomically. Run by setup and by every
// sync, so a vault put under git by hand gets them too.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ensureDir, writeAtomic } from '../vault/atomicFile';
import { runGit } from './gitRun';
import { NOTES_FILE, PLANS_DIR, SESSIONS_DIR } from '../vaultLayout';

const IGNORE = ['# Baton: the cache (index, logs), the locks and pending notes stay on each machine', '.baton/', '.baton-live/', '.*.tmp'];

// gitattributes(5), "merge": "Unset: take the version from the current branch
// as the tentative merge result, and declare that the merge has conflicts"
// (git's t6026-merge-attr.sh checks exactly this). So git never merges the
// working notes as text, not even in a `git pull` by hand: the conflict keeps
// all three versions in the index for `baton sync` to merge as notes.
// `-text`: no line-ending conversion, the bytes agents wrote are what is shared.
const ATTRIBUTES = ['# Baton: working notes are merged by `baton sync` (each note once), never as text', 'sessions/**/*.md -text', 'sessions/**/uncommitted.md -merge -text'];

// The same rules, explicit on every attribute that changes how git merges a
// file or what bytes it writes (gitattributes(5): text, eol, crlf,
// working-tree-encoding, ident, filter, merge), in the repository's own
// `info/attributes`: "$GIT_DIR/info/attributes file (which has the highest
// precedence)", above every `.gitattributes` at any depth, per attribute. So a
// `.gitattributes` line a teammate adds after Baton's (`*.md merge=union`,
// `working-tree-encoding=UTF-16LE`), a `.gitattributes` inside `sessions/`,
// or a macro, changes nothing for Baton's files in this clone. Explicit values
// (`-x`, `x=v`), never `!x`: an unspecified value lets a lower file decide.
// Local to the vault's repository, never shared and never the person's config.
export const INFO_ATTRIBUTES = [
  "# Baton: how the vault's files merge and which bytes git writes; this file outranks every .gitattributes (gitattributes(5))",
  'sessions/**/*.md -text -eol -crlf -working-tree-encoding -ident -filter merge=text',
  'sessions/**/uncommitted.md -merge',
];

const SAMPLES = [NOTES_FILE, '20260101-000000-agent.md', `${PLANS_DIR}/plan-20260101-000000-agent.md`, `wt/${NOTES_FILE}`, 'wt/20260101-000000-agent.md'].map(
  (p) => `${SESSIONS_DIR}/project/${p}`,
);

/** Checked for each of Baton's files: what each may be without changing how Baton's files merge or their bytes. */
const NEUTRAL: Record<string, (v: string, notes: boolean) => boolean> = {
  text: (v) => v === 'unset' || v === 'unspecified',
  eol: (v) => v === 'unspecified' || v === 'unset',
  crlf: (v) => v === 'unspecified' || v === 'unset',
  'working-tree-encoding': (v) => v === 'unspecified' || v === 'unset',
  ident: (v) => v === 'unspecified' || v === 'unset',
  filter: (v) => v === 'unspecified' || v === 'unset',
  merge: (v, notes) => (notes ? v === 'unset' : v === 'unspecified' || v === 'text' || v === 'unset'),
};

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

/** Makes sure the repository's `info/attributes` (at `file`) holds Baton's rules, last; true when it was changed. */
export async function ensureInfoAttributes(file: string): Promise<boolean> {
  const current = await fs.promises.readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return '';
    throw err;
  });
  const lines = current.split(/\r?\n/);
  while (lines.length && lines[lines.length - 1].trim() === '') lines.pop();
  const tail = lines.slice(-INFO_ATTRIBUTES.length).map((l) => l.trim());
  if (tail.length === INFO_ATTRIBUTES.length && tail.every((l, i) => l === INFO_ATTRIBUTES[i])) return false;
  // Last: within this one file a later line wins, so a person's own line here cannot undo Baton's either.
  const kept = lines.filter((l) => !INFO_ATTRIBUTES.includes(l.trim()));
  await ensureDir(path.dirname(file));
  await writeAtomic(file, [...kept, ...INFO_ATTRIBUTES].join('\n') + '\n');
  return true;
}

/**
 * What the vault's own `.gitattributes` files (any depth, as they stand in
 * the working tree) would do to Baton's files at `paths` if Baton's rules in
 * `info/attributes` did not outrank them: one line per attribute and value,
 * naming a few of the files. Asked of git itself (`git check-attr`, so
 * patterns and macros count as git counts them) in a throwaway repository
 * whose work tree is the vault: no `info/attributes` there, no global or
 * system attributes file either, only the vault's.
 */
export async function overriddenAttributes(root: string, files: string[]): Promise<string[]> {
  // With samples of every kind of Baton's files, for rules that name none the vault holds yet.
  const paths = [...new Set([...files, ...SAMPLES])];
  const tmp = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'baton-attr-'));
  try {
    const gitDir = path.join(tmp, 'git');
    const init = await runGit(tmp, ['init', '-q', '--bare', gitDir]);
    if (init.code !== 0) return [];
    const env = { GIT_DIR: gitDir, GIT_WORK_TREE: root, GIT_ATTR_NOSYSTEM: '1' };
    const r = await runGit(root, ['-c', `core.attributesFile=${path.join(tmp, 'none')}`, 'check-attr', '-z', '--stdin', ...Object.keys(NEUTRAL)], {
      env,
      input: paths.join('\0') + '\0',
    });
    if (r.code !== 0) return [];
    const f = r.out.split('\0');
    const found = new Map<string, string[]>();
    for (let i = 0; i + 2 < f.length; i += 3) {
      const [p, attr, value] = [f[i], f[i + 1], f[i + 2]];
      if (NEUTRAL[attr]?.(value, p.endsWith('/uncommitted.md'))) continue;
      const key = value === 'set' ? attr : `${attr}=${value}`;
      found.set(key, [...(found.get(key) ?? []), p]);
    }
    return [...found].map(([key, ps]) => `${key} on ${ps.length} of Baton's file(s) (${ps.slice(0, 3).join(', ')}${ps.length > 3 ? ', …' : ''})`);
  } finally {
    await fs.promises.rm(tmp, { recursive: true, force: true }).catch(() => undefined);
  }
}
