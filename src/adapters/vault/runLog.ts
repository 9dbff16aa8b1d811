// The shell runs the hooks saw (core/runs.ts), one JSON line each, in
// `.baton-live/runs/<24 hex of sha256(scope)>.jsonl`: this machine's record,
// beside the locks and never shared or committed. Runs are no working notes:
// a note is read by every machine sharing the vault, in every hand-over, by
// Logos too, while a run is the machine's fact (its HEAD, its tree) until a
// checkpoint copies what backs a claim into its frontmatter. The name's digest
// is core/sha256.ts, as the locks' is: a hook does not load Node's crypto.
import * as fs from 'fs';
import * as path from 'path';
import type { Run } from '../../core/runs';
import { sha256Hex } from '../../core/sha256';
import { LIVE_DIR } from '../vaultLayout';

/** Past this size the file keeps its newer half: runs older than a few thousand calls back no checkpoint still to come. */
const MAX_BYTES = 1 << 20;
/** A command is kept to this many characters: a heredoc's body is no command to match. */
export const MAX_COMMAND = 2000;

export const runsFileOf = (root: string, scope: string): string => path.join(root, LIVE_DIR, 'runs', `${sha256Hex(`scope:${scope}`).slice(0, 24)}.jsonl`);

/**
 * Appends one run: a single `O_APPEND` write of one line (shorter than a pipe
 * buffer), so two hooks at once never interleave within a line. Never throws:
 * a run not recorded costs a claim its evidence, never the agent its tool call.
 */
export function appendRun(root: string, scope: string, run: Run): boolean {
  const file = runsFileOf(root, scope);
  const line = JSON.stringify({ ...run, command: run.command.slice(0, MAX_COMMAND) }) + '\n';
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.appendFileSync(file, line, { mode: 0o600 });
    if (fs.statSync(file).size > MAX_BYTES) keepNewerHalf(file);
    return true;
  } catch {
    return false;
  }
}

function keepNewerHalf(file: string): void {
  const text = fs.readFileSync(file, 'utf8');
  const from = text.indexOf('\n', Math.floor(text.length / 2));
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  fs.writeFileSync(tmp, from < 0 ? '' : text.slice(from + 1), { mode: 0o600 });
  fs.renameSync(tmp, file);
}

const isRun = (v: unknown): v is Run => {
  const r = v as Run;
  return (
    !!r && typeof r === 'object' && typeof r.command === 'string' && typeof r.ts === 'number' && typeof r.agent === 'string' && ['passed', 'failed', 'unknown'].includes(r.status)
  );
};

/** Every run of a scope, oldest first; a torn or foreign line is skipped. */
export function readRuns(root: string, scope: string): Run[] {
  let text: string;
  try {
    text = fs.readFileSync(runsFileOf(root, scope), 'utf8');
  } catch {
    return [];
  }
  const out: Run[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const v: unknown = JSON.parse(line);
      if (!isRun(v)) continue;
      const { endIn, ...run } = v;
      const end = endIn && typeof endIn.file === 'string' && typeof endIn.callId === 'string' && typeof endIn.at === 'number' ? { endIn } : {};
      out.push({ ...run, ...end, head: typeof v.head === 'string' ? v.head : '', dirty: typeof v.dirty === 'boolean' ? v.dirty : null });
    } catch {
      // a line torn by a full disk
    }
  }
  return out.sort((a, b) => a.ts - b.ts);
}
