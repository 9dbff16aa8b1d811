// The binding between an agent's own session (its id, its transcript) and the
// Baton project it works in, kept in the vault's derived folder. Hooks fire as
// separate processes with no memory of each other; this file is what lets a
// pre-compact capture skip a duplicate, and a session-end note name the
// project the session started in. Losing it (deleting `.baton/`) loses no
// record: at worst one duplicate extractive capture.
import * as fs from 'fs';
import * as path from 'path';
import { safe } from '../core/names';
import { maskSecrets } from '../core/secrets';
import { sessionKey } from '../core/sessionKey';
import { writeAtomic } from '../adapters/vault/atomicFile';
import { dataDirOf } from './vaultLayout';

export interface AgentSessionBinding {
  /** The agent's own session id, as the agent gave it. */
  id: string;
  agent: string;
  scope: string;
  cwd: string;
  transcript: string;
  started: number;
  updated: number;
  /** Fingerprint of the last extractive capture written for this session. */
  lastCapture: string;
  /**
   * The person's first prompt as the session start gave it (Copilot CLI's
   * initialPrompt), clipped: a capture's Task when the transcript is not
   * written yet (Copilot writes its session log behind the session).
   */
  opening: string;
}

/** `<vault>/.baton/agent-sessions/<agent>/<sessionKey(id)>.json`: the id reaches the file name only through the safe key. */
export function bindingPath(vaultRoot: string, agent: string, id: string): string {
  return path.join(dataDirOf(vaultRoot), 'agent-sessions', safe(agent) || 'agent', `${sessionKey(id)}.json`);
}

export function readBinding(vaultRoot: string, agent: string, id: string): AgentSessionBinding | null {
  try {
    const value = JSON.parse(fs.readFileSync(bindingPath(vaultRoot, agent, id), 'utf8')) as Partial<AgentSessionBinding>;
    // A key collision (or a hand-edited file) must not lend one session another's state.
    if (value.id !== id) return null;
    return {
      id,
      agent: String(value.agent ?? agent),
      scope: String(value.scope ?? ''),
      cwd: String(value.cwd ?? ''),
      transcript: String(value.transcript ?? ''),
      started: Number(value.started) || 0,
      updated: Number(value.updated) || 0,
      lastCapture: String(value.lastCapture ?? ''),
      opening: String(value.opening ?? ''),
    };
  } catch {
    return null;
  }
}

/** Merges `patch` into the stored binding (atomically replaced); returns what was written. */
export async function updateBinding(
  vaultRoot: string,
  agent: string,
  id: string,
  now: number,
  patch: Partial<Omit<AgentSessionBinding, 'id' | 'agent' | 'updated'>>,
): Promise<AgentSessionBinding> {
  const before = readBinding(vaultRoot, agent, id);
  // Values from a hook payload are untrusted and may hold a pasted token.
  const clean = (v: unknown): unknown => (typeof v === 'string' ? maskSecrets(v).text : v);
  const next: AgentSessionBinding = {
    id: maskSecrets(id).text,
    agent,
    scope: '',
    cwd: '',
    transcript: '',
    started: now,
    lastCapture: '',
    opening: '',
    ...before,
    ...Object.fromEntries(
      Object.entries(patch)
        .filter(([, v]) => v !== undefined && v !== '')
        .map(([k, v]) => [k, clean(v)]),
    ),
    updated: now,
  };
  const file = bindingPath(vaultRoot, agent, id);
  await fs.promises.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await writeAtomic(file, JSON.stringify(next, null, 2) + '\n');
  return next;
}
