// "Why is this file so": the checkpoints that touched a file, across every
// project, newest first, with basic-memory's session notes beside them when a
// basic-memory folder is read (read, never written, each marked as theirs).
import * as path from 'path';
import type { Baton } from '../core/baton';
import type { Checkpoint } from '../core/model';
import { rootProject } from '../core/names';
import { basicMemoryTouches, mergeTouches, readBasicMemorySessions, type OriginTouch } from '../adapters/basicMemory';

export type { OriginTouch };

/** `--basic-memory DIR`, else BATON_BASIC_MEMORY; undefined when neither is set. */
export function basicMemoryDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const dir = flag?.trim() || env.BATON_BASIC_MEMORY?.trim();
  return dir ? path.resolve(dir) : undefined;
}

/** At most `limit` touches, newest first, each marked by its origin (`baton` or `basic-memory`). */
export async function why(baton: Baton, file: string, limit: number, basicMemory?: string): Promise<OriginTouch[]> {
  const fromBaton = await baton.why(file, limit);
  const theirs = basicMemory ? basicMemoryTouches(readBasicMemorySessions(basicMemory), file) : [];
  return mergeTouches(fromBaton, theirs, limit);
}

/** basic-memory's latest session notes of a scope's project, to show beside Baton's hand-over. */
export function basicMemorySessionsOf(basicMemory: string | undefined, scope: string, max = 3): Checkpoint[] {
  if (!basicMemory) return [];
  return readBasicMemorySessions(basicMemory)
    .filter((s) => s.project === scope || s.project === rootProject(scope))
    .slice(0, max);
}
