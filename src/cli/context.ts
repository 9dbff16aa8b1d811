// What every CLI command needs: the vault, the agent, the project, stdin, and
// a place to write. Kept apart from the commands so tests can run them in
// process with a fake terminal but the real vault.
import * as path from 'path';
import { usage } from '../core/errors';
import type { Baton } from '../core/baton';
import { parseTime } from '../core/time';
import { safeJson } from '../core/quoted';
import type { Io } from '../app/io';
import { openBaton } from '../app/openBaton';
import { resolveScope } from '../app/scope';
import { resolveVault } from '../app/vaultLocation';

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
    const found = resolveScope({ given: flag, env: this.io.env, folders: [this.io.cwd] });
    if (!found) {
      throw usage(`No project here (${this.io.cwd} is your home folder or the root). Give one with --project NAME or set BATON_PROJECT.`);
    }
    return found.scope;
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
