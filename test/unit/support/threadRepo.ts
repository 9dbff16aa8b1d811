// A kestrel repository and a vault with one checkpoint, for the `baton thread`
// tests: the built CLI run in it as a person would, and the repository's bytes.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { cli } from './cli';
import { gitRepo } from './gitRepo';
import { tempDir } from './tempVault';

export interface ThreadOutcomeJson {
  folder: string;
  written: string[];
  removed: string[];
}

/** Every file of the repository but .git, with its bytes: what "as it was" means. */
export function snapshot(root: string, rel = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (p === '.git') continue;
    if (e.isDirectory()) Object.assign(out, snapshot(root, p), { [`${p}/`]: '' });
    else out[p] = fs.readFileSync(path.join(root, p), 'latin1');
  }
  return out;
}

/** A checkpoint written as a person's editor or an older tool would, so it holds what Baton's own write would have masked. */
export function handWritten(vault: string, project: string, body: string): void {
  const dir = path.join(vault, 'sessions', project);
  fs.mkdirSync(dir, { recursive: true });
  const front = [
    '---',
    'type: checkpoint',
    `title: ${project} — by hand`,
    `project: ${project}`,
    'agent: claude',
    'session: 20260801-100000-claude',
    'checkpointed: 2026-08-01T10:00:00Z',
    '---',
    '',
  ].join('\n');
  fs.writeFileSync(path.join(dir, '20260801-100000-claude.md'), front + body);
}

export interface ThreadRepo {
  base: string;
  vault: string;
  home: string;
  repo: string;
  run(args: string[], cwd?: string): ReturnType<typeof cli>;
  enable(cwd?: string): Promise<ThreadOutcomeJson>;
  disable(cwd?: string): Promise<ThreadOutcomeJson>;
  read(rel: string): string;
  cleanup(): void;
}

/** A fresh `kestrel` repository with one checkpoint, months old (a hand-over counted from the clock would say so). */
export async function threadRepo(): Promise<ThreadRepo> {
  const base = tempDir('baton-thread-');
  const vault = path.join(base, 'vault');
  const home = path.join(base, 'home');
  fs.mkdirSync(home);
  const repo = gitRepo(base, 'kestrel');
  const run = (args: string[], cwd = repo) => cli(['--vault', vault, ...args], { vault, cwd, env: { HOME: home } });
  const json = async (action: string, cwd: string): Promise<ThreadOutcomeJson> => {
    const r = await run(['thread', action, '--json'], cwd);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout) as ThreadOutcomeJson;
  };
  const r = await run([
    'checkpoint',
    '--at',
    '2026-08-14T14:32:07Z',
    '--task',
    'annual toggle in PricingTable',
    '--failed',
    'mocking the clock: flaky under load',
    '--next',
    'wire the toggle',
  ]);
  assert.equal(r.code, 0, r.stderr);
  return {
    base,
    vault,
    home,
    repo,
    run,
    enable: (cwd = repo) => json('enable', cwd),
    disable: (cwd = repo) => json('disable', cwd),
    read: (rel) => fs.readFileSync(path.join(repo, rel), 'utf8'),
    cleanup: () => fs.rmSync(base, { recursive: true, force: true }),
  };
}
