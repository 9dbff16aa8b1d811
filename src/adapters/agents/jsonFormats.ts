// How Baton's entries go into and out of a JSON settings file, as a
// FileFormat the planner drives: nested hooks (Claude Code, Codex, Gemini),
// flat version-1 hooks (Cursor, Copilot) and one named MCP server entry.
import type { FileFormat } from './agentPlan';
import type { HookSet, NamedEntry } from './jsonEdit';
import { emptyBut, ensureHooks, hasHooks, hasNamed, readJson, removeHooks, removeNamed, sameJson, setAt, upsertNamed } from './jsonEdit';

export function hooksFormat(set: HookSet, file: string): FileFormat {
  return {
    hasOurs: (t) => hasHooks(t, set),
    add: (t) => ensureHooks(t, set, file),
    remove: (t) => removeHooks(t, set),
    same: sameJson,
    isEmpty: (t) => emptyBut(t),
  };
}

export function mcpFormat(entry: NamedEntry, file: string): FileFormat {
  return {
    hasOurs: (t) => hasNamed(t, entry),
    add: (t) => upsertNamed(t, entry, file),
    remove: (t) => removeNamed(t, entry),
    same: sameJson,
    isEmpty: (t) => emptyBut(t),
  };
}

const dropVersion = (t: string, file: string): string => {
  const v = readJson(t, file);
  if (v.version === 1) delete v.version;
  return JSON.stringify(v);
};

/** Flat hooks files carry `"version": 1`; Baton adds it to a file it creates and leaves a person's own alone. */
export function flatHooksFormat(set: HookSet, file: string): FileFormat {
  return {
    hasOurs: (t) => hasHooks(t, set),
    add: (t) => {
      const withVersion = t === null || readJson(t, file).version === undefined ? setAt(t, ['version'], 1) : t;
      const out = ensureHooks(withVersion, set, file);
      // Already connected: the version Baton would add must not count as a change.
      return t !== null && sameJson(out, t) ? t : out;
    },
    remove: (t) => removeHooks(t, set),
    // The version Baton added to the person's file is no difference from the file they had.
    same: (a, b) => sameJson(dropVersion(a, file), dropVersion(b, file)),
    isEmpty: (t) => emptyBut(t, ['version']),
  };
}
