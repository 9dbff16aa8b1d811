// Editing a JSON settings file that belongs to someone else (Claude Code's,
// Codex's, Cursor's). The person's other entries, their indentation and their
// file mode are kept; the file is replaced atomically; and the bytes as they
// were before Baton first touched the file are kept beside it, so that
// removing Baton's entries can give back exactly the file the person had.
import { randomBytes } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { refused } from '../core/errors';

export type JsonObject = Record<string, unknown>;

export const BACKUP_SUFFIX = '.baton-backup';

export interface SettingsFile {
  path: string;
  /** The bytes on disk, null when there is no file. */
  raw: string | null;
  value: JsonObject;
}

export const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Reads a settings file. Refuses a file that is not a JSON object rather than
 * overwrite what a person may have half-typed; a missing file reads as `{}`.
 */
export function readSettings(file: string): SettingsFile {
  let raw: string | null = null;
  try {
    raw = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  if (raw === null || raw.trim() === '') return { path: file, raw, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(raw.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw refused(`${file} is not valid JSON (${(err as Error).message.split('\n')[0]}); fix it by hand first, Baton changed nothing.`);
  }
  if (!isObject(value)) throw refused(`${file} does not hold a JSON object; Baton changed nothing.`);
  return { path: file, raw, value };
}

/** The indentation the file already uses (two spaces for a new file), and whether it ends in a newline. */
function styleOf(raw: string | null): { indent: string | number; newline: boolean } {
  if (!raw) return { indent: 2, newline: true };
  const m = /\n([ \t]+)\S/.exec(raw);
  return { indent: m ? m[1] : 2, newline: raw.endsWith('\n') };
}

export function serialize(value: JsonObject, like: string | null): string {
  const style = styleOf(like);
  return JSON.stringify(value, null, style.indent) + (style.newline ? '\n' : '');
}

/** Order-insensitive for keys, order-sensitive for arrays: the equality JSON readers see. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && sameJson(a[k], b[k]));
  }
  return a === b;
}

/** Replaces the file atomically, keeping its mode (a settings file under version control stays as it was). */
export function writeSettings(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  let mode = 0o644;
  try {
    mode = fs.statSync(file).mode & 0o777;
  } catch {
    // new file
  }
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
  try {
    fs.writeFileSync(tmp, text, { mode, flag: 'wx' });
    fs.chmodSync(tmp, mode);
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}

/** Keeps the bytes Baton found before its first change; a later install over Baton's own entries keeps the first copy. */
export function backUp(current: SettingsFile): string | null {
  if (current.raw === null) return null;
  const backup = current.path + BACKUP_SUFFIX;
  writeSettings(backup, current.raw);
  return backup;
}

/**
 * Writes what is left after removing Baton's entries. `results` are the ways
 * the removal can be read (the first is written when none matches): when one
 * is exactly what the backup holds, the backup's bytes are put back
 * (formatting and all) and the backup removed; when nothing is left of a file
 * Baton created, the file is removed. Otherwise the first result is written in
 * the file's own style.
 */
export function restoreOrWrite(current: SettingsFile, results: JsonObject[], isEmpty: (v: JsonObject) => boolean): 'restored' | 'removed' | 'written' {
  const saved = readBackup(current.path);
  if (saved && results.some((r) => sameJson(saved.value, r))) {
    writeSettings(current.path, saved.raw);
    fs.rmSync(current.path + BACKUP_SUFFIX, { force: true });
    return 'restored';
  }
  // No backup: Baton created the file (or the person removed the copy).
  if (!saved && isEmpty(results[0])) {
    fs.rmSync(current.path, { force: true });
    return 'removed';
  }
  writeSettings(current.path, serialize(results[0], current.raw));
  return 'written';
}

/** The pre-install copy, when there is a readable one. */
export function readBackup(file: string): { raw: string; value: JsonObject } | null {
  let raw: string;
  try {
    raw = fs.readFileSync(file + BACKUP_SUFFIX, 'utf8');
  } catch {
    return null;
  }
  try {
    const value: unknown = raw.trim() ? JSON.parse(raw.replace(/^\uFEFF/, '')) : {};
    return isObject(value) ? { raw, value } : null;
  } catch {
    return null;
  }
}
