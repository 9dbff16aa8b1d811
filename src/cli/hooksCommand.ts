// `baton hooks install|uninstall AGENT [--user]`: puts Baton's hooks into the
// project's (or, with --user, the person's) settings of Claude Code, Codex or
// Cursor, and takes them out again.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { usage } from '../core/errors';
import { AGENTS, installHooks, parseAgent, uninstallHooks, type InstallResult } from '../app/hooksInstall';
import { parse, str } from './args';
import type { Context } from './context';

const HELP = 'install|uninstall claude-code|codex|cursor [--user] [--dir DIR] [--command CMD] [--json]';

/** The repository root above `dir` (where agents look for project settings), else `dir` itself. */
function projectRoot(dir: string): string {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    if (fs.existsSync(path.join(d, '.git'))) return d;
    if (path.dirname(d) === d) return path.resolve(dir);
  }
}

function homeOf(env: NodeJS.ProcessEnv): string {
  return env.HOME?.trim() || env.USERPROFILE?.trim() || os.homedir();
}

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
  // --dir is taken as given; otherwise the repository root, where the agent looks for project settings.
  const base = values.user ? homeOf(ctx.io.env) : dir ? path.resolve(ctx.io.cwd, dir) : projectRoot(ctx.io.cwd);
  const command = str(values.command)?.trim() || 'baton';
  const r: InstallResult = action === 'install' ? installHooks(agent, base, command) : uninstallHooks(agent, base);
  if (values.json) {
    ctx.json(r);
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
  ctx.io.out(said[r.outcome] + (action === 'install' && r.note ? `\n${r.note}` : '') + '\n');
  return 0;
}
