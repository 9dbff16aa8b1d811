// Claims' evidence (issue 26), once for every door: at checkpoint, each
// Verified item linked to the session's run it names, with the content hashes
// of the files it covers (core/evidence.ts); on a hand-over, each judged
// against the working tree; the failures nobody fixed put in Commands run.
import type { Baton } from '../core/baton';
import type { CheckpointFields, Checkpoint } from '../core/model';
import type { ClaimCheck, Evidence } from '../core/evidence';
import { EVIDENCE_KEY, checkClaims, evidenceOf, evidenceRecord } from '../core/evidence';
import { normalizeItems } from '../core/checkpointBody';
import { editedPath } from '../core/edits';
import { safeScope } from '../core/names';
import { linkClaims, normalCommand, unfixedFailures, withRecordedExits, type Run } from '../core/runs';
import { normalizeTouchPath } from '../core/touching';
import { FileHashes } from '../adapters/fileHashes';
import { codexExits } from '../adapters/transcripts/codexExits';
import { changedSince, headState, topLevel } from '../adapters/git/headState';
import { readRuns } from '../adapters/vault/runLog';
import { projectRoot } from './projectDir';
import { resolveScope } from './scope';

/** A checkpoint's evidence covers at most this many files: a session that touched more is described by its commit. */
const MAX_FILES = 200;

/** One cache for the life of the process: a hand-over asked again hashes nothing it hashed before. */
const hashes = new FileHashes();

/** How many files this process read to hash (tests and `baton verify --json` report it). */
export const filesHashed = (): number => hashes.hashed;

/**
 * The runs of the committing agent's session on this machine: since its
 * first open note, else since the scope's latest checkpoint. A person's
 * checkpoint (an agent with no runs) takes every agent's runs since then.
 */
async function sessionRuns(baton: Baton, scope: string, agent: string): Promise<{ runs: Run[]; edits: string[]; base: string }> {
  const all = readRuns(baton.vaultRoot, scope);
  const s = await baton.sessions(scope);
  const machine = await baton.machine();
  const own = s.uncommitted.filter((n) => n.agent === agent && (!n.machine || !machine || n.machine === machine));
  const latest = s.checkpoints[0];
  const since = own.length ? Math.min(...own.map((n) => n.ts)) : (latest?.ts ?? 0);
  // A run can come before the session's first note: the window opens at the previous checkpoint.
  const from = Math.min(since, latest?.ts ?? since);
  const mine = all.filter((r) => r.agent === agent && r.ts >= from);
  const runs = mine.length ? mine : all.filter((r) => r.ts >= (latest?.ts ?? 0));
  const edits = own.map((n) => editedPath(n.text)).filter((p): p is string => p !== null);
  const base = runs.find((r) => r.head)?.head ?? latest?.git.commit ?? '';
  return { runs, edits, base };
}

/** The runs with the exits their hosts recorded after the hook (Codex's rollout, codexExits.ts): one read of each file. */
function recordedExits(runs: readonly Run[]): Run[] {
  const calls = new Map<string, { callId: string; at: number }[]>();
  for (const r of runs) if (r.status === 'unknown' && r.endIn) calls.set(r.endIn.file, [...(calls.get(r.endIn.file) ?? []), r.endIn]);
  if (!calls.size) return [...runs];
  const exits = new Map([...calls].map(([file, c]) => [file, codexExits(file, c)]));
  return withRecordedExits(runs, (r) => (r.endIn ? exits.get(r.endIn.file)?.get(r.endIn.callId) : undefined));
}

export interface EvidenceRequest {
  scope: string;
  agent: string;
  fields: Partial<CheckpointFields>;
  /** The project's folder; without it (or with git not allowed) no claim is linked: there are no files to hash. */
  folder?: string | null;
  gitAllowed?: boolean;
  /** A run made by the caller itself (`baton verify --run`), linked as the session's newest. */
  runs?: Run[];
}

/**
 * What a checkpoint adds for its claims: the `evidence` key, and Commands run
 * with each command whose last run in the session failed. Never throws: a
 * claim without evidence is unbacked, never a checkpoint lost.
 */
export async function evidenceFor(baton: Baton, req: EvidenceRequest): Promise<{ extra: Record<string, unknown>; commands: string[] }> {
  const given = req.fields.commands ?? [];
  if (!req.folder || req.gitAllowed === false) return { extra: {}, commands: given };
  try {
    const scope = safeScope(req.scope);
    // No run recorded in the scope (an agent without hooks, a person): nothing to link, and the scope's history is not read for it.
    if (!(req.runs ?? []).length && !readRuns(baton.vaultRoot, scope).length) {
      const verified = normalizeItems(req.fields.verified ?? []);
      if (!verified.length) return { extra: {}, commands: given };
      const top = (await topLevel(req.folder)) || req.folder;
      const covered = [...new Set((req.fields.files ?? []).map(normalizeTouchPath).filter(Boolean))].slice(0, MAX_FILES).sort();
      const files = Object.fromEntries(covered.map((f) => [f, hashes.hash(top, f)]));
      const record = evidenceRecord(linkClaims(verified, []), files, (await headState(top)).head.slice(0, 7), () => []);
      return { extra: { [EVIDENCE_KEY]: record }, commands: given };
    }
    const session = await sessionRuns(baton, scope, req.agent);
    const runs = [...recordedExits(session.runs), ...(req.runs ?? [])];
    // A failed command the agent listed itself gets its status; one it left out is added.
    const failed = new Map(unfixedFailures(runs).map((f) => [normalCommand(f.command), f.line]));
    const commands = given.map((c) => failed.get(normalCommand(c)) ?? c);
    const listed = new Set(given.map(normalCommand));
    for (const [cmd, line] of failed) if (!listed.has(cmd)) commands.push(line);
    // As the body will hold them: the record numbers the items of that list.
    const verified = normalizeItems(req.fields.verified ?? []);
    if (!verified.length) return { extra: {}, commands };
    const top = (await topLevel(req.folder)) || req.folder;
    const changed = await changedSince(top, session.base);
    const named = [...(req.fields.files ?? []), ...session.edits].map(normalizeTouchPath).filter(Boolean);
    const covered = [...new Set([...changed, ...named])].slice(0, MAX_FILES).sort();
    const files: Record<string, string> = {};
    for (const f of covered) files[f] = hashes.hash(top, f);
    const head = (await headState(top)).head;
    const record = evidenceRecord(linkClaims(verified, runs), files, head.slice(0, 7), (ts) => covered.filter((f) => hashes.mtime(top, f) > ts));
    return { extra: { [EVIDENCE_KEY]: record }, commands };
  } catch {
    return { extra: {}, commands: given };
  }
}

/** The claims of a checkpoint judged against the files in `folder`'s repository now; [] without evidence or a folder. */
export function claimChecks(cp: Pick<Checkpoint, 'extra' | 'verified'>, folder: string | null | undefined): ClaimCheck[] {
  const ev: Evidence | null = evidenceOf(cp);
  if (!ev || !folder) return [];
  const top = projectRoot(folder);
  const now: Record<string, string> = {};
  for (const f of Object.keys(ev.files)) now[f] = hashes.hash(top, f);
  return checkClaims(ev, now);
}

/** `cwd` when it is a folder of `scope` (claims are checked against its working tree), else null: another project's files prove nothing. */
export function folderOfScope(scope: string, cwd: string | undefined, env: NodeJS.ProcessEnv): string | null {
  if (!cwd) return null;
  try {
    return resolveScope({ env: { ...env, BATON_PROJECT: '' }, folders: [cwd] })?.scope === safeScope(scope) ? cwd : null;
  } catch {
    return null;
  }
}
