// Commands that write to the vault as a person: Commit Checkpoint, Hand Off…
// and Add Working Note. They write exactly what the CLI would (the same core
// recipe, app/commit.ts), under the `baton.agentName` agent.
import * as vscode from 'vscode';
import type { CommitResult } from '../../core/requests';
import type { CheckpointFields } from '../../core/model';
import { checkpointFields } from '../../app/checkpointFields';
import { formText, likelyTask, prefillForm } from '../../app/checkpointForm';
import { commitCheckpoint } from '../../app/commit';
import { handoffChoices } from '../../app/handoffAgents';
import { pendingNotesDir } from '../../app/vaultFiles';
import { systemClock } from '../../app/openBaton';
import { plainLabel } from '../../core/lensText';
import { age } from '../../core/time';
import type { BatonHost } from '../batonHost';
import { readConfig } from '../config';
import type { TerminalCommands } from '../terminalCommands';
import type { Log } from '../log';
import { workspaceCommitPlace, workspaceGitState } from '../workspaceGit';
import type { Args } from './args';
import { asArgs, inform, showFailure, str } from './args';
import type { CommitAnswers } from './commitInput';
import { askCommit } from './commitInput';
import type { CheckpointForms } from './checkpointForms';
import { pickOrType, pickProject } from './pickProject';

const FIELD_KEYS = ['task', 'intent', 'state', 'next', 'decided', 'failed', 'verified', 'blockers', 'files'];

export class WriteCommands {
  constructor(
    private readonly host: BatonHost,
    private readonly log: Log,
    private readonly forms: CheckpointForms,
    private readonly terminals: TerminalCommands,
  ) {}

  /**
   * Commit Checkpoint: the checkpoint form (or, with `baton.checkpoint.input`
   * set to `steps`, one input box per field) unless `args` carries the fields.
   * Resolves once the checkpoint is written, or with undefined when the person
   * left without writing.
   */
  commit = (arg?: unknown): Promise<CommitResult | undefined> => this.commitWith(asArgs(arg), str(asArgs(arg).handoffTo ?? asArgs(arg).to));

  /** Hand Off…: who takes over (picked or typed), then the same fields. */
  handOff = async (arg?: unknown): Promise<CommitResult | undefined> => {
    const args = asArgs(arg);
    const to = str(args.to ?? args.handoffTo) ?? (await this.pickAgent());
    return to ? this.commitWith(args, to) : undefined;
  };

  /** Add Working Note: one line to the person's open session in the current project. */
  addNote = async (arg?: unknown): Promise<{ durable: boolean } | undefined> => {
    const args = asArgs(arg);
    const scope = str(args.project) ?? (await this.scope());
    if (!scope) return undefined;
    const text =
      str(args.text) ??
      (await vscode.window.showInputBox({
        title: `Add Working Note to ${scope}`,
        prompt: 'One line: what you tried, found or decided. It is folded into the next checkpoint.',
        placeHolder: 'e.g. the annual toggle belongs in PricingTable',
        ignoreFocusOut: true,
      }));
    if (!text?.trim()) return undefined;
    try {
      const r = await this.host.session.baton.note(scope, str(args.agent) ?? this.host.agent, text);
      if (r.redactions) inform(`Masked ${r.redactions} secret(s) before writing the note.`);
      if (!r.durable)
        void vscode.window.showWarningMessage(
          `The note is kept in ${pendingNotesDir(this.host.session.root)} but not yet in the vault (run Baton: Rebuild Index once the folder is writable): ${r.reason}`,
        );
      return { durable: r.durable };
    } catch (err) {
      showFailure(this.log, 'Adding the note', err);
      return undefined;
    }
  };

  private async commitWith(args: Args, handoffTo: string | undefined): Promise<CommitResult | undefined> {
    const scope = str(args.project) ?? (await this.scope());
    if (!scope) return undefined;
    const agent = str(args.agent) ?? this.host.agent;
    const what = handoffTo ? 'Handing off' : 'Committing the checkpoint';
    try {
      if (FIELD_KEYS.some((k) => args[k] !== undefined)) return await this.write(scope, agent, typedFields(args), handoffTo);
      const title = handoffTo ? `Hand Off ${scope} to ${handoffTo}` : `Commit Checkpoint to ${scope}`;
      const git = await workspaceGitState(this.host.project, scope);
      if (readConfig().checkpoint.input === 'steps') {
        const latest = (await this.host.session.history(scope).catch(() => []))[0];
        const answers = await askCommit({ title, prefill: { task: likelyTask(latest?.next, git) }, notesHint: await this.notesHint(scope, agent) });
        return answers ? await this.write(scope, agent, typedFields(answers), handoffTo) : undefined;
      }
      const prefill = await prefillForm(this.host.session.baton, scope, { git, commands: this.terminals.since });
      const slug = scope.replace(/[^A-Za-z0-9._-]+/g, '-');
      return await this.forms.open({
        name: `${handoffTo ? 'handoff' : 'checkpoint'}-${slug}.md`,
        text: formText({ title, notes: prefill.notes }, prefill.fields),
        write: (fields) => this.write(scope, agent, fields, handoffTo),
        failed: (err) => showFailure(this.log, what, err),
      });
    } catch (err) {
      showFailure(this.log, what, err);
      return undefined;
    }
  }

  /** Writes the checkpoint (throws when the core refuses it) and says so, with Open. */
  private async write(scope: string, agent: string, fields: Partial<CheckpointFields>, handoffTo: string | undefined): Promise<CommitResult> {
    // The git state is read now: the form or the prompt may have been open while commits were made.
    const r = await commitCheckpoint(this.host.session.baton, { scope, agent, fields, handoffTo, ...workspaceCommitPlace(this.host.project, scope) });
    this.terminals.clear();
    const extras = [r.folded ? `folded ${r.folded} note(s)` : '', r.redactions ? `masked ${r.redactions} secret(s)` : ''].filter(Boolean);
    const what = handoffTo ? `Handed off to ${r.checkpoint.handoffTo}` : 'Checkpoint committed';
    void vscode.window.showInformationMessage(`${what}: ${r.checkpoint.session}${extras.length ? ` (${extras.join(', ')})` : ''}.`, 'Open').then((pick) => {
      if (pick) void vscode.window.showTextDocument(vscode.Uri.file(r.path), { preview: true });
    });
    return r;
  }

  private async scope(): Promise<string | undefined> {
    return this.host.project.current ?? (await pickProject(this.host, 'Which project? This workspace has none.'));
  }

  private async notesHint(scope: string, agent: string): Promise<string> {
    const view = await this.host.session.baton.sessions(scope).catch(() => undefined);
    const mine = view?.uncommitted.filter((n) => n.agent === agent) ?? [];
    if (!view || view.uncommitted.length === 0) return '(Enter to skip)';
    const now = systemClock.now();
    const first = mine[0] ?? view.uncommitted[0];
    return `Working notes are appended to it (${view.uncommitted.length} open, e.g. "${plainLabel(first.text, 50)}", ${age(now - first.ts)} ago).`;
  }

  private async pickAgent(): Promise<string | undefined> {
    const seen = await this.host.session.lastByAgent().catch((err: unknown) => {
      this.log.warn(`Listing the vault's agents failed: ${String(err)}`);
      return [];
    });
    const now = systemClock.now();
    return pickOrType({
      title: 'Hand Off to…',
      placeholder: 'Pick an agent or type a name (a person works too)',
      items: handoffChoices(seen, this.host.agent).map((c) => ({
        label: plainLabel(c.name, 40),
        description: c.lastSeen === undefined ? undefined : c.lastSeen > 0 ? `seen in this vault ${age(Math.max(0, now - c.lastSeen))} ago` : 'seen in this vault',
        value: c.name,
      })),
      typed: (text) => (text.trim() ? { label: text.trim(), description: 'hand off to this name', value: text.trim() } : undefined),
      typedFirst: true,
      orText: true,
    });
  }
}

/** The fields typed into the boxes or passed as arguments; `decided` is the boxes' (and the arguments') name for decisions. */
function typedFields(a: Args | CommitAnswers): Partial<CheckpointFields> {
  const r = a as Args;
  return checkpointFields({ ...r, decisions: r.decided ?? r.decisions }, { typed: true });
}
