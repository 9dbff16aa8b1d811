// Baton: Re-run Verification (issue 26): on a stale claim (its hover link, its
// tree item), `baton verify PROJECT --run` in a terminal of its own in the
// project's folder, so the person sees the claims' commands run and how they
// ended. The CLI re-runs the stale claims of the scope's latest checkpoint and
// writes a new checkpoint with their runs; the vault watcher hears it land and
// the views and hovers redraw the claim fresh when it passed.
//
// The terminal runs the CLI itself (`shellPath` is the extension host's
// runtime, as the launcher runs it), not a line typed into the person's
// shell: no quoting of paths to get right in every shell. Only in a trusted
// workspace: the commands come from a checkpoint, and Restricted Mode starts
// no programs (the menus' `when` and the command's `enablement` say
// `isWorkspaceTrusted`; a hover offers the link only when trusted; invoked
// anyway, it says why).
import * as path from 'path';
import * as vscode from 'vscode';
import { launcherFor } from '../../app/connect';
import { refused } from '../../core/errors';
import type { BatonHost } from '../batonHost';
import type { ClaimChecks } from '../claimChecks';
import type { Log } from '../log';
import { showFailure, slugOf } from './args';

export const VERIFY_TERMINAL = 'Baton: Verify';

export interface RerunResult {
  /** The CLI's arguments as the terminal runs them (tests cannot read a terminal's input back). */
  args?: string[];
  cwd?: string;
  terminal?: vscode.Terminal;
  refused?: string;
}

export class RerunVerification {
  constructor(
    private readonly host: BatonHost,
    private readonly claims: ClaimChecks,
    private readonly extensionPath: string,
    private readonly log: Log,
  ) {}

  rerunVerification = async (arg?: unknown): Promise<RerunResult> => {
    try {
      if (!vscode.workspace.isTrusted) {
        throw refused("Re-run Verification runs the claims' recorded commands: trust this workspace first (Restricted Mode starts no programs).");
      }
      const slug = slugOf(arg);
      const cp = slug ? await this.host.session.checkpoint(slug) : null;
      if (!cp) throw refused(`Baton: no such checkpoint in the vault${slug ? ` (${slug})` : ''}.`);
      const cwd = this.claims.folderOf(cp);
      if (!cwd) throw refused(`The claims of ${cp.project} are checked against its working tree: open its folder in this window to re-run them.`);
      const latest = (await this.host.session.history(cp.project))[0];
      if (latest && latest.slug !== cp.slug) {
        throw refused(`Re-run Verification re-runs the claims of ${cp.project}'s latest checkpoint (${latest.session}); ${cp.session} is older.`);
      }
      if (!this.claims.of(cp).some((c) => c.state === 'stale')) throw refused(`No stale claim in ${cp.session}: nothing to re-run.`);
      const target = launcherFor(path.join(this.extensionPath, 'dist', 'cli.js'));
      const args = [target.script, 'verify', cp.project, '--run'];
      const terminal = vscode.window.createTerminal({
        name: VERIFY_TERMINAL,
        cwd,
        shellPath: target.runtime,
        shellArgs: args,
        // The editor's vault and agent name, as the person's own checkpoints record them.
        env: { BATON_VAULT: this.host.session.root, BATON_AGENT: this.host.agent, BATON_PROJECT: '', ...(target.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {}) },
        iconPath: new vscode.ThemeIcon('debug-rerun'),
      });
      terminal.show(true);
      this.log.info(`Re-running the stale claims of ${cp.slug} in ${cwd}`);
      return { args: args.slice(1), cwd, terminal };
    } catch (err) {
      return { refused: showFailure(this.log, 'Re-running the verification', err) };
    }
  };
}
