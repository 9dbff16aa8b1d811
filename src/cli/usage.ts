// The help and every usage line, made from the declarations in commands.ts,
// so what `baton --help` says and what the parser takes cannot drift apart.
// The README's CLI block is this text too (test/unit/cliHelp.test.ts).
import { HELP_FLAG, type CommandSpec, type Flag } from './args';
import { COMMANDS, type CommandName } from './commands';

const WIDTH = 100;
/** The column a command's line of `baton --help` says what it does at. */
const ABOUT_AT = 37;

const VAULT = 'the vault, anywhere on the line (else BATON_VAULT, LOGOS_VAULT, BRAIN_VAULT, else ~/baton)';

function flagUnit(name: string, f: Flag): string {
  const unit = f.type === 'boolean' ? `--${name}` : `--${name} ${f.value ?? 'VALUE'}`;
  return `${f.required ? unit : `[${unit}]`}${f.multiple ? '...' : ''}`;
}

/** The usage's pieces after the command's name: its positionals, then each flag it shows. */
function units(spec: CommandSpec): string[] {
  const flags = Object.entries(spec.flags).filter(([, f]) => !f.hidden);
  return [...(spec.args ? [spec.args] : []), ...flags.map(([name, f]) => flagUnit(name, f))];
}

/** Joins pieces into lines of at most WIDTH columns, a piece never split; later lines start at `indent`. */
function wrap(first: string, pieces: string[], indent: number): string[] {
  const lines: string[] = [];
  let line = first;
  for (const p of pieces) {
    if (line.trim() && line.length + 1 + p.length > WIDTH) {
      lines.push(line);
      line = ' '.repeat(indent) + p;
    } else line = line.endsWith(' ') || !line ? line + p : `${line} ${p}`;
  }
  lines.push(line);
  return lines;
}

/** `Usage: baton NAME …` on one line, as a usage error ends. */
export function usageLine(name: CommandName): string {
  return [`Usage: baton ${name}`, ...units(COMMANDS[name])].join(' ');
}

/** `baton --help`: the global flags and every command with its usage. */
export function helpText(): string {
  const lines = [
    'baton — agent session continuity',
    '',
    'Usage: baton [--vault DIR] [--version] COMMAND ...',
    '  (vault: --vault, else BATON_VAULT, LOGOS_VAULT, BRAIN_VAULT, else ~/baton;',
    '   agent: --agent, else BATON_AGENT, else "cli";',
    '   project: --project or the positional PROJECT, else BATON_PROJECT,',
    '   else the project name of the current folder)',
    '',
  ];
  for (const [name, spec] of Object.entries(COMMANDS) as [CommandName, CommandSpec][]) {
    const usage = wrap(`  ${name}`, units(spec), 4 + name.length);
    const last = usage[usage.length - 1];
    if (last.length < ABOUT_AT - 1) usage[usage.length - 1] = last.padEnd(ABOUT_AT) + spec.about;
    else usage.push(' '.repeat(ABOUT_AT) + spec.about);
    lines.push(...usage);
  }
  lines.push('', 'TIME is RFC 3339 or unix seconds. Exit 0 on success, 1 when refused or failed, 2 on a usage error.');
  lines.push('Run baton COMMAND --help for what each of its flags does.');
  return lines.join('\n') + '\n';
}

/** `baton NAME --help`: its usage, what it does, and each flag it takes. */
export function commandHelp(name: CommandName): string {
  const spec: CommandSpec = COMMANDS[name];
  const lines = wrap(`Usage: baton ${name}`, units(spec), 14 + name.length);
  lines.push('', spec.about.charAt(0).toUpperCase() + spec.about.slice(1) + '.', ...(spec.notes ?? []), '');
  const rows: [string, string][] = Object.entries<Flag>({ ...spec.flags, ...HELP_FLAG })
    .filter(([, f]) => !f.hidden)
    .map(([flag, f]) => [`${f.short ? `-${f.short}, ` : '    '}--${flag}${f.type === 'string' ? ` ${f.value ?? 'VALUE'}` : ''}`, f.help]);
  rows.push(['    --vault DIR', VAULT]);
  const at = Math.max(...rows.map(([left]) => left.length)) + 2;
  lines.push('Flags:', ...rows.map(([left, help]) => `  ${left.padEnd(at)}${help}`));
  return lines.join('\n') + '\n';
}
