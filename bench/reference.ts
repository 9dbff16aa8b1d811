// The reference algorithm for "which checkpoints touched this file": what the
// tool Baton replaces does on every question. Walk every project and worktree
// folder, read and parse every checkpoint with the real parser, and match
// every Files and git `touched` path with the contract's rule. Given the
// fastest I/O Node has (synchronous reads), so the comparison flatters it.
import * as fs from 'fs';
import * as path from 'path';
import { isEmptyCheckpoint } from '../src/core/checkpointBody';
import { normalizeTouchPath, pathsMatch } from '../src/core/touching';
import { isCheckpointFileName, parseCheckpoint } from '../src/adapters/markdown/checkpointFile';

export interface RefTouch {
  session: string;
  project: string;
  ts: number;
  matched: string;
  slug: string;
}

function dirs(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
      .map((e) => e.name);
  } catch {
    return [];
  }
}

export function referenceWhy(vaultRoot: string, query: string): RefTouch[] {
  const sessions = path.join(vaultRoot, 'sessions');
  const out: RefTouch[] = [];
  for (const project of dirs(sessions)) {
    const scopes = [
      project,
      ...dirs(path.join(sessions, project))
        .filter((d) => d !== 'plans')
        .map((w) => `${project}/${w}`),
    ];
    for (const scope of scopes) {
      const dir = path.join(sessions, ...scope.split('/'));
      for (const name of fs.readdirSync(dir)) {
        if (!isCheckpointFileName(name)) continue;
        let text: string;
        try {
          text = fs.readFileSync(path.join(dir, name), 'utf8');
        } catch {
          continue;
        }
        const cp = parseCheckpoint(text, name.slice(0, -3), scope);
        if (isEmptyCheckpoint(cp)) continue;
        const hit = [...cp.files, ...cp.git.files].find((p) => pathsMatch(p, query));
        if (hit !== undefined) out.push({ session: cp.session, project: scope, ts: cp.ts, matched: normalizeTouchPath(hit), slug: `sessions/${scope}/${cp.session}` });
      }
    }
  }
  const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  return out.sort((a, b) => b.ts - a.ts || cmp(b.session, a.session) || cmp(b.slug, a.slug));
}
