// The `baton` command line: the public contract agents' hooks and tests use.
// Exit 0 on success, 1 when refused or failed, 2 on a usage error; every
// error message says what was wrong and what to do.
import { BatonError } from '../core/errors';
import type { Io } from '../app/io';
import { findVaultFlag, vaultFlagAt } from '../app/vaultLocation';
import { VERSION } from '../app/version';
import { basicMemoryDir } from '../app/why';
import { parse, str } from './args';
import { Context } from './context';
import * as read from './readCommands';
import * as write from './writeCommands';

type Command = (ctx: Context, args: string[]) => Promise<number>;

/**
 * The other doors the `baton` process opens: `baton mcp` serves the MCP door
 * and `baton hook` is the hooks' door. src/cli.ts hands them in, so the CLI
 * parses their command lines without importing another door.
 */
export interface OtherDoors {
  mcp(call: { vaultRoot: string; io: Io; basicMemoryDir?: string }): Promise<number>;
  hook(call: { vault: string; io: Io }, args: string[]): Promise<number>;
}

const COMMANDS: Record<string, Command> = {
  note: write.note,
  checkpoint: write.checkpoint,
  handoff: write.handoff,
  plan: write.plan,
  resume: read.resume,
  sessions: read.sessions,
  plans: read.plans,
  continuity: read.continuity,
  why: read.why,
  search: (ctx, args) => import('./searchCommand').then((m) => m.search(ctx, args)),
  index: read.index,
  'project-name': read.projectName,
  // Loaded on use: the old hooks alias and the stats cost nothing to other commands.
  hooks: (ctx, args) => import('./hooksCommand').then((m) => m.hooks(ctx, args)),
  stats: (ctx, args) => import('./statsCommand').then((m) => m.stats(ctx, args)),
  connect: (ctx, args) => import('./connectCommand').then((m) => m.connect(ctx, args)),
  disconnect: (ctx, args) => import('./connectCommand').then((m) => m.disconnect(ctx, args)),
  doctor: (ctx, args) => import('./doctorCommand').then((m) => m.doctor(ctx, args)),
  sync: (ctx, args) => import('./syncCommand').then((m) => m.sync(ctx, args)),
  blame: (ctx, args) => import('./blameCommand').then((m) => m.blame(ctx, args)),
};

function doorCommands(doors: Partial<OtherDoors>): Record<string, Command> {
  const open = <K extends keyof OtherDoors>(name: K): OtherDoors[K] => {
    const door = doors[name];
    if (!door) throw new BatonError('usage', `Unknown command "${name}". Run baton --help for the list.`);
    return door;
  };
  return {
    mcp: (ctx, args) => {
      const { values } = parse('mcp', args, { 'basic-memory': { type: 'string' } }, '[--basic-memory DIR]');
      return open('mcp')({ vaultRoot: ctx.vault, io: ctx.io, basicMemoryDir: basicMemoryDir(str(values['basic-memory']), ctx.io.env) });
    },
    hook: (ctx, args) => open('hook')({ vault: ctx.vault, io: ctx.io }, args),
  };
}

export const HELP = `baton — agent session continuity

Usage: baton [--vault DIR] [--version] COMMAND ...
  (vault: --vault, else BATON_VAULT, LOGOS_VAULT, BRAIN_VAULT, else ~/baton;
   agent: --agent, else BATON_AGENT, else "cli";
   project: --project or the positional PROJECT, else BATON_PROJECT,
   else the project name of the current folder)

  note [--project P] [--agent A] [--at TIME] TEXT...
  checkpoint [--task T] [--intent I] [--state S] [--next N] [--decided D]...
             [--failed F]... [--verified V]... [--blocker B]... [--ran CMD]...
             [--question Q]... [--file PATH]... [--handoff WHO] [--json]
             (markdown on stdin fills the fields the flags leave empty)
  handoff --to WHO [the checkpoint flags]
  resume [PROJECT] [--json]
  sessions [PROJECT] [--json]        sessions PROJECT --close ID [--json]
  plan [--project P] [--agent A] [--at TIME]   (plan text on stdin)
  plans [PROJECT] [--json]
  continuity [--json]
  why PATH [--limit N] [--json]
  search QUERY... [--project P] [--kind checkpoint|note|plan] [--agent A] [--since TIME] [--limit N] [--json]
                                     full text, best first (a project includes its worktrees)
  blame FILE [--json]                which checkpointed session wrote each line (run inside the repository)
  index [--json]
  project-name [DIR]
  stats [PROJECT] [--json]           sessions open/resumed/closed/auto-closed/abandoned
  mcp [--basic-memory DIR]           the MCP server on stdio
  hook claude-code|codex|cursor session-start|pre-compact|post-tool-use|session-end
                                     (an agent hook; payload JSON on stdin; always exits 0)
  connect AGENT [--scope user|project|local] [--dry-run] [--json]
                                     Baton's MCP server and hooks into the agent's own files
                                     (AGENT: claude-code, codex, cursor, gemini, copilot; user scope by default)
  disconnect AGENT [--scope user|project|local] [--dry-run] [--json]
  doctor [--json]                    the vault, the launcher, each agent; exit 1 when something needs fixing
  sync [--json]                      commit the vault, merge the remote's, push (the vault is a git repository)
  sync --init [--remote URL]         share this vault: git init, .gitignore/.gitattributes, the remote
  sync --clone URL                   join a shared vault: clone it into the (empty) vault folder
  hooks install|uninstall AGENT [--user] [--dir DIR]
                                     (the old name of connect|disconnect, project scope unless --user)

TIME is RFC 3339 or unix seconds.
`;

/** Splits the global flags (before the command) from the command and its own flags. */
function globals(argv: string[]): { vault?: string; version: boolean; help: boolean; rest: string[] } {
  let vault: string | undefined;
  let i = 0;
  let version = false;
  let help = false;
  for (; i < argv.length; i++) {
    const a = argv[i];
    const flag = vaultFlagAt(argv, i);
    if (flag) {
      vault = flag.vault;
      if (vault === undefined) throw new BatonError('usage', '--vault needs a folder: baton --vault DIR COMMAND ...');
      i += flag.width - 1;
    } else if (a === '--version' || a === '-v') version = true;
    else if (a === '--help' || a === '-h') help = true;
    else break;
  }
  return { vault, version, help, rest: argv.slice(i) };
}

export async function run(argv: string[], io: Io, doors: Partial<OtherDoors> = {}): Promise<number> {
  try {
    const g = globals(argv);
    if (g.version) {
      io.out(`${VERSION}\n`);
      return 0;
    }
    const [name, ...args] = g.rest;
    if (g.help || !name || name === 'help') {
      io.out(HELP);
      return name || g.help ? 0 : 2;
    }
    const command = COMMANDS[name] ?? doorCommands(doors)[name];
    if (!command) throw new BatonError('usage', `Unknown command "${name}". Run baton --help for the list.`);
    // A --vault given after the command is honoured too: agents put flags anywhere.
    const at = findVaultFlag(args);
    let vault = g.vault;
    if (at >= 0) {
      const flag = vaultFlagAt(args, at);
      vault = flag?.vault;
      args.splice(at, flag?.width ?? 1);
    }
    return await command(new Context(io, vault), args);
  } catch (err) {
    if (err instanceof BatonError) {
      io.err(`baton: ${err.message}\n`);
      return err.kind === 'usage' ? 2 : 1;
    }
    // A file-system error no adapter put into words (a folder deleted by hand
    // mid-write): what and where, not a stack trace.
    const code = (err as NodeJS.ErrnoException)?.code;
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) {
      io.err(`baton: ${(err as Error).message}. The command did not complete (exit 1); retry.\n`);
      return 1;
    }
    io.err(`baton: ${(err as Error)?.stack ?? String(err)}\n`);
    return 1;
  }
}
