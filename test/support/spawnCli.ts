// The built CLI run as agents' hooks run it: a process of its own, told the
// vault by BATON_VAULT and nothing else of Baton's by the shell running the
// tests (an outer BATON_AGENT or BATON_PROJECT would change what it records,
// an outer CLAUDE_CONFIG_DIR where connect writes).
// Shared by the unit, chaos and integration tiers, so it imports no more than Node.
import { spawn, type ChildProcess } from 'child_process';

export interface SpawnCliOptions {
  vault: string;
  cwd: string;
  input?: string;
  /** Over the inherited environment; BATON_VAULT is always the vault. */
  env?: NodeJS.ProcessEnv;
  uid?: number;
  gid?: number;
  /** Run under this umask (through /bin/sh). */
  umask?: number;
  /** Sees the process once spawned, to kill it on the caller's terms. */
  onSpawn?: (child: ChildProcess) => void;
}

export interface CliExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  pid: number;
}

/** Runs `node CLI ARGS` with `input` on stdin; resolves once it has exited and its output is read. */
export function spawnCli(cli: string, args: string[], opts: SpawnCliOptions): Promise<CliExit> {
  return new Promise((resolve, reject) => {
    const [cmd, argv] =
      opts.umask === undefined
        ? [process.execPath, [cli, ...args]]
        : ['/bin/sh', ['-c', `umask ${opts.umask.toString(8).padStart(3, '0')} && exec "$0" "$@"`, process.execPath, cli, ...args]];
    const child = spawn(cmd, argv, {
      cwd: opts.cwd,
      // CLAUDE_CONFIG_DIR too: a tester's own would move a test's Claude Code files out of its HOME, into the tester's.
      env: { ...process.env, BATON_AGENT: '', BATON_PROJECT: '', CLAUDE_CONFIG_DIR: '', ...opts.env, BATON_VAULT: opts.vault },
      stdio: ['pipe', 'pipe', 'pipe'],
      uid: opts.uid,
      gid: opts.gid,
    });
    opts.onSpawn?.(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.stdin.on('error', () => undefined); // gone before it read stdin: its exit says why
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr, pid: child.pid ?? -1 }));
    child.stdin.end(opts.input ?? '');
  });
}
