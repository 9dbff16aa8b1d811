// What every CLI command needs: the vault, the agent, the project, stdin, and
// a place to write. Kept apart from the commands so tests can run them in
// process with a fake terminal but the real vault.
import * as path from 'path';
import { BatonError, usage } from '../core/errors';
import { safeScope } from '../core/names';
import { openBaton } from '../adapters/openBaton';
import { resolveVault } from '../adapters/vaultLocation';
import { projectNameOf } from '../adapters/git/projectName';
import type { Baton } from '../core/baton';
import { parseTime } from '../core/time';
import { safeJson } from '../core/quoted';

export interface Io {
  cwd: string;
  env: NodeJS.ProcessEnv;
  out(text: string): void;
  err(text: string): void;
  /** Resolves to stdin's text when it is piped, "" when it is a terminal or empty. */
  stdin(): Promise<string>;
}

export class Context {
  private baton?: Baton;
  readonly vault: string;

  constructor(
    readonly io: Io,
    vaultFlag: string | undefined,
  ) {
    this.vault = resolveVault(vaultFlag, io.env);
  }

  core(): Baton {
    this.baton ??= openBaton(this.vault);
    return this.baton;
  }

  agent(flag: string | undefined): string {
    return flag?.trim() || this.io.env.BATON_AGENT?.trim() || 'cli';
  }

  /** --project or positional, else BATON_PROJECT, else the project of the current folder. */
  project(flag: string | undefined): string {
    const given = flag?.trim() || this.io.env.BATON_PROJECT?.trim();
    if (given) return safeScope(given);
    const found = projectNameOf(this.io.cwd);
    if (!found) {
      throw usage(`No project here (${this.io.cwd} is your home folder or the root). Give one with --project NAME or set BATON_PROJECT.`);
    }
    return safeScope(found.worktree ? `${found.project}/${found.worktree}` : found.project);
  }

  time(flag: string | undefined): number | undefined {
    return flag === undefined ? undefined : parseTime(flag);
  }

  json(value: unknown): void {
    this.io.out(safeJson(value, 2) + '\n');
  }

  rel(p: string): string {
    return path.relative(this.io.cwd, p) || p;
  }
}

export { BatonError };
