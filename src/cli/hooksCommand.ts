// `baton hooks install|uninstall AGENT [--user]`: puts Baton's hooks into the
// project's (or, with --user, the person's) settings of Claude Code, Codex or
// Cursor, and takes them out again. Superseded by `baton connect AGENT`
// (which registers the MCP server too, for five agents, through the stable
// launcher); kept working for the scripts and docs that call it.
import { usage } from '../core/errors';
import { AGENTS, hooksBase, installHooks, parseAgent, uninstallHooks, type InstallResult } from '../app/hooksInstall';
import { parse, str } from './args';
import type { Context } from './context';

const HELP = 'install|uninstall claude-code|codex|cursor [--user] [--dir DIR] [--command CMD] [--json]';

const SUPERSEDED =
  "Note: `baton hooks` is superseded by `baton connect AGENT` (and `baton disconnect AGENT`), which also registers Baton's MCP server " +
  'and calls the stable launcher instead of `baton` on PATH.';

export async function hooks(ctx: Context, args: string[]): Promise<number> {
  const { values, positionals } = parse(
    'hooks',
    args,
    { user: { type: 'boolean' }, dir: { type: 'string' }, command: { type: 'string' }, json: { type: 'boolean' } },
    HELP,
  );
  const [action, agentName] = positionals;
  if (action !== 'install' && action !== 'uninstall') throw usage(`Usage: baton hooks ${HELP}`);
  const agent = parseAgent(agentName);
  const dir = str(values.dir);
  if (values.user && dir) throw usage('Give --user or --dir, not both.');
  const base = hooksBase({ user: values.user === true, dir, cwd: ctx.io.cwd, env: ctx.io.env });
  const command = str(values.command)?.trim() || 'baton';
  const r: InstallResult = action === 'install' ? installHooks(agent, base, command) : uninstallHooks(agent, base);
  if (values.json) {
    ctx.json(r);
    // stderr: the JSON on stdout keeps its shape for the scripts that parse it.
    ctx.io.err(`${SUPERSEDED}\n`);
    return 0;
  }
  const label = AGENTS[agent].label;
  const where = ctx.rel(r.file);
  const said: Record<InstallResult['outcome'], string> = {
    installed: `Installed Baton's ${label} hooks in ${where}${r.backup ? ` (the file as it was: ${ctx.rel(r.backup)})` : ''}.`,
    unchanged: action === 'install' ? `Baton's ${label} hooks are already in ${where}; nothing changed.` : `No Baton hooks in ${where}; nothing changed.`,
    restored: `Removed Baton's ${label} hooks: ${where} is back to exactly what it was before.`,
    removed: `Removed Baton's ${label} hooks and ${where}, which held nothing else.`,
    written: `Removed Baton's ${label} hooks from ${where}; everything else in it is kept.`,
    absent: `There is no ${where}; nothing to remove.`,
  };
  ctx.io.out(said[r.outcome] + (action === 'install' && r.note ? `\n${r.note}` : '') + `\n${SUPERSEDED}\n`);
  return 0;
}
