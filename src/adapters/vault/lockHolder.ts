// Who holds a vault lock, and whether that holder is still alive (see
// scopeLock.ts for the protocol): a holder on this machine is judged by its
// process (pid, pid namespace, boot, start time), one elsewhere by the age of
// the lock's mtime.
import * as fs from 'fs';
import * as os from 'os';
import { procStat } from '../processTree';

/** A lock whose holder cannot be checked is dead once its mtime is this old. */
export const STALE_MS = 10_000;

export interface Holder {
  host: string;
  ns: string;
  pid: number;
  token: string;
  /** The kernel's boot id: pids restart at every boot. '' where unknown. */
  boot: string;
  /** The process's start time (clock ticks since boot, /proc/<pid>/stat field 22). '' where unknown. */
  start: string;
}

export interface Seen {
  holder: Holder | null;
  /** The raw content, compared byte for byte before breaking. */
  raw: string;
  mtimeMs: number;
}

/** The pid namespace (Linux): two containers on one host may share a vault and a hostname, not pids. */
function pidNamespace(): string {
  try {
    return fs.readlinkSync('/proc/self/ns/pid');
  } catch {
    return '';
  }
}

function bootId(): string {
  try {
    return fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return '';
  }
}

/**
 * What /proc says of a process (Linux): its start time and whether it is a
 * zombie. null where there is no /proc, or when the pid is gone.
 */
export function procStart(pid: number | 'self'): { start: string; zombie: boolean } | null {
  const stat = procStat(pid);
  return stat ? { start: stat.start, zombie: stat.state === 'Z' || stat.state === 'X' } : null;
}

export const ME = { host: os.hostname(), ns: pidNamespace(), boot: bootId(), start: procStart('self')?.start ?? '' };

function exists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, it is just not ours to signal.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether a holder on this machine still runs: its pid exists and is still the process that took the lock. */
function holderAlive(h: Holder): boolean {
  if (!exists(h.pid)) return false;
  const proc = procStart(h.pid);
  if (!proc) return true; // no /proc (macOS) or gone this instant: kill(0) said it exists
  if (proc.zombie) return false;
  // Where /proc tells, a holder is believed only when it names the start time
  // of the process now under its pid. Every Baton that locks in `.baton-live/`
  // writes it; a lock without it was not written by one of this machine's
  // Batons (a file that arrived by sync or clone naming pid 1), so it is stale.
  return proc.start === h.start;
}

export function parseHolder(raw: string): Holder | null {
  try {
    const v = JSON.parse(raw) as Partial<Holder>;
    if (typeof v.host === 'string' && typeof v.ns === 'string' && Number.isSafeInteger(v.pid) && typeof v.token === 'string') {
      const text = (x: unknown): string => (typeof x === 'string' ? x : '');
      return { host: v.host, ns: v.ns, pid: v.pid as number, token: v.token, boot: text(v.boot), start: text(v.start) };
    }
  } catch {
    // a lock written by hand or torn on a file system without links: judged by its age
  }
  return null;
}

/**
 * A holder on this machine is judged by its process, never by the lock's age:
 * a stopped process cannot refresh its lock, and breaking it would let its
 * next write land on top of someone else's. Only a holder Baton cannot check
 * (another host, an unknown file) is judged by age.
 */
export function isDead(seen: Seen): boolean {
  const h = seen.holder;
  if (h && h.host === ME.host && h.ns === ME.ns && h.pid > 0) {
    // Written before this machine's last boot, or naming no boot where the
    // machine has one: every pid of that boot is gone, and a lock naming none
    // was never written by a Baton of this machine. The boot id is random per
    // boot and never leaves the machine (locks are never committed), so a
    // teammate cannot forge a lock this machine would believe.
    if (ME.boot && h.boot !== ME.boot) return true;
    if (h.pid === process.pid) return ME.start !== '' && h.start !== ME.start;
    return !holderAlive(h);
  }
  return Date.now() - seen.mtimeMs > STALE_MS;
}
