// What Linux's /proc says of a process, and which of a process's ancestors is
// the agent CLI that runs it. An agent's hooks and its MCP server are both
// children of the same CLI process, hooks often through a shell (`sh -c`,
// Claude Code 2.1.328) or directly (Codex 0.169.0, Gemini CLI 0.61.0, Copilot
// CLI 1.0.102; seen from each in the agents' tier, 2026-12-02): so "the
// nearest ancestor that is no shell" names that one process from either side.
// Nothing here without /proc (macOS, Windows): callers then know nothing.
import * as fs from 'fs';

export interface ProcStat {
  pid: number;
  /** The kernel's name of the program (at most 15 bytes). */
  comm: string;
  /** R, S, D, Z (zombie), X (dead), … */
  state: string;
  ppid: number;
  /** Clock ticks since boot at which the process started (field 22): with the pid, one process for this boot. */
  start: string;
}

/** /proc/<pid>/stat read, or null where there is no /proc or the pid is gone. */
export function procStat(pid: number | 'self'): ProcStat | null {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // `pid (comm) state ...`: comm may hold spaces and parentheses, so fields count from the last ')'.
  const close = stat.lastIndexOf(')');
  const fields = stat.slice(close + 2).split(' ');
  const start = fields[19] ?? '';
  const ppid = Number(fields[1]);
  if (!/^[0-9]+$/.test(start) || !Number.isSafeInteger(ppid)) return null;
  return { pid: Number(stat.slice(0, stat.indexOf(' '))), comm: stat.slice(stat.indexOf('(') + 1, close), state: fields[0] ?? '', ppid, start };
}

/**
 * Programs that stand between an agent CLI and what it runs without being the
 * agent: shells running a hook's command line, `env` of a `#!/usr/bin/env`
 * line, npm's `npx`/`npm exec` running a project-scope `baton`.
 */
const IN_BETWEEN = /^(?:sh|bash|dash|zsh|ksh|mksh|fish|ash|busybox|env|npx|npm|npm exec.*)$/;

/** How far up to look: a hook is at most a few shells below its CLI. */
const MAX_DEPTH = 8;

/**
 * The agent CLI process that runs this one: the nearest ancestor (from the
 * parent up) that is no shell, npm or `env`; null where /proc cannot tell, or
 * when only init is left (the parent exited and the process was re-parented).
 */
export function hostProcess(from: number = process.ppid): ProcStat | null {
  let pid = from;
  for (let i = 0; i < MAX_DEPTH && pid > 1; i++) {
    const p = procStat(pid);
    if (!p || p.state === 'Z' || p.state === 'X') return null;
    if (!IN_BETWEEN.test(p.comm)) return p;
    pid = p.ppid;
  }
  return null;
}
