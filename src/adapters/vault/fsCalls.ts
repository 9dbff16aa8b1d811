// The file calls of the write an edit hook makes on every edit (claim the
// scope's lock, read the latest notes, append one, release), as promises over
// fs's callback API.
// fs.promises would load a module tree of its own for them (file handles,
// streams, readline, watchers): about a millisecond of every edit hook, for
// the same system calls on the same thread pool.
import * as fs from 'fs';
import { promisify } from 'util';

export const open = promisify(fs.open);
export const fstat = promisify(fs.fstat);
export const read = promisify(fs.read);
export const write = promisify(fs.write);
export const ftruncate = promisify(fs.ftruncate);
export const close = promisify(fs.close);
export const writeFile = promisify(fs.writeFile);
export const readFile = promisify(fs.readFile);
export const link = promisify(fs.link);
export const unlink = promisify(fs.unlink);
