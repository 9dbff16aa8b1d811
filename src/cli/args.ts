// A command's flags as declared once (commands.ts), parsed by node:util's
// parseArgs, and the values typed from the same declaration: a handler cannot
// read a flag its command does not declare, and the help shows what is parsed.
import { parseArgs, type ParseArgsConfig } from 'util';
import { usage } from '../core/errors';

export interface Flag {
  type: 'string' | 'boolean';
  short?: string;
  multiple?: boolean;
  /** The value's name in the usage: `--project P`. */
  value?: string;
  help: string;
  /** Shown without brackets: the command refuses to run without it (the handler checks). */
  required?: boolean;
  /** Parsed but not shown: an alias the usage already says another way, or a flag kept only to explain that it is gone. */
  hidden?: boolean;
}

export type Flags = Readonly<Record<string, Flag>>;

export interface CommandSpec {
  /** The positionals, as the usage shows them. */
  args?: string;
  flags: Flags;
  /** What it does, in a line. */
  about: string;
  /** Lines the command's own help shows under its usage. */
  notes?: readonly string[];
  /** The door behind it reads its own arguments: only --help is looked for. */
  raw?: boolean;
}

type ValueOf<F extends Flag> = F['type'] extends 'boolean' ? boolean : F['multiple'] extends true ? string[] : string;
export type Values<F extends Flags> = { [K in keyof F]?: ValueOf<F[K]> };

export interface Input<F extends Flags> {
  values: Values<F>;
  positionals: string[];
}

/** `--help` and `-h`, which every command takes. */
export const HELP_FLAG = { help: { type: 'boolean', short: 'h', help: 'this help' } } as const satisfies Flags;

function config(flags: Flags): NonNullable<ParseArgsConfig['options']> {
  const out: NonNullable<ParseArgsConfig['options']> = {};
  // parseArgs refuses a key whose value is undefined: only what is set goes in.
  for (const [name, f] of Object.entries<Flag>({ ...flags, ...HELP_FLAG })) {
    out[name] = { type: f.type, ...(f.short ? { short: f.short } : {}), ...(f.multiple ? { multiple: true } : {}) };
  }
  return out;
}

/**
 * The command's arguments against its flags; a flag it does not declare, or
 * one missing its value, is a usage error (exit 2) that names the flag and
 * shows the command's usage. `help` is true for --help or -h (before any `--`).
 */
export function parse<F extends Flags>(spec: CommandSpec & { flags: F }, args: string[], usageLine: string): Input<F> & { help: boolean } {
  if (spec.raw) {
    const end = args.indexOf('--');
    const help = (end < 0 ? args : args.slice(0, end)).some((a) => a === '--help' || a === '-h');
    return { values: {}, positionals: args, help };
  }
  try {
    const { values, positionals } = parseArgs({ args, options: config(spec.flags), allowPositionals: true, strict: true });
    const { help, ...rest } = values as Record<string, unknown>;
    return { values: rest as Values<F>, positionals, help: help === true };
  } catch (err) {
    throw usage(`${(err as Error).message.replace(/\. To specify a positional.*$/s, '')}\n${usageLine}`);
  }
}

export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
