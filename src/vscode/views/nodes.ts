// The plain data behind every tree item. Models never extend TreeItem: a node
// is what a provider knows, and `items.ts` decides how it looks. Tests read
// these nodes through the providers to check what each view holds.
import type { Abandoned, Checkpoint, Plan, ProjectContinuity, Touch } from '../../core/model';
import type { ThreadStatus } from '../../app/threadRefresh';

export type SectionKey = 'failed' | 'verified' | 'blockers' | 'decisions' | 'questions' | 'files' | 'next';

// `whose`: the machine or person a project's last checkpoint, or a checkpoint, came from; set only where the
// project is written from more than one machine (views/whose.ts), so a person alone sees what they always saw.
export type Node =
  // `thread`: what `baton thread status` says, for a project open in this window whose repository shares the thread (views/threadStates.ts).
  | { kind: 'project'; continuity: ProjectContinuity; current: boolean; whose?: string; thread?: ThreadStatus }
  | { kind: 'scope'; scope: string; current: boolean }
  // `latest`: the scope's newest checkpoint, whose stale claims `baton verify --run` re-runs (Re-run Verification is offered there).
  | { kind: 'checkpoint'; checkpoint: Checkpoint; whose?: string; latest?: boolean }
  | { kind: 'section'; checkpoint: Checkpoint; section: SectionKey; latest?: boolean }
  | { kind: 'sectionItem'; checkpoint: Checkpoint; section: SectionKey; index: number; text: string; latest?: boolean }
  | { kind: 'abandoned'; abandoned: Abandoned }
  | { kind: 'planGroup'; scope: string; plans: Plan[]; current: boolean }
  | { kind: 'plan'; plan: Plan }
  // `claude`: its checkpoint is bound to a Claude Code session (a Touch from the index does not say).
  | { kind: 'touch'; touch: Touch; claude?: boolean }
  // `from`: where the older checkpoints start when they open in place (the current project); without it a click switches to the scope.
  | { kind: 'more'; scope: string; hidden: number; from?: number }
  // The current project before its first checkpoint: says so, and commits one on a click.
  | { kind: 'noCheckpoints'; scope: string };

export const SECTION_TITLES: Record<SectionKey, string> = {
  failed: "Didn't work",
  verified: 'Verified',
  blockers: 'Blockers',
  decisions: 'Decisions',
  questions: 'Open questions',
  files: 'Files',
  next: 'Next',
};

/** The sections a checkpoint expands to, in the order a person acts on them: ruled out first. */
export const SECTION_ORDER: SectionKey[] = ['failed', 'blockers', 'verified', 'decisions', 'questions', 'files', 'next'];

export function sectionItems(cp: Checkpoint, section: SectionKey): string[] {
  if (section === 'next') return cp.next ? [cp.next] : [];
  const files = section === 'files' ? [...new Set([...cp.files, ...cp.git.files])] : undefined;
  return files ?? cp[section];
}

/** Children of a checkpoint: its non-empty sections. Shared by every view that lists checkpoints. */
export function sectionsOf(cp: Checkpoint, latest?: boolean): Node[] {
  return SECTION_ORDER.filter((s) => sectionItems(cp, s).length > 0).map((section) => ({ kind: 'section', checkpoint: cp, section, ...(latest ? { latest } : {}) }));
}

export function sectionChildren(cp: Checkpoint, section: SectionKey, latest?: boolean): Node[] {
  return sectionItems(cp, section).map((text, index) => ({ kind: 'sectionItem', checkpoint: cp, section, index, text, ...(latest ? { latest } : {}) }));
}
