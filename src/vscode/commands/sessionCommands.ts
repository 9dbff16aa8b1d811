// Commands about sessions: Resume (the hand-over of a project) and Close
// Abandoned Session (write the auto-closed checkpoint on a silent agent's behalf).
import * as vscode from 'vscode';
import type { Abandoned, Checkpoint } from '../../core/model';
import { renderHandover } from '../../core/handover';
import { plainLabel } from '../../core/lensText';
import { age } from '../../core/time';
import { systemClock } from '../../app/openBaton';
import { resume } from '../../app/resume';
import type { BatonHost } from '../batonHost';
import type { HandoverDocuments } from '../handoverDocuments';
import { HANDOVER_SCHEME } from '../ids';
import type { Log } from '../log';
import { asArgs, inform, showFailure, str } from './args';
import { pickProject } from './pickProject';

export interface CloseResult {
  closed?: Checkpoint;
  refused?: string;
}

export class SessionCommands {
  constructor(
    private readonly host: BatonHost,
    private readonly docs: HandoverDocuments,
    private readonly log: Log,
  ) {}

  /**
   * Resume: opens the project's hand-over (what the next agent reads first)
   * with a Copy action, and counts the pick-up for `baton stats` as the CLI,
   * MCP and hooks do (`via: vscode`, under the person's agent name).
   */
  resume = async (arg?: unknown): Promise<{ project: string; text: string } | undefined> => {
    const args = asArgs(arg);
    const project = str(args.project) ?? this.host.project.current ?? (await pickProject(this.host, 'Resume which project?'));
    if (!project) return undefined;
    try {
      const now = systemClock.now();
      const view = await resume(this.host.session.baton, project, { agent: this.host.agent, via: 'vscode', now, elsewhere: true });
      const text = renderHandover(view, now);
      await this.docs.show(view.project, text);
      void vscode.window.showInformationMessage(`Hand-over of ${view.project} is open.`, 'Copy').then((pick) => {
        if (pick) void vscode.env.clipboard.writeText(text);
      });
      return { project: view.project, text };
    } catch (err) {
      showFailure(this.log, 'Resuming', err);
      return undefined;
    }
  };

  /** Copies the hand-over in the active editor (the editor title's action on hand-over documents). */
  copyHandover = async (arg?: unknown): Promise<void> => {
    const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri?.toString());
    if (!doc || doc.uri.scheme !== HANDOVER_SCHEME) return;
    await vscode.env.clipboard.writeText(doc.getText());
    vscode.window.setStatusBarMessage('$(check) Hand-over copied', 3000);
  };

  /**
   * Close Abandoned Session: from an item's inline action in one click, or
   * from the palette with a pick. The core refuses a live, unknown or closed
   * session; its reason is shown as it is and nothing is written.
   */
  closeAbandoned = async (arg?: unknown): Promise<CloseResult | undefined> => {
    const target = targetOf(arg) ?? (await this.pickAbandoned());
    if (!target) return undefined;
    try {
      const closed = await this.host.session.baton.closeAbandoned(target.project, target.session);
      inform(`Closed ${target.session} in ${target.project}: wrote auto-closed checkpoint ${closed.session}.`);
      return { closed };
    } catch (err) {
      return { refused: showFailure(this.log, 'Closing the session', err) };
    }
  };

  private async pickAbandoned(): Promise<{ project: string; session: string } | undefined> {
    const list = await this.host.session.baton.abandoned().catch((err) => {
      showFailure(this.log, 'Listing abandoned sessions', err);
      return [] as Abandoned[];
    });
    if (list.length === 0) {
      inform('No abandoned sessions: none has been silent for more than 6 hours.');
      return undefined;
    }
    const now = systemClock.now();
    const pick = await vscode.window.showQuickPick(
      list.map((a) => ({
        label: `${plainLabel(a.agent, 40)} · ${plainLabel(a.project, 60)}`,
        description: `silent ${age(now - a.lastActivity)} · ${a.notes} note(s)`,
        detail: plainLabel(a.task, 120),
        target: { project: a.project, session: a.session },
      })),
      { title: 'Close Abandoned Session', placeHolder: 'Writes an auto-closed checkpoint with its notes; nobody reviewed it' },
    );
    return pick?.target;
  }
}

/** `{project, session}`, an Abandoned, or a tree node holding one. */
function targetOf(arg: unknown): { project: string; session: string } | undefined {
  const a = asArgs(arg);
  const inner = asArgs(a.abandoned);
  const project = str(a.project) ?? str(inner.project);
  const session = str(a.session) ?? str(inner.session);
  return project && session ? { project, session } : undefined;
}
