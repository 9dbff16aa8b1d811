// Runs the real built CLI as a separate process, as agents' hooks do.
import { execFileSync, spawn } from 'child_process';
import * as path from 'path';

export const ROOT = path.resolve(__dirname, '../../..');
export const CLI = path.join(ROOT, 'dist', 'cli.js');

let built = false;
/** Builds dist/ once per test run so the process tests exercise the shipped bundle. */
export function ensureBuilt(): void {
  if (built) return;
  execFileSync(process.execPath, [path.join(ROOT, 'esbuild.js')], { cwd: ROOT, stdio: 'inherit' });
  built = true;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  vault: string;
  cwd?: string;
  input?: string;
  env?: NodeJS.ProcessEnv;
}

export function cli(args: string[], opts: CliOptions): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: opts.cwd ?? opts.vault,
      env: { ...process.env, BATON_AGENT: '', BATON_PROJECT: '', ...opts.env, BATON_VAULT: opts.vault },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(opts.input ?? '');
  });
}
