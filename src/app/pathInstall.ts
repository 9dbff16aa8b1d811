// Putting `baton` on PATH, as VS Code's "Install 'code' command in PATH"
// does: a symlink to the stable launcher, so an agent's shell can run
// `baton note …` and the link keeps working across extension updates (it
// points at the launcher, which the extension rewrites; never into the
// extension's folder). Nothing is replaced that Baton did not put there: a
// `baton` from npm or a clone already on PATH is the person's choice.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { launcherDir, launcherPath } from '../adapters/launcher';

export type PathInstall =
  /** The link was made (or already pointed at the launcher). */
  | { kind: 'linked'; link: string; launcher: string; already: boolean }
  /** Something else named `baton` is there: left alone. */
  | { kind: 'occupied'; link: string; launcher: string; points: string | null }
  /** No folder on PATH is writable: the command a person can run with sudo. */
  | { kind: 'manual'; launcher: string; command: string }
  /** Windows has no symlink habit for this: the folder to add to PATH. */
  | { kind: 'addToPath'; folder: string };

export interface PathInstallInput {
  home?: string;
  /** PATH as this process sees it (a login shell may differ; ~/.local/bin is only used when it is on it). */
  pathEnv?: string;
  platform?: NodeJS.Platform;
  /** The system folder tried first; tests pass a temporary one. */
  systemBin?: string;
}

function linkTarget(file: string): string | null | undefined {
  try {
    return fs.readlinkSync(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    return null; // there, but not a symlink
  }
}

function writableDir(dir: string): boolean {
  try {
    fs.accessSync(dir, fs.constants.W_OK);
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** Links `baton` in /usr/local/bin, else in ~/.local/bin when that is on PATH; never overwrites another `baton`. */
export function installOnPath(input: PathInstallInput = {}): PathInstall {
  const home = input.home ?? os.homedir();
  const platform = input.platform ?? process.platform;
  if (platform === 'win32') return { kind: 'addToPath', folder: launcherDir(home) };
  const launcher = launcherPath(home, platform);
  const onPath = (input.pathEnv ?? process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  const systemBin = input.systemBin ?? '/usr/local/bin';
  const localBin = path.join(home, '.local', 'bin');
  const candidates = [systemBin, ...(onPath.includes(localBin) ? [localBin] : [])];
  for (const dir of candidates) {
    const link = path.join(dir, 'baton');
    const points = linkTarget(link);
    if (points === launcher) return { kind: 'linked', link, launcher, already: true };
    if (points !== undefined) return { kind: 'occupied', link, launcher, points };
    if (!writableDir(dir)) continue;
    fs.symlinkSync(launcher, link);
    return { kind: 'linked', link, launcher, already: false };
  }
  return { kind: 'manual', launcher, command: `sudo ln -sf '${launcher.replace(/'/g, `'\\''`)}' ${systemBin}/baton` };
}
