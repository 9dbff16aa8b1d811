// `baton hooks install|uninstall AGENT [--user] [--dir DIR]`, the command
// before `baton connect` existed, kept as its alias so the scripts and notes
// that call it keep working: install is `baton connect AGENT`, uninstall
// `baton disconnect AGENT`, in the project's files (the old default) or, with
// --user, the person's. Connect finds and replaces the bare `baton hook …`
// entries the old command wrote, and disconnect removes them
// (adapters/agents/batonCommand.ts isOurHook), so nobody is left with a second
// set or with entries nothing removes. What the alias cannot keep is said, not
// guessed: --command is gone (connect writes the launcher or `baton`).
import * as path from 'path';
import { usage } from '../core/errors';
import { oldHookBackups } from '../app/oldHookBackups';
import { homeOf } from '../app/projectDir';
import { str } from './args';
import type { CommandInput } from './commands';
import type { Context } from './context';
import { runConnect } from './connectCommand';
import { usageLine } from './usage';

export async function hooks(ctx: Context, { values, positionals }: CommandInput<'hooks'>): Promise<number> {
  const [action, agent, ...more] = positionals;
  if (action !== 'install' && action !== 'uninstall') {
    throw usage(
      `${usageLine('hooks')}   (now: baton connect|disconnect AGENT [--scope user|project])\n\`baton connect AGENT\` registers Baton's MCP server and hooks; \`baton disconnect AGENT\` takes them out.`,
    );
  }
  const now = action === 'install' ? 'connect' : 'disconnect';
  if (more.length) throw usage(`One agent at a time; got ${[agent, ...more].join(', ')}.\nUsage: baton ${now} AGENT`);
  if (values.command !== undefined) {
    throw usage(
      `--command is gone: \`baton hooks\` is now \`baton ${now}\`, which writes the path of Baton's stable launcher (or \`baton\` in a project's files). ` +
        `Run: baton ${now} ${agent ?? 'AGENT'}${values.user ? '' : ' --scope project'}`,
    );
  }
  const dir = str(values.dir);
  if (values.user && dir) throw usage('Give --user or --dir, not both.');
  const scope = values.user ? 'user' : 'project';
  const cwd = dir ? path.resolve(ctx.io.cwd, dir) : ctx.io.cwd;
  // stderr: with --json, stdout keeps connect's JSON for the scripts that parse it.
  ctx.io.err(
    `Note: \`baton hooks ${action}\` is now \`baton ${now} ${agent ?? 'AGENT'} --scope ${scope}\`` +
      (action === 'install' ? ", which registers Baton's MCP server with the agent as well as its hooks.\n" : ', which removes the MCP server it registered too.\n'),
  );
  const code = await runConnect(ctx, { action: now, agent, scope, cwd, dryRun: false, json: values.json === true });
  if (action === 'uninstall') {
    const base = values.user ? homeOf(ctx.io.env) : cwd;
    for (const f of oldHookBackups(base))
      ctx.io.err(`Note: ${ctx.rel(f)} is the copy \`baton hooks install\` kept of that file before its first change; nothing uses it now, delete it when you like.\n`);
  }
  return code;
}
