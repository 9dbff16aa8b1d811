// Whether the stable launcher (`~/.baton/bin/baton`) will run, and whether the
// CLI running now should repoint it, before a user-scope config is written
// that calls it by absolute path. `baton connect` and `baton doctor` judge it
// the same way.
//
// Who owns the launcher: the extension points it at VS Code's own runtime on
// activation; a CLI run from a bundle (a clone, an npm install) points it at
// its own Node. A CLI never takes a working launcher away from the extension
// (Electron) nor from another working install (another script): two installs
// repointing it in turn would change every config's behaviour behind the
// person's back. It repairs a launcher that is missing, not Baton's, or whose
// runtime or script is gone, and refreshes one that already runs this very
// script (its Node moved: nvm, a reinstall).
import * as os from 'os';
import { readText } from '../adapters/agents/agentPlan';
import { launcherPath, readLauncher, renderPosix, writeLauncher, type LauncherInfo, type LauncherTarget } from '../adapters/launcher';

export type LauncherVerdict =
  /** It runs, and points where it should. */
  | 'ok'
  /** It runs, but another install's (VS Code's runtime, another CLI's script): left as it is. */
  | 'kept'
  /** Missing or broken, or this CLI's with another Node: `self` rewrites it. */
  | 'fix'
  /** Missing or broken, and this process cannot say what to point it at (not run from the bundle). */
  | 'broken';

export interface LauncherCheck {
  path: string;
  verdict: LauncherVerdict;
  info: LauncherInfo | null;
  /** The launcher's text now and as `fix` would write it (null: no file / no change). */
  before: string | null;
  after: string | null;
  /** What the person should know, in words. */
  notes: string[];
}

const same = (a: LauncherTarget, b: LauncherTarget): boolean => a.runtime === b.runtime && a.script === b.script && a.electron === b.electron;

/** Judges the launcher under `home` against `self`, the target of the CLI running now (null when not run from its bundle). */
export function checkLauncher(self: LauncherTarget | null, home: string = os.homedir()): LauncherCheck {
  const file = launcherPath(home);
  const info = readLauncher(home);
  const before = readText(launcherPath(home, 'linux'));
  const working = info !== null && info.runtimeExists && info.scriptExists;
  const base = { path: file, info, before };
  const what =
    info === null
      ? before === null
        ? 'is missing'
        : 'is not one Baton wrote'
      : !info.runtimeExists
        ? `runs ${info.runtime}, which is gone`
        : `runs ${info.script}, which is gone`;
  if (!working) {
    if (!self)
      return {
        ...base,
        verdict: 'broken',
        after: null,
        notes: [
          `The launcher ${file} ${what}: hooks and MCP servers that call it will fail. Run the built CLI's \`baton connect AGENT\` or open VS Code with Baton to rewrite it.`,
        ],
      };
    return { ...base, verdict: 'fix', after: renderPosix(self), notes: [`The launcher ${file} ${what}; Baton points it at ${self.runtime} running ${self.script}.`] };
  }
  if (!self || same(info, self)) return { ...base, verdict: 'ok', after: null, notes: [] };
  if (!info.electron && info.script === self.script)
    return { ...base, verdict: 'fix', after: renderPosix(self), notes: [`The launcher ${file} now runs ${self.script} with ${self.runtime}.`] };
  const owner = info.electron ? "VS Code's runtime (the extension keeps it up to date)" : `${info.script} with ${info.runtime}`;
  return { ...base, verdict: 'kept', after: null, notes: [`The launcher ${file} runs ${owner}; it works, so Baton left it as it is.`] };
}

/** Writes the launcher a `fix` verdict calls for; anything else writes nothing. Returns whether it wrote. */
export function applyLauncherCheck(check: LauncherCheck, self: LauncherTarget | null, home: string = os.homedir()): boolean {
  if (check.verdict !== 'fix' || !self) return false;
  return writeLauncher(home, self).changed;
}
