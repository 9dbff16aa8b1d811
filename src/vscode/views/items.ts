// How each node looks: one function for every view, so a checkpoint reads the
// same under any project of the Checkpoints view and in This File. Labels are plain text (tree
// labels render no markdown); tooltips go through textTooltip, which escapes.
import * as vscode from 'vscode';
import { checkOf, claimsSummary } from '../../core/claimText';
import { claimWords } from '../../core/evidence';
import { claudeSessionOf } from '../../core/claudeSession';
import type { ClaimCheck } from '../../core/evidence';
import type { Checkpoint } from '../../core/model';
import { plainLabel } from '../../core/lensText';
import { age } from '../../core/time';
import { Commands, ContextValues } from '../ids';
import { textTooltip } from '../markdown';
import type { Node } from './nodes';
import { SECTION_TITLES, sectionItems } from './nodes';
import { threadWords } from './threadStates';

export interface ItemContext {
  now: number;
  /** Absolute file of a vault slug, undefined when it would leave the vault. */
  fileOf(slug: string): string | undefined;
  /** Absolute file of a scope's working notes, undefined when it would leave the vault. */
  notesFileOf(scope: string): string | undefined;
  /** A checkpoint's Verified claims judged against the working tree now ([] without evidence). */
  claims(cp: Checkpoint): ClaimCheck[];
}

const icon = (id: string, color?: string): vscode.ThemeIcon => new vscode.ThemeIcon(id, color ? new vscode.ThemeColor(color) : undefined);
const ago = (now: number, ts: number): string => (ts > 0 ? `${age(now - ts)} ago` : 'undated');

export function toTreeItem(node: Node, ctx: ItemContext): vscode.TreeItem {
  switch (node.kind) {
    case 'project':
      return projectItem(node, ctx);
    case 'scope': {
      // The current worktree opens on its checkpoints; another id, since VS Code keeps an item's expansion by id.
      const state = node.current ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed;
      const item = new vscode.TreeItem(node.scope.slice(node.scope.indexOf('/') + 1), state);
      item.id = `scope:${node.scope}${node.current ? ':current' : ''}`;
      item.description = node.current ? 'worktree · current' : 'worktree';
      item.iconPath = icon('git-branch');
      item.contextValue = ContextValues.scope;
      item.tooltip = textTooltip(node.scope, ['A linked worktree of the project: its own checkpoints and notes.']);
      return item;
    }
    case 'checkpoint':
      return checkpointItem(node.checkpoint, node.whose, ctx);
    case 'section': {
      const items = sectionItems(node.checkpoint, node.section);
      const leaf = node.section === 'next';
      const item = new vscode.TreeItem(SECTION_TITLES[node.section], leaf ? vscode.TreeItemCollapsibleState.None : vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `section:${node.checkpoint.slug}#${node.section}`;
      item.description = leaf ? plainLabel(items[0] ?? '', 120) : String(items.length);
      item.iconPath = icon(SECTION_ICONS[node.section]);
      item.contextValue = ContextValues.section;
      if (leaf) item.tooltip = textTooltip('Next', items);
      if (node.section === 'verified') verifiedSection(item, ctx.claims(node.checkpoint), items.length);
      return item;
    }
    case 'sectionItem': {
      const item = new vscode.TreeItem(plainLabel(node.text, 200), vscode.TreeItemCollapsibleState.None);
      item.id = `item:${node.checkpoint.slug}#${node.section}#${node.index}`;
      item.tooltip = textTooltip(SECTION_TITLES[node.section], [node.text]);
      item.contextValue = ContextValues.sectionItem;
      if (node.section === 'verified') claimItem(item, node, ctx.claims(node.checkpoint));
      return item;
    }
    case 'abandoned': {
      const a = node.abandoned;
      const item = new vscode.TreeItem(`${plainLabel(a.agent, 40)} · ${plainLabel(a.project, 60)}`, vscode.TreeItemCollapsibleState.None);
      // Two machines' sessions of one agent can share an id (the same start second): the machine keeps tree ids unique.
      item.id = `abandoned:${a.project}/${a.session}${a.machine ? `@${a.machine}` : ''}`;
      item.description = `silent ${age(ctx.now - a.lastActivity)} · ${a.notes === 1 ? '1 note' : `${a.notes} notes`}${a.whose ? ` · ${a.whose}` : ''}`;
      item.iconPath = icon('debug-disconnect', 'list.warningForeground');
      item.contextValue = ContextValues.abandoned;
      item.tooltip = textTooltip(`${a.agent} in ${a.project}, silent for ${age(ctx.now - a.lastActivity)}`, [
        a.task ? `First note: ${a.task}` : '',
        `Session ${a.session}. Close writes an auto-closed checkpoint holding its ${a.notes === 1 ? 'note' : 'notes'}; nobody reviewed it.`,
      ]);
      const notes = ctx.notesFileOf(a.project);
      if (notes) item.command = { command: 'vscode.open', title: 'Open Working Notes', arguments: [vscode.Uri.file(notes)] };
      return item;
    }
    case 'planGroup': {
      const state = node.current ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed;
      const item = new vscode.TreeItem(node.scope, state);
      item.id = `plans:${node.scope}`;
      item.description = `${node.plans.length === 1 ? '1 plan' : `${node.plans.length} plans`}${node.current ? ' · current' : ''}`;
      item.iconPath = icon(node.current ? 'root-folder-opened' : 'folder');
      item.contextValue = ContextValues.planGroup;
      return item;
    }
    case 'plan': {
      const p = node.plan;
      const prefix = `${p.project} — `;
      const title = p.title.startsWith(prefix) ? p.title.slice(prefix.length) : p.title;
      const item = new vscode.TreeItem(plainLabel(title || p.text || p.slug, 100), vscode.TreeItemCollapsibleState.None);
      item.id = `plan:${p.slug}`;
      item.description = `${plainLabel(p.agent, 30)} · ${ago(ctx.now, p.ts)}`;
      item.iconPath = icon('checklist');
      item.contextValue = ContextValues.plan;
      item.tooltip = textTooltip(title || p.slug, [p.text.split('\n').slice(0, 8).join('\n')]);
      item.command = { command: Commands.openPlan, title: 'Open Plan', arguments: [{ slug: p.slug }] };
      return item;
    }
    case 'touch': {
      const t = node.touch;
      const item = new vscode.TreeItem(plainLabel(t.task) || t.session, vscode.TreeItemCollapsibleState.None);
      item.id = `touch:${t.slug}`;
      item.description = `${plainLabel(t.agent, 30)} · ${ago(ctx.now, t.ts)} · ${t.project}`;
      item.iconPath = icon('history');
      item.contextValue = node.claude ? ContextValues.claudeTouch : ContextValues.touch;
      item.tooltip = textTooltip(t.task || t.session, [`${t.agent}, ${ago(ctx.now, t.ts)}, in ${t.project}`, `Named this file as ${t.matched}`]);
      item.command = { command: Commands.openCheckpoint, title: 'Open Checkpoint', arguments: [{ slug: t.slug }] };
      return item;
    }
    case 'more': {
      const inPlace = node.from !== undefined;
      const item = new vscode.TreeItem(`${node.hidden} older…`, inPlace ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
      item.id = `more:${node.scope}${inPlace ? `@${node.from}` : ''}`;
      item.iconPath = icon('ellipsis');
      item.contextValue = ContextValues.more;
      if (inPlace) {
        item.tooltip = `The older checkpoints of ${node.scope}`;
      } else {
        item.tooltip = `Make ${node.scope} the current project, open on every checkpoint`;
        item.command = { command: Commands.switchProject, title: 'Switch Project', arguments: [{ project: node.scope }] };
      }
      return item;
    }
    case 'noCheckpoints': {
      const item = new vscode.TreeItem('No checkpoints yet', vscode.TreeItemCollapsibleState.None);
      item.id = `none:${node.scope}`;
      item.description = 'Commit Checkpoint…';
      item.iconPath = icon('info');
      item.contextValue = ContextValues.noCheckpoints;
      item.tooltip = textTooltip(`No checkpoints in ${node.scope} yet`, [
        'A checkpoint records the task, what was decided and ruled out, and the next step. A connected agent writes one when it checkpoints or its session ends; click to commit one yourself.',
      ]);
      item.command = { command: Commands.commitCheckpoint, title: 'Commit Checkpoint' };
      return item;
    }
  }
}

const SECTION_ICONS: Record<string, string> = {
  failed: 'error',
  blockers: 'warning',
  verified: 'pass',
  decisions: 'law',
  questions: 'question',
  files: 'files',
  next: 'arrow-right',
};

/** The Verified section says how many of its claims are stale or unbacked, and turns to a warning when one is stale. */
function verifiedSection(item: vscode.TreeItem, checks: readonly ClaimCheck[], count: number): void {
  const summary = claimsSummary(checks);
  if (!summary) return;
  item.description = `${count} · ${summary}`;
  if (checks.some((c) => c.state === 'stale')) item.iconPath = icon('warning', 'list.warningForeground');
  item.tooltip = textTooltip(
    'Verified',
    checks.map((c) => `${c.claim}: ${claimWords(c)}`),
  );
}

/** A claim with evidence: its state as icon and tooltip; a stale one of the scope's latest checkpoint offers Re-run Verification. */
function claimItem(item: vscode.TreeItem, node: Extract<Node, { kind: 'sectionItem' }>, checks: readonly ClaimCheck[]): void {
  const c = checkOf(checks, node.text, node.index);
  if (!c) return;
  item.description = c.state;
  item.iconPath = c.state === 'fresh' ? icon('pass', 'testing.iconPassed') : c.state === 'stale' ? icon('warning', 'list.warningForeground') : icon('circle-large-outline');
  item.tooltip = textTooltip(`Verified: ${c.state}`, [node.text, claimWords(c)]);
  // Whether the workspace is trusted is the menu's `when` (isWorkspaceTrusted), not the item's: trust granted later needs no redraw.
  if (c.state === 'stale' && node.latest) item.contextValue = ContextValues.staleClaim;
}

function projectItem(node: Extract<Node, { kind: 'project' }>, ctx: ItemContext): vscode.TreeItem {
  const c = node.continuity;
  // The workspace's own project opens expanded: it is what the person came for.
  const state = node.current ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed;
  const item = new vscode.TreeItem(c.project, state);
  // Another id for the current one: VS Code keeps expansion by id, and a project switched to must open.
  item.id = `project:${c.project}${node.current ? ':current' : ''}`;
  const status = c.checkpoints === 0 ? 'never checkpointed' : c.quiet ? 'quiet' : 'ok';
  const by = `${plainLabel(c.lastAgent, 30)}${node.whose ? ` (${plainLabel(node.whose, 40)})` : ''}`;
  const parts = [
    node.current ? 'current' : '',
    c.checkpoints ? `${ago(ctx.now, c.lastCheckpoint)} by ${by}` : status,
    c.uncommitted ? `${c.uncommitted} uncommitted` : '',
    c.abandoned ? `${c.abandoned} abandoned` : '',
  ];
  const thread = node.thread ? threadWords(node.thread) : undefined;
  if (thread) parts.push(thread.description);
  item.description = parts.filter(Boolean).join(' · ');
  item.iconPath =
    c.abandoned > 0 ? icon('warning', 'list.warningForeground') : c.checkpoints === 0 ? icon('circle-large-outline') : c.quiet ? icon('watch') : icon('pass', 'testing.iconPassed');
  item.contextValue = node.current ? ContextValues.currentProject : ContextValues.project;
  item.tooltip = textTooltip(`${c.project}${node.current ? ' (this workspace)' : ''}`, [
    `Status: ${status}${c.quiet && c.checkpoints ? ' (no checkpoint in the last 14 days)' : ''}`,
    c.checkpoints ? `${c.checkpoints} checkpoints, the last ${ago(ctx.now, c.lastCheckpoint)} by ${c.lastAgent}${node.whose ? ` (${node.whose})` : ''}` : '',
    `${c.uncommitted} uncommitted working notes, ${c.abandoned} abandoned sessions`,
    c.scopes.length ? `Worktrees: ${c.scopes.map((s) => s.slice(s.indexOf('/') + 1)).join(', ')}` : '',
    ...(thread?.tooltip ?? []),
  ]);
  return item;
}

function checkpointItem(cp: Checkpoint, whose: string | undefined, ctx: ItemContext): vscode.TreeItem {
  const item = new vscode.TreeItem(checkpointLabel(cp), vscode.TreeItemCollapsibleState.Collapsed);
  item.id = `checkpoint:${cp.slug}`;
  const who = cp.handoffTo ? `${plainLabel(cp.agent, 30)} → ${plainLabel(cp.handoffTo, 30)}` : plainLabel(cp.agent, 30);
  item.description = [who, whose ? plainLabel(whose, 40) : '', ago(ctx.now, cp.ts), cp.autoClosed ? 'auto-closed' : ''].filter(Boolean).join(' · ');
  item.iconPath = cp.autoClosed ? icon('circle-slash', 'list.warningForeground') : cp.handoffTo ? icon('arrow-swap') : icon('git-commit');
  const claude = claudeSessionOf(cp);
  // A distinct value, so Resume in Claude Code and Open Transcript show only where they can work.
  item.contextValue = claude ? ContextValues.claudeCheckpoint : ContextValues.checkpoint;
  item.tooltip = textTooltip(cp.task || cp.next || cp.session, [
    `${cp.handoffTo ? `${cp.agent}, handed off to ${cp.handoffTo}` : cp.agent}${whose ? ` (${whose})` : ''} · ${ago(ctx.now, cp.ts)} · ${cp.project}`,
    cp.autoClosed ? 'Auto-closed: an abandoned session closed on its agent’s behalf; nobody reviewed it.' : '',
    cp.git.branch || cp.git.commit ? `Git: ${[cp.git.branch, cp.git.commit, cp.git.subject].filter(Boolean).join(' · ')}` : '',
    cp.next ? `Next: ${cp.next}` : '',
    claimsLine(ctx.claims(cp)),
    claude ? `Claude Code session ${claude.id}` : '',
  ]);
  item.command = { command: Commands.openCheckpoint, title: 'Open Checkpoint', arguments: [{ slug: cp.slug }] };
  return item;
}

/** The checkpoint tooltip's word on its claims: `Verified: 1 of 2 claims stale (re-run before relying on them)`, "" without evidence. */
function claimsLine(checks: readonly ClaimCheck[]): string {
  if (!checks.length) return '';
  const stale = checks.filter((c) => c.state === 'stale').length;
  const of = `of ${checks.length === 1 ? '1 claim' : `${checks.length} claims`}`;
  if (stale) return `Verified: ${stale} ${of} stale, a covered file changed since its run: re-run before relying on ${stale === 1 ? 'it' : 'them'}`;
  const unbacked = checks.filter((c) => c.state === 'unbacked').length;
  return unbacked ? `Verified: ${unbacked} ${of} unbacked, the rest fresh` : `Verified: ${checks.length === 1 ? 'its claim' : `all ${checks.length} claims`} fresh`;
}

/** Task, else next step; an auto-closed session has neither, and says what it is rather than showing its id. */
function checkpointLabel(cp: Checkpoint): string {
  const text = plainLabel(cp.task || cp.next, 100);
  if (text) return text;
  if (cp.autoClosed) return 'Abandoned session, closed automatically';
  return plainLabel(cp.state.split('\n')[0] ?? '', 100) || cp.session;
}
