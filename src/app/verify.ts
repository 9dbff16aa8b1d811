// `baton verify` (issue 26): the latest checkpoint's claims judged against
// the working tree, and with `run` the stale ones' commands run again in the
// project's folder, their new evidence recorded as a new checkpoint (the old
// file is never edited: the vault is the record).
import type { Baton } from '../core/baton';
import type { ClaimCheck } from '../core/evidence';
import { EVIDENCE_KEY, evidenceOf } from '../core/evidence';
import { REDACTED } from '../core/secrets';
import { readTime } from '../core/time';
import type { Run } from '../core/runs';
import { headState, topLevel } from '../adapters/git/headState';
import { runShell } from '../adapters/shellCommand';
import { commitCheckpoint } from './commit';
import { claimChecks } from './evidence';

/** One claim as `baton verify --json` prints it: its check, and whose checkpoint it is. */
export interface VerifyRow extends ClaimCheck {
  project: string;
  session: string;
}

export async function verifyClaims(baton: Baton, scope: string, folder: string | null): Promise<VerifyRow[]> {
  const cp = await baton.latest(scope);
  if (!cp) return [];
  return claimChecks(cp, folder).map((c) => ({ project: cp.project, session: cp.session, ...c }));
}

/**
 * Whether the latest checkpoint has an evidence record that no longer fits its
 * Verified list (edited by hand to another length): what `baton verify` says
 * instead of "no claim with evidence".
 */
export async function evidenceNoLongerFits(baton: Baton, scope: string): Promise<boolean> {
  const cp = await baton.latest(scope);
  return !!cp && cp.extra[EVIDENCE_KEY] !== undefined && evidenceOf(cp) === null;
}

/** A stale claim's command run again, or why it was not. */
export interface Rerun {
  command: string;
  exit: number | null;
  durationMs: number;
  /** Why it was not run ("" when it was). */
  refused: string;
}

export interface VerifyRun {
  rows: VerifyRow[];
  reruns: Rerun[];
  /** The new checkpoint's file, "" when nothing was re-run. */
  path: string;
}

/**
 * Re-runs each stale claim's command once, in the repository's top folder,
 * then checkpoints every claim of the latest checkpoint again with the new
 * runs (the fresh ones keep the runs they had). Refused: a command recorded
 * with a masked secret (it would not run as it ran), and a checkpoint another
 * machine wrote (a shared vault's text is no command to run here unasked).
 */
export async function rerunStale(baton: Baton, scope: string, folder: string, by: { agent: string; now: () => number }): Promise<VerifyRun> {
  const cp = await baton.latest(scope);
  const ev = cp ? evidenceOf(cp) : null;
  if (!cp || !ev) return { rows: [], reruns: [], path: '' };
  const checks = claimChecks(cp, folder);
  const machine = await baton.machine();
  const foreign = typeof cp.extra.machine === 'string' && cp.extra.machine !== machine;
  const top = (await topLevel(folder)) || folder;
  const runs: Run[] = [];
  const reruns: Rerun[] = [];
  for (const cmd of [...new Set(checks.filter((c) => c.state === 'stale').map((c) => c.command))]) {
    const refused = cmd.includes(REDACTED)
      ? 'its recorded command has a masked secret'
      : foreign
        ? `the checkpoint was written on machine ${String(cp.extra.machine).slice(0, 8)}, not this one`
        : '';
    if (refused) {
      reruns.push({ command: cmd, exit: null, durationMs: 0, refused });
      continue;
    }
    const r = await runShell(cmd, top);
    const where = await headState(top);
    runs.push({
      command: cmd,
      status: r.exit === 0 ? 'passed' : 'failed',
      exit: r.exit,
      durationMs: r.durationMs,
      ts: by.now(),
      agent: by.agent,
      head: where.head,
      dirty: where.dirty,
    });
    reruns.push({ command: cmd, exit: r.exit, durationMs: r.durationMs, refused: '' });
  }
  if (!runs.length) return { rows: await verifyClaims(baton, scope, folder), reruns, path: '' };
  // The fresh claims' runs, as their evidence recorded them, back them in the new checkpoint too.
  const kept: Run[] = ev.claims.flatMap((c, i) =>
    checks[i]?.state === 'fresh' && c.command
      ? [{ command: c.command, status: 'passed' as const, exit: c.exit ?? 0, ts: readTime(c.ran), agent: by.agent, head: c.commit ?? '', dirty: null }]
      : [],
  );
  const passed = reruns.filter((r) => r.exit === 0).length;
  const r = await commitCheckpoint(baton, {
    scope,
    agent: by.agent,
    fields: {
      task: cp.task,
      intent: cp.intent,
      next: cp.next,
      blockers: cp.blockers,
      questions: cp.questions,
      verified: cp.verified,
      files: Object.keys(ev.files),
      commands: runs.filter((x) => x.status === 'passed').map((x) => x.command),
      state: `Re-ran the stale claims of ${cp.session} (baton verify --run): ${passed} of ${runs.length} command(s) passed.`,
    },
    folder,
    runs: [...kept, ...runs],
    at: by.now(),
  });
  return { rows: await verifyClaims(baton, scope, folder), reruns, path: r.path };
}
