// "This agent CLI process is in that session", written by the agent's
// session-start hook and read by Baton's MCP server under the same CLI
// process, for the hosts whose MCP client names no session to its server
// (Gemini CLI 0.61.0; and Claude Code after /clear, whose server keeps the
// session id it was started with). One file per process under
// `.baton-live/agent-hosts/` (this machine's, never committed), named by the
// process's pid and start time, so a reused pid names another file, and
// holding the boot it was written in, so a file left from before a reboot (or
// one that arrived some other way) is believed by nobody. Rewritten at every
// session start: the newest session of the process wins.
import * as fs from 'fs';
import * as path from 'path';
import { maskSecrets } from '../core/secrets';
import { writeAtomic } from './vault/atomicFile';
import { ME, procStart } from './vault/lockHolder';
import { agentHostsDirOf } from './vaultLayout';
import type { ProcStat } from './processTree';

export interface HostSession {
  /** The host as the hooks name it (hooks/hosts.ts Host): a record is read only for the same host. */
  host: string;
  /** The agent's own session id, as its hook payload gave it. */
  session: string;
  /** Seconds, when the hook wrote it. */
  at: number;
}

interface Stored extends HostSession {
  pid: number;
  start: string;
  boot: string;
}

/** An id longer than this is no session id a host sends; it is not recorded. */
const MAX_ID = 256;

const fileOf = (vaultRoot: string, p: Pick<ProcStat, 'pid' | 'start'>): string => path.join(agentHostsDirOf(vaultRoot), `${p.pid}-${p.start}.json`);

/** Records that `proc` is in `session` now, and drops the records of processes gone. */
export async function writeHostSession(vaultRoot: string, proc: ProcStat, value: HostSession): Promise<void> {
  if (!value.session || value.session.length > MAX_ID) return;
  const dir = agentHostsDirOf(vaultRoot);
  await fs.promises.mkdir(dir, { recursive: true, mode: 0o700 });
  // Masked as every vault write is (a host's id is its text, not ours): the notes it goes on are masked the same way.
  const stored: Stored = { ...value, session: maskSecrets(value.session).text, pid: proc.pid, start: proc.start, boot: ME.boot };
  await writeAtomic(fileOf(vaultRoot, proc), JSON.stringify(stored) + '\n');
  await pruneHostSessions(vaultRoot);
}

/**
 * The session recorded for `proc`, or null: no record, one for another host,
 * another boot, or another process under the same pid (its start time differs).
 */
export function readHostSession(vaultRoot: string, proc: Pick<ProcStat, 'pid' | 'start'>, host: string): HostSession | null {
  let v: Partial<Stored>;
  try {
    v = JSON.parse(fs.readFileSync(fileOf(vaultRoot, proc), 'utf8')) as Partial<Stored>;
  } catch {
    return null;
  }
  if (v.pid !== proc.pid || v.start !== proc.start || v.host !== host || (v.boot ?? '') !== ME.boot) return null;
  if (typeof v.session !== 'string' || !v.session || v.session.length > MAX_ID) return null;
  return { host, session: v.session, at: Number(v.at) || 0 };
}

/** Removes the records whose process no longer runs (or whose pid another process now has). */
export async function pruneHostSessions(vaultRoot: string): Promise<void> {
  const dir = agentHostsDirOf(vaultRoot);
  let names: string[];
  try {
    names = await fs.promises.readdir(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const m = /^([0-9]+)-([0-9]+)\.json$/.exec(name);
    if (!m) continue;
    if (procStart(Number(m[1]))?.start === m[2]) continue;
    await fs.promises.rm(path.join(dir, name), { force: true }).catch(() => undefined);
  }
}
