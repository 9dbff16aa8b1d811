// A surgical editor for one TOML table, `[mcp_servers.baton]` in Codex's
// config.toml. No TOML library on npm that is widely used keeps a file's
// comments and layout when it writes (smol-toml, @iarna/toml and toml
// re-serialise the whole file; the one patching library, @decimalturn/toml-patch,
// has a couple of thousand weekly downloads), so this edits lines: it inserts,
// replaces or removes that table's own lines and leaves every other byte
// alone. smol-toml then parses the result, and the edit is refused unless the
// file still parses and everything but Baton's table reads exactly as before.
import { parse } from 'smol-toml';
import { isDeepStrictEqual } from 'util';
import { refused } from '../../core/errors';

type Table = Record<string, unknown>;

/** Plain data for comparison: smol-toml's tables have no prototype, which deep equality would count. */
const plain = (v: unknown): unknown => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));

export function readToml(text: string, file: string): Table {
  try {
    return parse(text) as Table;
  } catch (err) {
    throw refused(`${file} is not valid TOML (${(err as Error).message.split('\n')[0]}); fix it by hand first, Baton changed nothing.`);
  }
}

/** A TOML basic string. JSON's escapes are TOML's, except that TOML has no `\/` (JSON.stringify never writes it). */
export const tomlString = (s: string): string => JSON.stringify(s);

/** A bare key when it may be one, else quoted. */
const tomlKey = (k: string): string => (/^[A-Za-z0-9_-]+$/.test(k) ? k : tomlString(k));

/** One table's lines: `command`, `args`, and `env` as an inline table, so the whole entry is one block. */
export function renderTable(header: string, value: { command: string; args: string[]; env?: Record<string, string> }, eol: string): string {
  const lines = [`[${header}]`, `command = ${tomlString(value.command)}`, `args = [${value.args.map(tomlString).join(', ')}]`];
  if (value.env && Object.keys(value.env).length > 0) {
    lines.push(
      `env = { ${Object.entries(value.env)
        .map(([k, v]) => `${tomlKey(k)} = ${tomlString(v)}`)
        .join(', ')} }`,
    );
  }
  return lines.join(eol) + eol;
}

/** Header lines (`[a.b]` or `[[a.b]]`) and the dotted key path they open, quotes taken off. */
function headerPath(line: string): string[] | null {
  const m = /^\s*\[{1,2}\s*([^\]]+?)\s*\]{1,2}\s*(?:#.*)?$/.exec(line);
  if (!m) return null;
  return m[1].split('.').map((p) =>
    p
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .replace(/^'(.*)'$/, '$1'),
  );
}

interface Block {
  start: number;
  end: number;
}

/** The lines of `[a.b]` and its sub-tables `[a.b.*]`, up to the next other header; also the blank lines before it. */
function findBlock(lines: string[], key: string[]): (Block & { lead: number }) | null {
  const within = (p: string[] | null): boolean => p !== null && p.length >= key.length && key.every((k, i) => p[i] === k);
  const start = lines.findIndex((l) => {
    const p = headerPath(l);
    return p !== null && p.length === key.length && within(p);
  });
  if (start < 0) return null;
  let end = start + 1;
  while (end < lines.length) {
    const p = headerPath(lines[end]);
    if (p !== null && !within(p)) break;
    end++;
  }
  // Trailing blank lines belong to whatever follows, not to this table.
  while (end > start + 1 && lines[end - 1].trim() === '') end--;
  let lead = start;
  while (lead > 0 && lines[lead - 1].trim() === '') lead--;
  return { start, end, lead };
}

function without(v: Table, key: string[]): Table {
  const copy = structuredClone(v);
  let t: Table | undefined = copy;
  for (const k of key.slice(0, -1)) t = (t?.[k] as Table | undefined) ?? undefined;
  if (t) delete t[key[key.length - 1]];
  // `[mcp_servers]` that held only Baton's table reads as an empty table: not a difference.
  const parent = key.length > 1 ? (key.slice(0, -1).reduce<Table | undefined>((o, k) => o?.[k] as Table | undefined, copy) ?? null) : null;
  if (parent && Object.keys(parent).length === 0) delete copy[key[0]];
  return copy;
}

const get = (v: Table, key: string[]): unknown => key.reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Table)[k] : undefined), v);

/** Checks that only Baton's table differs between two texts, else refuses: the line editor misread the file. */
function checkOnlyOurs(before: string, after: string, key: string[], file: string): void {
  const a = readToml(before, file);
  let b: Table;
  try {
    b = parse(after) as Table;
  } catch {
    throw refused(`${file}: Baton could not edit [${key.join('.')}] without breaking the file; Baton changed nothing. Edit it by hand.`);
  }
  if (!isDeepStrictEqual(plain(without(a, key)), plain(without(b, key)))) {
    throw refused(`${file}: editing [${key.join('.')}] would have changed other settings; Baton changed nothing. Edit it by hand.`);
  }
}

export interface TableEdit {
  key: string[];
  value: { command: string; args: string[]; env?: Record<string, string> };
  isOurs(entry: unknown): boolean;
}

export const hasTable = (text: string, e: TableEdit): boolean => e.isOurs(get(readToml(text, 'the file'), e.key));

/**
 * Baton's table in: replaced where it is, else appended after one blank line.
 * Unchanged when it already reads the same. Refuses a table of that name that
 * is not Baton's, and one defined some other way (dotted keys, inline) that
 * this line editor cannot find.
 */
export function upsertTable(text: string | null, e: TableEdit, file: string): string {
  const base = text ?? '';
  const current = get(readToml(base, file), e.key);
  if (current !== undefined && !e.isOurs(current)) throw refused(`${file}: [${e.key.join('.')}] is not Baton's; Baton changed nothing. Rename it first.`);
  if (text !== null && isDeepStrictEqual(plain(current), plain(e.value))) return text;
  const eol = base.includes('\r\n') ? '\r\n' : '\n';
  const block = renderTable(e.key.map(tomlKey).join('.'), e.value, eol);
  const lines = base.split(/\r?\n/);
  const found = current === undefined ? null : findBlock(lines, e.key);
  if (current !== undefined && !found) throw refused(`${file}: Baton's [${e.key.join('.')}] is written in a form Baton does not edit; change it by hand.`);
  let out: string;
  if (found) {
    const head = lines.slice(0, found.start).join(eol);
    out = (found.start > 0 ? head + eol : '') + block + lines.slice(found.end).join(eol);
  } else if (base.trim() === '') {
    out = block;
  } else {
    out = base + (base.endsWith('\n') ? '' : eol) + eol + block;
  }
  checkOnlyOurs(base, out, e.key, file);
  return out;
}

/** Baton's table out, with the blank lines that set it apart; every other byte as it was. */
export function removeTable(text: string, e: TableEdit, file: string): string {
  if (!hasTable(text, e)) return text;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.split(/\r?\n/);
  const found = findBlock(lines, e.key);
  if (!found) throw refused(`${file}: Baton's [${e.key.join('.')}] is written in a form Baton does not edit; remove it by hand.`);
  const head = lines.slice(0, found.lead);
  const tail = lines.slice(found.end);
  while (tail.length > 0 && tail[0].trim() === '' && tail.some((l) => l.trim() !== '')) tail.shift();
  let out: string;
  if (!tail.some((l) => l.trim() !== '')) out = head.length > 0 ? head.join(eol) + eol : '';
  else out = (head.length > 0 ? head.join(eol) + eol + eol : '') + tail.join(eol);
  checkOnlyOurs(text, out, e.key, file);
  return out;
}
