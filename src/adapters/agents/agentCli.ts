// Running an agent's own CLI where a file belongs to the agent (Claude Code's
// ~/.claude.json, written by `claude mcp add-json`): found on PATH as a shell
// would find it, run without a shell (the JSON argument needs no quoting),
// with the HOME connect planned for, so the file it writes is the one planned
// from and the one doctor reads.
import { execFile } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

export interface AgentStep {
  /** The program, as on PATH (`claude`). */
  program: string;
  argv: string[];
  cwd: string;
  /** Variables set (a string) or unset (null) for this command over the door's environment: the agent's own folder (CLAUDE_CONFIG_DIR). */
  env: Record<string, string | null>;
  /** The command as a person would type it in a POSIX shell. */
  text: string;
}

/** The environment a step runs in: `base`, with HOME the plan's and the step's own variables set or unset. */
export function stepEnv(base: NodeJS.ProcessEnv, home: string, step: AgentStep): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base, HOME: home };
  for (const [k, v] of Object.entries(step.env)) {
    if (v === null) delete env[k];
    else env[k] = v;
  }
  return env;
}

/** The absolute path a shell with this PATH would run for `program`, or null. */
export function findOnPath(program: string, pathEnv: string, platform: NodeJS.Platform = process.platform): string | null {
  const names = platform === 'win32' ? [`${program}.exe`, program] : [program];
  for (const dir of pathEnv.split(path.delimiter).filter(Boolean)) {
    for (const n of names) {
      const file = path.join(dir, n);
      try {
        fs.accessSync(file, fs.constants.X_OK);
        if (fs.statSync(file).isFile()) return file;
      } catch {
        // not here: the next folder
      }
    }
  }
  return null;
}

export interface StepRun {
  ok: boolean;
  /** What it printed, stdout then stderr, trimmed: its own words for a failure. */
  output: string;
}

/**
 * Runs one step to its end (a minute at most: `claude mcp` takes about two
 * seconds), without blocking: the editor runs it on its extension host, where
 * two seconds of a synchronous child would freeze every extension.
 */
export function runStep(bin: string, step: AgentStep, env: NodeJS.ProcessEnv): Promise<StepRun> {
  return new Promise((resolve) => {
    const child = execFile(bin, step.argv, { cwd: step.cwd, env, encoding: 'utf8', timeout: 60_000 }, (err, stdout, stderr) => {
      const output = `${stdout ?? ''}${stderr ?? ''}`.trim() || (err ? err.message : '');
      resolve({ ok: !err, output });
    });
    child.stdin?.end();
  });
}
