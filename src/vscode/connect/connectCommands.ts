// Connect Agent… and Disconnect Agent…: the editor's door to app/connect.
// Three quick picks (the agent, the scope, the go-ahead), with the plan's
// diffs open behind the last one, so the person reads exactly the bytes that
// will be written before saying yes; then the same plan is applied.
//
// Why the go-ahead is a quick pick, not a modal dialog: a modal covers the
// diff it asks about (the person can only cancel, read, and start again), and
// VS Code refuses modal dialogs in its extension-test host outright
// ("DialogService: refused to show dialog in tests"), so a modal step could
// never be tested in the real editor. A quick pick that stays open when focus
// moves (`ignoreFocusOut`) lets the person scroll the diffs and then answer,
// and a notification would not do either: Do Not Disturb hides it.
//
// Claude Code's MCP server is written by `claude mcp add-json`, not by Baton:
// the go-ahead names that command beside the files, and saying yes runs it
// too when `claude` is on the editor's PATH; otherwise the message after
// offers it to copy or run in a terminal.
import * as vscode from 'vscode';
import {
  agentId,
  agentLabel,
  agentsToOffer,
  applyConnection,
  connectionStatus,
  planConnection,
  runConnectionSteps,
  scopeOf,
  stepRunner,
  type AgentId,
  type ConnectAction,
  type ConnectionPlan,
  type Scope,
} from '../../app/connect';
import type { BatonHost } from '../batonHost';
import type { Log } from '../log';
import { asArgs, showFailure, str } from '../commands/args';
import type { ConnectDocuments } from './connectDocuments';
import { tildify } from './connectDocuments';

export interface ConnectResult {
  agent: AgentId;
  scope: Scope;
  action: ConnectAction;
  files: { path: string; action: string }[];
  notes: string[];
  /** The agent's own commands that Baton ran. */
  ran: string[];
  /** The agent's own commands left for the person (its CLI not on PATH, or one failed). */
  commands: string[];
}

const SCOPE_ITEMS: Record<Scope, { label: string; detail: string }> = {
  user: { label: 'User', detail: 'In your home folder: every project, only you. Calls Baton by its launcher’s full path.' },
  project: { label: 'Project', detail: 'In this workspace folder’s committed files: teammates get it too, and need `baton` on their PATH.' },
  local: { label: 'Local', detail: 'This project, only you (not committed).' },
};

type Pick<T> = vscode.QuickPickItem & { value: T };

export class ConnectCommands {
  constructor(
    private readonly host: BatonHost,
    private readonly docs: ConnectDocuments,
    private readonly log: Log,
    /** Told after a write, so the Agents view shows the new state. */
    private readonly onDidWrite: () => void = () => undefined,
  ) {}

  /** `{agent, scope}` (a keybinding's) skip those picks; the go-ahead is always asked. */
  connectAgent = (arg?: unknown): Promise<ConnectResult | undefined> => this.run('connect', arg);

  disconnectAgent = (arg?: unknown): Promise<ConnectResult | undefined> => this.run('disconnect', arg);

  private async run(action: ConnectAction, arg: unknown): Promise<ConnectResult | undefined> {
    const a = asArgs(arg);
    try {
      const projectDir = this.projectDir();
      const agent = a.agent !== undefined ? agentId(str(a.agent)) : await this.pickAgent(action, projectDir);
      if (!agent) return undefined;
      const scope = a.scope !== undefined ? scopeOf(str(a.scope), agent) : await this.pickScope(action, agent, projectDir);
      if (!scope) return undefined;
      const plan = planConnection(action, { agent, scope, projectDir: projectDir ?? '', vault: this.host.session.root });
      return await this.confirmAndApply(plan);
    } catch (err) {
      showFailure(this.log, action === 'connect' ? 'Connecting the agent' : 'Disconnecting the agent', err);
      return undefined;
    } finally {
      await this.docs.closeAll().then(undefined, (err: unknown) => this.log.error('Closing the connect previews failed', err));
    }
  }

  /** The workspace folder project and local scopes write into; undefined when none is a local folder. */
  private projectDir(): string | undefined {
    const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
    return folder?.uri.fsPath;
  }

  /** Scopes of an agent that can be written here: project and local only with a workspace folder. */
  private scopesOf(agent: AgentId, projectDir: string | undefined): Scope[] {
    return (['user', 'project', 'local'] as Scope[]).filter((s) => {
      if (s !== 'user' && !projectDir) return false;
      try {
        scopeOf(s, agent);
        return true;
      } catch {
        return false;
      }
    });
  }

  /** Disconnect offers only what is connected, at least partly: there is nothing else to take away. */
  private connectedScopes(agent: AgentId, projectDir: string | undefined): Scope[] {
    return this.scopesOf(agent, projectDir).filter((scope) => {
      const s = connectionStatus({ agent, scope, projectDir: projectDir ?? '', vault: this.host.session.root });
      return s.connected !== 'no';
    });
  }

  private async pickAgent(action: ConnectAction, projectDir: string | undefined): Promise<AgentId | undefined> {
    const offered = agentsToOffer();
    const items: Pick<AgentId>[] =
      action === 'connect'
        ? offered.map((o) => ({ label: o.label, description: o.present ? 'installed' : undefined, value: o.agent }))
        : offered.flatMap((o) => {
            const scopes = this.connectedScopes(o.agent, projectDir);
            return scopes.length ? [{ label: o.label, description: `connected: ${scopes.map((s) => SCOPE_ITEMS[s].label).join(', ')}`, value: o.agent }] : [];
          });
    if (items.length === 0) {
      void vscode.window.showInformationMessage('Baton: no agent is connected here, so there is nothing to disconnect.');
      return undefined;
    }
    const picked = await vscode.window.showQuickPick(items, {
      title: action === 'connect' ? 'Baton: Connect Agent (1/3)' : 'Baton: Disconnect Agent (1/3)',
      placeHolder: action === 'connect' ? 'The agent whose hooks and MCP server should use Baton (found on this machine first)' : 'The agent to disconnect from Baton',
    });
    return picked?.value;
  }

  private async pickScope(action: ConnectAction, agent: AgentId, projectDir: string | undefined): Promise<Scope | undefined> {
    const scopes = action === 'connect' ? this.scopesOf(agent, projectDir) : this.connectedScopes(agent, projectDir);
    const items: Pick<Scope>[] = scopes.map((s) => ({ ...SCOPE_ITEMS[s], value: s }));
    const picked = await vscode.window.showQuickPick(items, {
      title: `Baton: ${action === 'connect' ? 'Connect' : 'Disconnect'} ${agentLabel(agent)} (2/3)`,
      placeHolder: 'Where: User is the default',
    });
    return picked?.value;
  }

  private async confirmAndApply(plan: ConnectionPlan): Promise<ConnectResult | undefined> {
    const label = agentLabel(plan.agent);
    const changed = plan.files.filter((f) => f.action !== 'unchanged');
    const verb = plan.action === 'connect' ? 'Connect' : 'Disconnect';
    if (changed.length === 0 && plan.commands.length === 0) {
      void vscode.window.showInformationMessage(`Baton: ${label} is already ${plan.action}ed (${plan.scope} scope); nothing to write.`);
      return result(plan, [], [], []);
    }
    if (changed.length) await this.docs.showDiffs(changed, `${verb.toLowerCase()} ${label}`);
    const runs = stepRunner(plan) !== null;
    const writes = changed.map((f) => `${f.action === 'created' ? 'create' : f.action === 'removed' ? 'remove' : 'update'} ${tildify(f.path)}`);
    // The command's first words: its JSON argument, whole, is in the detail below.
    const runsWhat = runs ? plan.steps.map((s) => `run \`${s.program} ${s.argv.slice(0, 4).join(' ')} …\``) : [];
    const what = [...writes, ...runsWhat].join(', ') || 'write no file';
    const commands = plan.commands.length ? `${runs ? 'Runs' : 'Then run yourself'}: ${plan.commands.join(' && ')}` : '';
    const detail = [commands, ...plan.notes].filter(Boolean).join(' ') || undefined;
    const yes: Pick<boolean> = { label: `$(check) ${verb}`, description: `Baton will ${what}`, detail, value: true };
    const no: Pick<boolean> = { label: '$(close) Cancel', description: 'Write nothing', value: false };
    const picked = await vscode.window.showQuickPick([yes, no], {
      title: `Baton: ${verb} ${label}? (3/3)`,
      placeHolder: changed.length ? 'The diffs behind this show exactly what will be written' : 'Nothing to write here; the commands below finish it',
      ignoreFocusOut: true,
    });
    if (!picked?.value) return undefined;
    let written;
    let steps;
    try {
      written = changed.length ? applyConnection(plan) : [];
      steps = await runConnectionSteps(plan);
    } finally {
      this.onDidWrite(); // a write refused halfway has still changed the files before it
    }
    this.log.info(`${verb}ed ${label} (${plan.scope}): ${written.map((f) => `${f.action} ${f.path}`).join(', ') || 'no file'}${steps.ran.map((c) => `; ran ${c}`).join('')}`);
    for (const f of steps.failures) this.log.error(f);
    this.tell(plan, label, verb, steps.left, steps.failures);
    return result(plan, written, steps.ran, steps.left);
  }

  /** The outcome, the notes, and the agent's commands left for the person (they edit the agent's own files). */
  private tell(plan: ConnectionPlan, label: string, verb: string, left: string[], failures: string[]): void {
    const notes = plan.notes.length ? ` ${plan.notes.join(' ')}` : '';
    const done = `Baton: ${verb.toLowerCase()}ed ${label} (${plan.scope} scope).${notes}`;
    if (left.length === 0) {
      void vscode.window.showInformationMessage(done);
      return;
    }
    const command = left.join('\n');
    const why = failures.length ? ` ${failures.join(' ')}.` : '';
    // A terminal starts a program: not in Restricted Mode, as Resume in Claude Code.
    const buttons = vscode.workspace.isTrusted ? ['Copy Command', 'Run in Terminal'] : ['Copy Command'];
    const show = failures.length ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    void show(`${done}${why} One step is left, run by ${label} itself: ${command}`, ...buttons).then(async (pick) => {
      if (pick === 'Copy Command') await vscode.env.clipboard.writeText(command);
      if (pick === 'Run in Terminal') {
        const terminal = vscode.window.createTerminal({ name: `Baton: ${label}` });
        terminal.show();
        for (const c of left) terminal.sendText(c, true);
      }
    });
  }
}

function result(plan: ConnectionPlan, written: { path: string; action: string }[], ran: string[], left: string[]): ConnectResult {
  return { agent: plan.agent, scope: plan.scope, action: plan.action, files: written.map((f) => ({ path: f.path, action: f.action })), notes: plan.notes, ran, commands: left };
}
