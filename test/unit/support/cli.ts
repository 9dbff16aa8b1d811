// Runs the real built CLI as a separate process, as agents' hooks do.
import { execFileSync } from 'child_process';
import * as path from 'path';
import { spawnCli } from '../../support/spawnCli';

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

export async function cli(args: string[], opts: CliOptions): Promise<CliResult> {
  const r = await spawnCli(CLI, args, { ...opts, cwd: opts.cwd ?? opts.vault });
  return { code: r.code ?? -1, stdout: r.stdout, stderr: r.stderr };
}
