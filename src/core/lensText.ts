// The words of the editor's file-level CodeLens and of the "checkpoints of this
// file" pick list. Pure, so they are unit-tested without VS Code.
//
// Everything here is built from checkpoint text, which agents write and shared
// vaults carry: it is made one short line and has VS Code's `$(icon)` syntax
// defused, because lens titles and pick-list labels render those.
import type { Touch } from './model';
import { rootProject } from './names';
import { age } from './time';

const TASK_CHARS = 60;

/**
 * One line of untrusted text for a title or label: whitespace runs (newlines
 * included) become one space, `$(` cannot start an icon, and it is cut on a
 * character boundary with `…`.
 */
export function plainLabel(text: string, max = TASK_CHARS): string {
  const line = text.replace(/\s+/g, ' ').trim().replace(/\$\(/g, '$\u200b(');
  const chars = Array.from(line);
  return chars.length > max
    ? `${chars
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`
    : line;
}

/** A path with a single segment: matched on its file name alone. */
const isBareName = (p: string): boolean => !p.replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+$/, '').includes('/');

/**
 * The touches worth showing on a file of `project`. The contract matches a
 * bare file name in a checkpoint (`README.md`) against any path ending in it,
 * across every project: fine for `baton why`, but on an editor it would put
 * every project's README checkpoints on every README. So checkpoints of other
 * projects count only when they named more than a file name. Without a
 * project (a loose file) everything counts.
 */
export function relevantTouches(touches: readonly Touch[], project: string | undefined): Touch[] {
  if (!project) return [...touches];
  const root = rootProject(project);
  return touches.filter((t) => rootProject(t.project) === root || !isBareName(t.matched));
}

/** `3 checkpoints · last: fix checkout crash · claude · 2h ago`; "" when there are none. */
export function lensTitle(touches: readonly Touch[], now: number): string {
  const last = touches[0];
  if (!last) return '';
  const count = touches.length === 1 ? '1 checkpoint' : `${touches.length} checkpoints`;
  const task = plainLabel(last.task) || last.session;
  return `${count} · last: ${task} · ${plainLabel(last.agent, 30)} · ${age(now - last.ts)} ago`;
}

/** The lens's tooltip: plain text (lens tooltips render no markdown). */
export function lensTooltip(touches: readonly Touch[]): string {
  return touches.length === 1 ? 'A Baton checkpoint touched this file: click to open it' : `${touches.length} Baton checkpoints touched this file: click to pick one`;
}

export interface TouchPick {
  label: string;
  description: string;
  detail: string;
}

/** One entry of the pick list: task, then who and when, then where and how it was matched. */
export function touchPick(t: Touch, now: number, currentProject?: string): TouchPick {
  // The scope is worth saying only when it is not the one the person is in.
  const where = t.project !== currentProject ? `${t.project} · ` : '';
  return {
    label: plainLabel(t.task) || t.session,
    description: `${plainLabel(t.agent, 30)} · ${age(now - t.ts)} ago`,
    detail: plainLabel(`${where}${t.session} · named as ${t.matched}`, 120),
  };
}
