// Running a claim's recorded command again (`baton verify --run`, issue 26):
// in the project's folder, through the person's shell, its output kept to a
// tail for the report. The exit status is what the evidence records.
import { spawn } from 'child_process';

const TAIL = 2000;

export function runShell(command: string, cwd: string): Promise<{ exit: number; durationMs: number; tail: string }> {
  const started = Date.now();
  return new Promise((resolve) => {
    let tail = '';
    const keep = (b: Buffer): void => {
      tail = (tail + b.toString('utf8')).slice(-TAIL);
    };
    const child = spawn(process.env.SHELL || '/bin/sh', ['-c', command], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (err) => resolve({ exit: 127, durationMs: Date.now() - started, tail: err.message }));
    child.on('close', (code, signal) => resolve({ exit: code ?? (signal ? 128 : 1), durationMs: Date.now() - started, tail }));
  });
}
