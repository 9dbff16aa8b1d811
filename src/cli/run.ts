// The `baton` command line: the public contract agents' hooks and tests use.
// Exit 0 on success, 1 when refused or failed, 2 on a usage error; every
// error message says what was wrong and what to do.
import { BatonError } from '../core/errors';
import type { Io } from '../app/io';
import { findVaultFlag, vaultFlagAt } from '../app/vaultLocation';
import { VERSION } from '../app/version';
import { basicMemoryDir } from '../app/why';
import { parse, str } from './args';
import { COMMANDS, isCommand, type CommandInput, type CommandName } from './commands';
import { Context } from './context';
import * as read from './readCommands';
import { commandHelp, helpText, usageLine } from './usage';
import * as write from './writeCommands';

type Handler<N extends CommandName> = (ctx: Context, input: CommandInput<N>) => Promise<number>;
/** A handler for every command declared in commands.ts and for nothing else: the compiler holds the two lists together. */
export type Handlers = { [N in CommandName]: Handler<N> };

/**
 * The other doors the `baton` process opens: `baton mcp` serves the MCP door
 * and `baton hook` is the hooks' door. src/cli.ts hands them in, so the CLI
 * parses their command lines without importing another door.
 */
export interface OtherDoors {
  mcp(call: { vaultRoot: string; io: Io; basicMemoryDir?: string }): Promise<number>;
  hook(call: { vault: string; io: Io }, args: string[]): Promise<number>;
}

/** What each command runs; exported so a test can hold `baton --help` to the commands dispatched. */
export function handlers(doors: Partial<OtherDoors>): Handlers {
  const open = <K extends keyof OtherDoors>(name: K): OtherDoors[K] => {
    const door = doors[name];
    if (!door) throw new BatonError('usage', `Unknown command "${name}". Run baton --help for the list.`);
    return door;
  };
  return {
    note: write.note,
    checkpoint: write.checkpoint,
    handoff: write.handoff,
    plan: write.plan,
    resume: read.resume,
    sessions: read.sessions,
    plans: read.plans,
    continuity: read.continuity,
    why: read.why,
    search: (ctx, input) => import('./searchCommand').then((m) => m.search(ctx, input)),
    index: read.index,
    'project-name': read.projectName,
    // Loaded on use: the old hooks alias, the stats, connect and the rest cost nothing to other commands.
    hooks: (ctx, input) => import('./hooksCommand').then((m) => m.hooks(ctx, input)),
    stats: (ctx, input) => import('./statsCommand').then((m) => m.stats(ctx, input)),
    verify: (ctx, input) => import('./verifyCommand').then((m) => m.verify(ctx, input)),
    import: (ctx, input) => import('./importCommand').then((m) => m.importPast(ctx, input)),
    connect: (ctx, input) => import('./connectCommand').then((m) => m.connect(ctx, input)),
    disconnect: (ctx, input) => import('./connectCommand').then((m) => m.disconnect(ctx, input)),
    doctor: (ctx, input) => import('./doctorCommand').then((m) => m.doctor(ctx, input)),
    sync: (ctx, input) => import('./syncCommand').then((m) => m.sync(ctx, input)),
    thread: (ctx, input) => import('./threadCommand').then((m) => m.thread(ctx, input)),
    blame: (ctx, input) => import('./blameCommand').then((m) => m.blame(ctx, input)),
    mcp: (ctx, { values }) => open('mcp')({ vaultRoot: ctx.vault, io: ctx.io, basicMemoryDir: basicMemoryDir(str(values['basic-memory']), ctx.io.env) }),
    hook: (ctx, { positionals }) => open('hook')({ vault: ctx.vault, io: ctx.io }, positionals),
    help: async (ctx, { positionals }) => {
      const [name, ...more] = positionals;
      if (more.length) throw new BatonError('usage', `One command at a time; got ${positionals.join(', ')}.\n${usageLine('help')}`);
      if (name !== undefined && !isCommand(name)) throw new BatonError('usage', `Unknown command "${name}". Run baton --help for the list.`);
      ctx.io.out(name === undefined ? helpText() : commandHelp(name));
      return 0;
    },
  };
}

/** The text `baton --help` prints. */
export const HELP = helpText();

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
    if (!name) {
      io.out(HELP);
      return g.help ? 0 : 2;
    }
    if (!isCommand(name)) {
      // `baton --help WHATEVER` has always printed the list.
      if (g.help) {
        io.out(HELP);
        return 0;
      }
      throw new BatonError('usage', `Unknown command "${name}". Run baton --help for the list.`);
    }
    // `baton --help CMD` asks for the command's help, as `baton CMD --help` does.
    if (g.help) args.unshift('--help');
    // A --vault given after the command is honoured too: agents put flags anywhere.
    const at = findVaultFlag(args);
    let vault = g.vault;
    if (at >= 0) {
      const flag = vaultFlagAt(args, at);
      vault = flag?.vault;
      args.splice(at, flag?.width ?? 1);
    }
    const input = parse(COMMANDS[name], args, usageLine(name));
    if (input.help) {
      io.out(commandHelp(name));
      return 0;
    }
    const handler = handlers(doors)[name] as Handler<CommandName>;
    return await handler(new Context(io, vault), input);
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
