// The claims of the checkpoints a `why`, `before_you_try` or `blame` answer
// shows (issue 26), judged against the working tree the door stands in, in
// the hand-over's words (core/evidence.ts claimWords). A checkpoint of
// another project or worktree is neither read nor judged: another tree's
// files prove nothing about its claims, and saying "fresh" from them would be
// the very trust this exists to remove.
import type { Baton } from '../core/baton';
import type { Checkpoint } from '../core/model';
import type { ClaimCheck } from '../core/evidence';
import { parseCheckpoint } from '../adapters/markdown/checkpointFile';
import { readCheckpointText } from '../adapters/vault/checkpointText';
import { FsVault } from '../adapters/vault/fsVault';
import { scopeOfVaultPath } from '../adapters/vaultLayout';
import { claimChecks, folderOfScope } from './evidence';

/** The folder whose working tree judges a scope's claims, null when there is none here. */
export type FolderOf = (scope: string) => string | null;

/** Standing in `cwd`: its own scope's claims are judged there (folderOfScope), every other scope's are not; each scope asked once. */
export function folderFor(cwd: string | null | undefined, env: NodeJS.ProcessEnv): FolderOf {
  const known = new Map<string, string | null>();
  return (scope) => {
    if (!cwd) return null;
    if (!known.has(scope)) known.set(scope, folderOfScope(scope, cwd, env));
    return known.get(scope) ?? null;
  };
}

/** Checkpoints in hand (blame has them): the claims of those with evidence and a folder here, by slug. */
export function claimsOfCheckpoints(checkpoints: readonly Checkpoint[], folderOf: FolderOf): Map<string, ClaimCheck[]> {
  const out = new Map<string, ClaimCheck[]>();
  for (const cp of checkpoints) {
    if (out.has(cp.slug)) continue;
    // The folder it lives in names its scope (a worktree's own), whatever its frontmatter says.
    const folder = folderOf(scopeOfVaultPath(cp.slug) ?? cp.project);
    const checks = folder ? claimChecks(cp, folder) : [];
    if (checks.length) out.set(cp.slug, checks);
  }
  return out;
}

/** A tool's answer judges the claims of this many checkpoints, the newest it shows: each is a line a claim, paid for in tokens. */
export const JUDGED = 3;

export interface ShownClaims {
  /** By slug, the checkpoints judged here that had claims. */
  claims: Map<string, ClaimCheck[]>;
  /** Checkpoints of this project shown past the first JUDGED, whose claims were not read (the answer says so). */
  unjudged: number;
}

/**
 * Checkpoints named by slug (a touch, a dead end), newest first: the first
 * `max` of a scope with a folder here read from their files once, the rest
 * not read at all.
 */
export async function claimsOfSlugs(baton: Baton, slugs: readonly string[], folderOf: FolderOf, max = JUDGED): Promise<ShownClaims> {
  const vault = new FsVault(baton.vaultRoot);
  const own = [...new Set(slugs)].filter((slug) => {
    const scope = scopeOfVaultPath(slug);
    return scope !== undefined && folderOf(scope) !== null;
  });
  const wanted = own.slice(0, max);
  const read = await Promise.all(
    wanted.map(async (slug): Promise<Checkpoint | null> => {
      const scope = scopeOfVaultPath(slug);
      let file: string;
      try {
        file = vault.pathOf(slug);
      } catch {
        return null;
      }
      const text = scope ? await readCheckpointText(file) : null;
      return text === null || !scope ? null : parseCheckpoint(text, slug.slice(slug.lastIndexOf('/') + 1), scope);
    }),
  );
  return {
    claims: claimsOfCheckpoints(
      read.filter((c): c is Checkpoint => c !== null),
      folderOf,
    ),
    unjudged: own.length - wanted.length,
  };
}

/** A claim as the JSON answers carry it (`baton why --json`, the MCP tools' structured content): what the line says, exactly. */
export interface ClaimJson {
  claim: string;
  state: ClaimCheck['state'];
  command: string;
  commit: string;
  /** How many files the claim covers. */
  files: number;
  changed: string[];
}

export const claimJson = (c: ClaimCheck): ClaimJson => ({ claim: c.claim, state: c.state, command: c.command, commit: c.commit, files: c.files.length, changed: c.changed });
