// Flag parsing on node:util's parseArgs, with errors turned into usage errors
// (exit 2) that name the flag and the command's help.
import { parseArgs, type ParseArgsConfig } from 'util';
import { usage } from '../core/errors';

export type Options = NonNullable<ParseArgsConfig['options']>;

export interface Parsed {
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
}

export function parse(command: string, args: string[], options: Options, help: string): Parsed {
  try {
    const { values, positionals } = parseArgs({ args, options, allowPositionals: true, strict: true });
    return { values: values as Parsed['values'], positionals };
  } catch (err) {
    throw usage(`${(err as Error).message.replace(/\. To specify a positional.*$/s, '')}\nUsage: baton ${command} ${help}`);
  }
}

export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
