// A checkpoint's Verified claims with their evidence (issue 26): the run each
// names, and the content of the files it covers when it was checkpointed, so
// a later reader can tell a claim still true of the code from one the code
// has moved on from. Kept under `evidence`, a frontmatter key of Baton's own
// (Logos keeps and ignores it), so the body stays as the agent wrote it.
import type { Checkpoint } from './model';
import { ident } from './quoted';
import type { ClaimRun } from './runs';
import { readTime, rfc3339 } from './time';

export const EVIDENCE_KEY = 'evidence';

/** One claim's record: its run, or `unbacked` when no passing run matched. */
export interface ClaimEvidence {
  claim: string;
  command?: string;
  exit?: number;
  /** RFC 3339: when the run ended. */
  ran?: string;
  /** HEAD (short) when it ran. */
  commit?: string;
  /** Covered files already edited after the run, when checkpointed: the run did not see them as they are. */
  changed?: string[];
  unbacked?: true;
}

/** The claims as a reader takes them: the covered files' content hashes at checkpoint, and each Verified item's evidence in order. */
export interface Evidence {
  /** HEAD (short) at checkpoint. */
  commit: string;
  /** Repo-relative path to `sha256:` + 16 hex of its content, or `missing`. */
  files: Record<string, string>;
  claims: ClaimEvidence[];
}

/** One run as `evidence.runs` holds it: the Verified items it backs by their number (1-based, space-separated). */
export interface RunRecord {
  command: string;
  exit?: number;
  ran: string;
  commit?: string;
  changed?: string[];
  backs: string;
}

/**
 * What `evidence` holds on disk: each run once with the items it backs, not a
 * record a claim. A claim's text is its Verified item (the body keeps it) and
 * most claims of a checkpoint share a few runs: a 1,000-claim record was five
 * lines a claim and the text twice, which cost `baton verify` more to read
 * than hashing the files it covers (BENCHMARKS.md, issue 26).
 */
export interface EvidenceRecord {
  commit: string;
  files: Record<string, string>;
  /** How many Verified items the record was written for: a list edited to another length no longer matches its numbers. */
  items: number;
  runs: RunRecord[];
  /** The items no passing run backs, by number. */
  unbacked?: string;
}

export const MISSING = 'missing';

/**
 * The record of linked claims (in the order of the Verified list as the body
 * holds it); `editedAfter(run)` names the covered files changed since that
 * run ended.
 */
export function evidenceRecord(linked: readonly ClaimRun[], files: Record<string, string>, commit: string, editedAfter: (ts: number) => string[]): EvidenceRecord {
  // By what is written of a run, not by identity: runs rebuilt from an older record (`baton verify --run`) are one entry too.
  const byRun = new Map<string, { run: NonNullable<ClaimRun['run']>; items: number[] }>();
  const unbacked: number[] = [];
  linked.forEach(({ run }, i) => {
    if (!run) return void unbacked.push(i + 1);
    const key = `${run.command}\0${run.exit ?? ''}\0${run.ts}\0${run.head.slice(0, 7)}`;
    const got = byRun.get(key);
    if (got) got.items.push(i + 1);
    else byRun.set(key, { run, items: [i + 1] });
  });
  const runs = [...byRun.values()].map(({ run: r, items }): RunRecord => {
    const changed = editedAfter(r.ts);
    return {
      command: r.command,
      ...(r.exit !== undefined ? { exit: r.exit } : {}),
      ran: rfc3339(r.ts),
      ...(r.head ? { commit: r.head.slice(0, 7) } : {}),
      ...(changed.length ? { changed } : {}),
      backs: items.join(' '),
    };
  });
  return { commit, files, items: linked.length, runs, ...(unbacked.length ? { unbacked: unbacked.join(' ') } : {}) };
}

const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** `1 51 101` (or one number, typed by YAML) as item numbers; [] for anything else. */
function itemNumbers(v: unknown): number[] {
  if (typeof v === 'number') return Number.isInteger(v) ? [v] : [];
  if (typeof v !== 'string') return [];
  const out: number[] = [];
  for (const w of v.split(' ')) {
    const n = Number(w);
    if (w && Number.isInteger(n)) out.push(n);
  }
  return out;
}

/**
 * The claims of a record written a run at a time, each given its Verified
 * item's text; null when the list no longer has the items the record numbers
 * (edited to another length, or numbers outside it): evidence of other words
 * backs nothing.
 */
function claimsByRun(e: Record<string, unknown>, verified: readonly string[]): ClaimEvidence[] | null {
  if (e.items !== verified.length) return null;
  const claims: (ClaimEvidence | undefined)[] = new Array(verified.length);
  const place = (n: number, c: ClaimEvidence): boolean => {
    if (n < 1 || n > verified.length || claims[n - 1]) return false;
    claims[n - 1] = c;
    return true;
  };
  for (const n of itemNumbers(e.unbacked)) if (!place(n, { claim: verified[n - 1], unbacked: true })) return null;
  for (const r of Array.isArray(e.runs) ? e.runs : []) {
    if (!r || typeof r !== 'object') return null;
    const run = r as Record<string, unknown>;
    const command = str(run.command);
    // The run's fields read once for all the items it backs.
    const ts = readTime(run.ran);
    const fields: Omit<ClaimEvidence, 'claim'> = command ? { command } : { unbacked: true };
    if (command) {
      if (typeof run.exit === 'number') fields.exit = run.exit;
      if (ts) fields.ran = rfc3339(ts);
      if (str(run.commit)) fields.commit = str(run.commit);
      const changed = strings(run.changed);
      if (changed.length) fields.changed = changed;
    }
    for (const n of itemNumbers(run.backs)) if (!place(n, { claim: verified[n - 1], ...fields })) return null;
  }
  // An item no run and no `unbacked` names: the record says nothing of it, so nothing backs it.
  return Array.from(claims, (c, i) => c ?? { claim: verified[i], unbacked: true });
}

/** The first shape (a record a claim, its text written again): checkpoints written before the record went by run. */
function claimsByClaim(e: Record<string, unknown>): ClaimEvidence[] {
  const times = new Map<unknown, string>();
  const ranOf = (v: unknown): string => {
    let t = times.get(v);
    if (t === undefined) times.set(v, (t = readTime(v) ? rfc3339(readTime(v)) : ''));
    return t;
  };
  const claims: ClaimEvidence[] = [];
  for (const c of Array.isArray(e.claims) ? e.claims : []) {
    if (!c || typeof c !== 'object') continue;
    const r = c as Record<string, unknown>;
    const claim = str(r.claim);
    if (!claim) continue;
    const command = str(r.command);
    if (r.unbacked === true || !command) {
      claims.push({ claim, unbacked: true });
      continue;
    }
    const changed = strings(r.changed);
    const one: ClaimEvidence = { claim, command };
    if (typeof r.exit === 'number') one.exit = r.exit;
    const ran = ranOf(r.ran);
    if (ran) one.ran = ran;
    const commit = str(r.commit);
    if (commit) one.commit = commit;
    if (changed.length) one.changed = changed;
    claims.push(one);
  }
  return claims;
}

/**
 * A checkpoint's evidence as written (by hand, by sync, by an older Baton:
 * read defensively) with its claims in the Verified order, or null without
 * one, or when its numbers no longer fit the Verified list.
 */
export function evidenceOf(cp: Pick<Checkpoint, 'extra' | 'verified'>): Evidence | null {
  const v = cp.extra[EVIDENCE_KEY];
  if (!v || typeof v !== 'object' || Array.isArray(v)) return null;
  const e = v as Record<string, unknown>;
  const files: Record<string, string> = {};
  if (e.files && typeof e.files === 'object' && !Array.isArray(e.files)) for (const [p, h] of Object.entries(e.files)) if (str(h)) files[p] = str(h);
  const claims = 'runs' in e || 'items' in e ? claimsByRun(e, cp.verified) : claimsByClaim(e);
  return claims ? { commit: str(e.commit), files, claims } : null;
}

export type ClaimState = 'fresh' | 'stale' | 'unbacked';

/** A claim judged against the files as they are now. */
export interface ClaimCheck {
  claim: string;
  state: ClaimState;
  command: string;
  exit: number | null;
  /** Where the run stood (else the checkpoint's commit). */
  commit: string;
  files: string[];
  /** Covered files whose content moved on (or that changed after the run, before the checkpoint). */
  changed: string[];
}

/**
 * Fresh while every covered file holds the content hashed at checkpoint (and
 * none was edited after the run); stale otherwise, naming the files. `now`
 * gives each file's hash as it is on disk (MISSING when gone); the working
 * tree counts, saved edits and uncommitted ones alike, not only commits.
 */
export function checkClaims(ev: Evidence, now: Readonly<Record<string, string>>): ClaimCheck[] {
  const files = Object.keys(ev.files);
  const moved = files.filter((f) => now[f] !== undefined && now[f] !== ev.files[f]);
  return ev.claims.map((c) => {
    if (c.unbacked || !c.command) return { claim: c.claim, state: 'unbacked', command: '', exit: null, commit: '', files, changed: [] };
    // Most claims have neither: no set built for them.
    const changed = c.changed?.length || moved.length ? [...new Set([...(c.changed ?? []), ...moved])] : [];
    return { claim: c.claim, state: changed.length ? 'stale' : 'fresh', command: c.command, exit: c.exit ?? null, commit: c.commit || ev.commit, files, changed };
  });
}

/**
 * One claim's state in Baton's words, the same wherever a claim is shown (the
 * hand-over, why, before_you_try, blame): the claim's command and the file
 * names as idents (agents' text, never structure). `terse` leaves out what a
 * fresh claim adds to "fresh: verified at … by …" (a tool's answer is paid for
 * in tokens; the stale and unbacked words are kept whole).
 */
export function claimWords(c: ClaimCheck, o: { since?: string; terse?: boolean } = {}): string {
  const at = c.commit ? ` at ${ident(c.commit)}` : '';
  if (c.state === 'unbacked') return 'unbacked: no passing run of a command it names was recorded';
  if (c.state === 'fresh') return `fresh: verified${at} by ${ident(c.command)}${o.terse ? '' : `; its ${c.files.length} file(s) unchanged since`}`;
  const names = c.changed.slice(0, 3).map(ident).join(', ') + (c.changed.length > 3 ? ', …' : '');
  return `stale: verified${at} by ${ident(c.command)}; ${c.changed.length} of its ${c.files.length} file(s) changed since (${names}): re-run before relying on it${o.since ?? ''}`;
}

/**
 * The evidence as a hand-over's lines: Baton's words, the claim's command
 * and the file names as idents (agents' text, never structure), one line a
 * claim, numbered as the Verified list above them is.
 */
export function evidenceLines(checks: readonly ClaimCheck[], o: { since?: string } = {}): string[] {
  if (!checks.length) return [];
  return ['Evidence for Verified, checked against the working tree now:', ...checks.map((c, i) => `  ${i + 1}. ${claimWords(c, o)}`)];
}

/** The line under an answer that judged only its newest checkpoints' claims: no silent cap. */
export const unjudgedLine = (n: number): string[] =>
  n > 0 ? [`(Verified claims of ${n} older checkpoint(s) of this project shown here not judged; \`baton verify\` judges the latest.)`] : [];

/**
 * A shown checkpoint's claims under its entry (why, before_you_try, blame),
 * where its Verified list is not printed: one line a claim, numbered as that
 * list is, fresh ones terse.
 */
export function shownClaimLines(checks: readonly ClaimCheck[] | undefined, indent = '  '): string[] {
  return (checks ?? []).map((c, i) => `${indent}Verified ${i + 1}: ${claimWords(c, { terse: true })}`);
}
