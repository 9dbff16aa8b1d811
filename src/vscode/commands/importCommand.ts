// Baton: Import Past Sessions… (issue 27; the walkthrough's first step offers
// it): a cheap look at the agents' history on this machine (app/pastHistory:
// files listed and stat-ed, none read), a pick of the agents found with how
// many sessions each and since when, then the import under a progress
// notification whose Cancel stops it between sessions. The views fill as it
// goes: each checkpoint announces its write like any other.
import * as vscode from 'vscode';
import type { ImportReport, ImportStep } from '../../app/importSessions';
import { importSessions } from '../../app/importSessions';
import type { AgentHistory, PastHistory } from '../../app/pastHistory';
import { pastHistory } from '../../app/pastHistory';
import { homeOf } from '../../app/projectDir';
import type { ImportAgent } from '../../core/importAgents';
import { IMPORT_AGENT_LABELS, IMPORT_AGENTS } from '../../core/importAgents';
import type { BatonHost } from '../batonHost';
import { tildify } from '../connect/connectDocuments';
import { Views } from '../ids';
import type { Log } from '../log';
import { asArgs, showFailure, str } from './args';

export interface ImportOutcome {
  /** The agents picked (all found, when none were), with how many sessions and since when. */
  found: AgentHistory[];
  /** Undefined when nothing was found. */
  report?: ImportReport;
  /** What the person was told. */
  said: string;
}

const isAgent = (a: unknown): a is ImportAgent => typeof a === 'string' && (IMPORT_AGENTS as readonly string[]).includes(a);

const dateOf = (unix: number): string => new Date(unix * 1000).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });

const sessions = (n: number): string => `${n} session${n === 1 ? '' : 's'}`;

function isToken(v: unknown): v is vscode.CancellationToken {
  return typeof v === 'object' && v !== null && typeof (v as vscode.CancellationToken).isCancellationRequested === 'boolean';
}

/** Reading and writing each take half of the bar: a file read is a parse, a checkpoint written an atomic file and its index rows. */
const percentOf = (s: ImportStep): number => (s.phase === 'reading' ? 0 : 50) + (s.total ? (50 * s.done) / s.total : 50);

export class ImportCommand {
  constructor(
    private readonly host: BatonHost,
    private readonly log: Log,
  ) {}

  /**
   * Without arguments: this machine's home, a pick of the agents found. `{home}`
   * reads another home folder instead (the agents' own variables such as
   * CODEX_HOME then do not apply: everything is under it), `{agents}` skips the
   * pick, `{token}` is a caller's cancellation beside the notification's.
   */
  importPastSessions = async (arg?: unknown): Promise<ImportOutcome | undefined> => {
    const a = asArgs(arg);
    const given = str(a.home);
    const home = given ?? homeOf(process.env);
    const env: NodeJS.ProcessEnv = given ? { HOME: given } : process.env;
    let history: PastHistory;
    try {
      history = await pastHistory(home, env);
    } catch (err) {
      showFailure(this.log, 'Looking for past sessions', err);
      return undefined;
    }
    for (const u of history.unlisted) this.log.warn(`Import Past Sessions: ${u.source} ${u.reason}`);
    if (!history.found.length) {
      const looked = history.looked.map((l) => tildify(l.folder, home));
      const said = `Baton found no past agent sessions on this machine. It looked in ${looked.slice(0, -1).join(', ')} and ${looked[looked.length - 1]}.`;
      void vscode.window.showInformationMessage(said);
      return { found: [], said };
    }
    const agents = Array.isArray(a.agents) ? a.agents.filter(isAgent) : await this.pick(history.found, home);
    if (!agents?.length) return undefined;
    const chosen = history.found.filter((f) => agents.includes(f.agent));
    const token = isToken(a.token) ? a.token : undefined;
    try {
      const report = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'Baton: importing past sessions', cancellable: true },
        (progress, cancel) => {
          let shown = 0;
          return importSessions(this.host.session.baton, {
            vaultRoot: this.host.session.root,
            home,
            env,
            agents: chosen.map((c) => c.agent),
            progress: (line) => this.log.info(`Import Past Sessions: ${line.trim()}`),
            step: (s) => {
              const at = percentOf(s);
              progress.report({ message: `${s.phase} ${s.done} of ${s.total}`, increment: at - shown });
              shown = at;
            },
            cancelled: () => cancel.isCancellationRequested || !!token?.isCancellationRequested,
          });
        },
      );
      for (const s of report.skipped) this.log.info(`Import Past Sessions: skipped ${s.source}: ${s.reason}`);
      return { found: chosen, report, said: this.tell(report) };
    } catch (err) {
      showFailure(this.log, 'Importing past sessions', err);
      return undefined;
    }
  };

  private async pick(found: AgentHistory[], home: string): Promise<ImportAgent[] | undefined> {
    const items = found.map((f) => ({
      label: IMPORT_AGENT_LABELS[f.agent],
      description: `${sessions(f.sessions)} since ${dateOf(f.oldest)}`,
      detail: tildify(f.folder, home),
      picked: true,
      agent: f.agent,
    }));
    const picked = await vscode.window.showQuickPick(items, {
      title: 'Baton: Import Past Sessions',
      placeHolder: 'Agents whose sessions become checkpoints',
      canPickMany: true,
      ignoreFocusOut: true,
    });
    return picked?.map((p) => p.agent);
  }

  private tell(r: ImportReport): string {
    const skipped = r.skipped.length ? `, ${r.skipped.length} skipped (the log says why)` : '';
    const text = r.cancelled
      ? `Baton: import cancelled after ${sessions(r.imported)}, each written whole; ${r.cancelled.left} left for the next import${skipped}.`
      : `Baton imported ${sessions(r.imported)}${skipped}.`;
    const actions = [r.imported ? 'Show Checkpoints' : '', r.skipped.length ? 'Show Log' : ''].filter(Boolean);
    void vscode.window.showInformationMessage(text, ...actions).then((pick) => {
      if (pick === 'Show Checkpoints') void vscode.commands.executeCommand(`${Views.checkpoints}.focus`);
      if (pick === 'Show Log') this.log.show();
    });
    return text;
  }
}
