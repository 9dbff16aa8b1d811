// Who picked a project up, and when: the one lifecycle fact the vault's
// markdown does not hold. A session counts as "resumed" when an agent called
// resume on its project after it was checkpointed. Resumes are appended to
// `<vault>/.baton/resumes.log`, one JSON object a line, rather than written as
// working notes: a note would open a session for the reader and be folded into
// its next checkpoint as if it were work. The log is derived-data territory,
// so deleting `.baton/` loses only these counts, never a word of the record.
import * as fs from 'fs';
import * as path from 'path';
import { dataDirOf } from './vaultLayout';

export const RESUMES_LOG = 'resumes.log';

export interface ResumeRecord {
  ts: number;
  /** The scope resumed. */
  project: string;
  agent: string;
  /** Which entry point: mcp, hook, vscode, cli. */
  via: string;
}

const logPath = (vaultRoot: string): string => path.join(dataDirOf(vaultRoot), RESUMES_LOG);

/**
 * Appends one resume. Best effort and never throws: a resume that cannot be
 * counted must not stop an agent from reading its hand-over. One O_APPEND
 * write of a short line, so concurrent writers never interleave within a line.
 */
export function recordResume(vaultRoot: string, rec: ResumeRecord): void {
  try {
    fs.mkdirSync(path.dirname(logPath(vaultRoot)), { recursive: true, mode: 0o700 });
    fs.appendFileSync(logPath(vaultRoot), JSON.stringify(rec) + '\n', { mode: 0o600 });
  } catch {
    // an unwritable vault already says so on the write paths that matter
  }
}

/** Every readable record; a torn or hand-mangled line is skipped, never fatal. */
export function readResumes(vaultRoot: string): ResumeRecord[] {
  let text: string;
  try {
    text = fs.readFileSync(logPath(vaultRoot), 'utf8');
  } catch {
    return [];
  }
  const out: ResumeRecord[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const v = JSON.parse(line) as Partial<ResumeRecord>;
      if (typeof v.ts === 'number' && typeof v.project === 'string') {
        out.push({ ts: v.ts, project: v.project, agent: String(v.agent ?? ''), via: String(v.via ?? '') });
      }
    } catch {
      // torn line
    }
  }
  return out;
}
