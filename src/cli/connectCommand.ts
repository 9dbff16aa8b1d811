// `baton connect AGENT` and `baton disconnect AGENT`: Baton's MCP server and
// hooks into (or out of) the agent's own files, for the vault this command
// resolved (--vault, BATON_VAULT, the default), which the written configs name
// so the agent needs no BATON_VAULT of its own.
import * as path from 'path';
import { usage } from '../core/errors';
import { connectAgent, type ConnectOutcome } from '../app/connectAgent';
import type { ConnectAction, LauncherTarget } from '../app/connect';
import { homeOf } from '../app/projectDir';
import { str } from './args';
import type { CommandInput } from './commands';
import type { Context } from './context';
import { lineDiff } from './lineDiff';
import { usageLine } from './usage';

/**
 * The runtime and script of this CLI when it runs from its bundles: the
 * commands live in dist/run.js beside dist/cli.js, the entry point (esbuild.js
 * splits them so a hook compiles little), and the entry is the script.
 * From the sources (tests under tsx) there is no script to point a launcher at.
 */
function selfTarget(): LauncherTarget | null {
  const own = path.basename(__filename);
  if (own !== 'run.js' && own !== 'cli.js') return null;
  return { runtime: process.execPath, script: path.join(__dirname, 'cli.js'), electron: typeof process.versions.electron === 'string' };
}

/** What `baton connect` and `baton disconnect` take once their flags are read. */
export interface ConnectCall {
  action: ConnectAction;
  agent: string | undefined;
  scope: string | undefined;
  /** The folder whose project a project or local scope writes into. */
  cwd: string;
  dryRun: boolean;
  json: boolean;
}

/** Runs connect or disconnect and prints its outcome: JSON, or a line per file. Shared with the `baton hooks` alias. */
export async function runConnect(ctx: Context, call: ConnectCall): Promise<number> {
  const outcome = await connectAgent({
    action: call.action,
    agent: call.agent,
    scope: call.scope,
    vault: ctx.vault,
    cwd: call.cwd,
    home: homeOf(ctx.io.env),
    dryRun: call.dryRun,
    self: selfTarget(),
    env: ctx.io.env,
  });
  if (call.json) {
    const { agent, scope, dryRun, notes, ran, commands, failures } = outcome;
    ctx.json({ agent, scope, dryRun, files: outcome.files.map((f) => ({ path: f.path, action: f.action })), notes, ran, commands, failures });
  } else ctx.io.out(render(outcome));
  return outcome.failures.length ? 1 : 0;
}

function command(action: ConnectAction) {
  return async (ctx: Context, { values, positionals }: CommandInput<ConnectAction>): Promise<number> => {
    if (positionals.length > 1) throw usage(`One agent at a time; got ${positionals.join(', ')}.\n${usageLine(action)}`);
    return runConnect(ctx, { action, agent: positionals[0], scope: str(values.scope), cwd: ctx.io.cwd, dryRun: values['dry-run'] === true, json: values.json === true });
  };
}

/** Per file `ACTION  PATH` (a dry run says what it would do, with the change as a diff), then notes and commands. */
export function render(o: ConnectOutcome): string {
  const out: string[] = [];
  const would: Record<string, string> = { created: 'would create', updated: 'would update', removed: 'would remove', unchanged: 'unchanged' };
  for (const f of o.files) {
    out.push(`${(o.dryRun ? would[f.action] : f.action).padEnd(o.dryRun ? 13 : 9)}  ${f.path}`);
    if (o.dryRun && f.action !== 'unchanged') {
      const diff = lineDiff(f.before, f.after);
      out.push(
        ...diff
          .replace(/\n$/, '')
          .split('\n')
          .map((l) => `    ${l}`),
      );
    }
  }
  if (o.ran.length) out.push('', o.dryRun ? 'Would run:' : 'Ran:', ...o.ran.map((c) => `  ${c}`));
  if (o.dryRun) out.push('', 'Dry run: nothing was written or run.');
  if (o.notes.length) out.push('', ...o.notes.map((n) => `Note: ${n}`));
  if (o.failures.length) out.push('', ...o.failures.map((f) => `Failed: ${f}`));
  if (o.commands.length) out.push('', o.dryRun ? 'Then run:' : 'Now run:', ...o.commands.map((c) => `  ${c}`));
  return out.join('\n') + '\n';
}

export const connect = command('connect');
export const disconnect = command('disconnect');
