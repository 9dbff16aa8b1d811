// Shell commands an agent ran, as its host's hooks saw them (issue 26): the
// machine's own record of a session, kept beside the vault's live files, not
// as working notes, so a hand-over never lists them and a Logos reading the
// vault never sees them. A checkpoint links its Verified claims to them
// (evidence.ts) and lists the failures nobody fixed in its Commands run.

/** What a hook payload says of one shell call (hooks/shellRun.ts reads each host's shape). */
export interface ShellCall {
  command: string;
  /** `passed` only where the host says it exited 0; `unknown` where the payload does not tell. */
  status: 'passed' | 'failed' | 'unknown';
  exit?: number;
  durationMs?: number;
}

/** One recorded run: the call, when and by whom, and where the repository stood. */
export interface Run extends ShellCall {
  /** Unix seconds, when the hook heard of it (the command had ended). */
  ts: number;
  agent: string;
  agentSession?: string;
  /** HEAD's full sha, "" outside git or before the first commit. */
  head: string;
  /** Whether tracked files differed from HEAD; null when git could not tell. */
  dirty: boolean | null;
  /**
   * Where the host records how the call ended when its payload does not say
   * (Codex's rollout: the file, the call's id, the file's size when the hook
   * heard of it), for a checkpoint to read; only on an `unknown` run.
   */
  endIn?: { file: string; callId: string; at: number };
}

/** The runs with each `unknown` one's exit as its host recorded it (`exitOf`), where it did: passed on 0, failed otherwise. */
export function withRecordedExits(runs: readonly Run[], exitOf: (r: Run) => number | undefined): Run[] {
  return runs.map((r) => {
    if (r.status !== 'unknown' || !r.endIn) return r;
    const exit = exitOf(r);
    return exit === undefined ? r : { ...r, status: exit === 0 ? 'passed' : 'failed', exit };
  });
}

/** Commands compared as typed: whitespace runs made one space, ends trimmed, backticks and quotes around them dropped. */
export const normalCommand = (c: string): string =>
  c
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[`'"]+|[`'"]+$/g, '')
    .trim();

// The dash that puts a claim's evidence after it: "rejects expired tokens — npm test -- auth".
// ` -- ` is not one: it is how a command passes arguments on.
const DASH = / (?:—|–|-) /;

/** The command a claim names after its dash, "" when it names none. */
export function claimCommand(claim: string): string {
  const m = DASH.exec(claim);
  return m ? normalCommand(claim.slice(m.index + m[0].length)) : '';
}

/** True when `ran` is `named` or `named` is a whole part of it (`cd app && npm test -- auth` ran `npm test -- auth`). */
export function runsCommand(ran: string, named: string): boolean {
  const r = normalCommand(ran);
  const n = normalCommand(named);
  if (!n || !r) return false;
  if (r === n) return true;
  const at = r.indexOf(n);
  if (at < 0) return false;
  const before = at === 0 ? ' ' : r[at - 1];
  const after = at + n.length === r.length ? ' ' : r[at + n.length];
  return /[\s;&|(]/.test(before) && /[\s;&|)]/.test(after);
}

/** A run that backs a claim: its command, how it ended, when, at which commit. */
export interface ClaimRun {
  claim: string;
  run: Run | null;
}

/**
 * Each claim's run: the latest run of the command after its dash or in its
 * backticks (also as a part of a longer command line), else the latest run
 * whose whole command the claim holds, when that run passed; null otherwise
 * (a failed or unknown run backs nothing, and a red run after a green one
 * takes the green one's word away: a claim is never read as verified over a
 * red or unseen result).
 */
export function linkClaims(claims: readonly string[], runs: readonly Run[]): ClaimRun[] {
  // Newest first, every status: the latest run of the named command decides, so a red run after a green one unbacks the claim.
  // Reversed first: of two runs in one second, the one recorded later comes first.
  const newest = [...runs].reverse().sort((a, b) => b.ts - a.ts);
  const passed = (r: Run | undefined): Run | null => (r && r.status === 'passed' ? r : null);
  return claims.map((claim) => {
    const named = [claimCommand(claim), ...[...claim.matchAll(/`([^`]+)`/g)].map((m) => normalCommand(m[1]))].filter(Boolean);
    const byName = newest.find((r) => named.some((n) => runsCommand(r.command, n)));
    const quoted = byName ?? newest.find((r) => normalCommand(r.command).length >= 3 && normalCommand(claim).includes(normalCommand(r.command)));
    return { claim, run: passed(quoted) };
  });
}

/**
 * Commands whose latest run failed, once each, oldest first, as Commands run
 * lists them ("npm test -- auth (failed, exit 1)"): a failure followed by a
 * pass of the same command is not listed.
 */
export function unfixedFailures(runs: readonly Run[]): { command: string; line: string }[] {
  const last = new Map<string, Run>();
  for (const r of [...runs].sort((a, b) => a.ts - b.ts)) last.set(normalCommand(r.command), r);
  return [...last.values()]
    .filter((r) => r.status === 'failed')
    .map((r) => ({ command: r.command, line: `${normalCommand(r.command)} (failed${r.exit !== undefined ? `, exit ${r.exit}` : ''})` }));
}
