// Commands that write to the vault: note, checkpoint, handoff, plan.
import { parseBody } from '../core/checkpointBody';
import { usage } from '../core/errors';
import type { CheckpointFields } from '../core/model';
import { checkpointFields } from '../app/checkpointFields';
import { commitCheckpoint, type CheckpointResult } from '../app/commit';
import { pendingNotesDir } from '../app/vaultFiles';
import { str } from './args';
import type { CommandInput } from './commands';
import type { Context } from './context';
import { usageLine } from './usage';

export async function note(ctx: Context, { values, positionals }: CommandInput<'note'>): Promise<number> {
  const text = positionals.join(' ');
  if (!text.trim()) throw usage(`What is the note? ${usageLine('note')}`);
  const r = await ctx.core().note(ctx.project(str(values.project)), ctx.agent(str(values.agent)), text, ctx.time(str(values.at)));
  if (values.json) ctx.json({ ...r.note, durable: r.durable, redactions: r.redactions });
  if (r.redactions) ctx.io.err(`Masked ${r.redactions} secret(s) before writing.\n`);
  if (!r.durable) ctx.io.err(`The note was kept in ${pendingNotesDir(ctx.vault)} but is not yet durable: ${r.reason}\n`);
  return 0;
}

async function fieldsFrom(ctx: Context, values: CommandInput<'checkpoint'>['values']): Promise<Partial<CheckpointFields>> {
  // The flags' names are the CLI's own; the fields are the model's.
  const flags: Partial<CheckpointFields> = checkpointFields({
    task: values.task,
    intent: values.intent,
    state: values.state,
    next: values.next,
    decisions: values.decided,
    failed: values.failed,
    verified: values.verified,
    blockers: values.blocker,
    commands: values.ran,
    questions: values.question,
    files: values.file,
  });
  const piped = await ctx.io.stdin();
  if (!piped.trim()) return flags;
  // Markdown on stdin fills what the flags left empty; a flag always wins.
  const body = parseBody(piped);
  const out: Record<string, unknown> = { ...flags };
  for (const [key, value] of Object.entries(body)) {
    const current = out[key];
    const empty = Array.isArray(current) ? current.length === 0 : !current;
    if (empty && value !== undefined) out[key] = value;
  }
  return out as Partial<CheckpointFields>;
}

async function commitWith(ctx: Context, command: 'checkpoint' | 'handoff', { values, positionals }: CommandInput<'handoff'>): Promise<number> {
  if (positionals.length) throw usage(`Unexpected "${positionals[0]}": checkpoint text goes in flags (--task "…") or markdown on stdin.`);
  const handoffTo = str(values.to) ?? str(values.handoff);
  if (command === 'handoff' && !handoffTo?.trim()) throw usage(`Who takes over? ${usageLine('handoff')}`);
  const r = await commitCheckpoint(ctx.core(), {
    scope: ctx.project(str(values.project)),
    agent: ctx.agent(str(values.agent)),
    fields: await fieldsFrom(ctx, values),
    handoffTo,
    at: ctx.time(str(values.at)),
    folder: ctx.io.cwd,
  });
  if (values.json) {
    ctx.json({ session: r.checkpoint.session, slug: r.checkpoint.slug, path: r.path, redactions: r.redactions, ...(r.thread ? { thread: r.thread } : {}) });
  } else {
    const extras = [r.folded ? `folded ${r.folded} note(s)` : '', r.redactions ? `masked ${r.redactions} secret(s)` : ''].filter(Boolean);
    ctx.io.out(`Checkpoint ${r.checkpoint.session}${handoffTo ? ` for ${r.checkpoint.handoffTo}` : ''}: ${r.path}${extras.length ? ` (${extras.join(', ')})` : ''}\n`);
    if (r.thread) ctx.io.out(threadLine(r.thread));
  }
  return 0;
}

/** The shared thread's refresh after a checkpoint (issue 28): what to commit, or why it was not refreshed (the checkpoint stands). */
function threadLine(t: NonNullable<CheckpointResult['thread']>): string {
  if ('error' in t) return `The shared thread was not refreshed: ${t.error}\n`;
  const changed = [...t.written, ...t.removed];
  return changed.length ? `Refreshed the shared thread (commit it with your work): ${changed.join(', ')}\n` : '';
}

export const checkpoint = (ctx: Context, input: CommandInput<'checkpoint'>): Promise<number> => commitWith(ctx, 'checkpoint', input);
export const handoff = (ctx: Context, input: CommandInput<'handoff'>): Promise<number> => commitWith(ctx, 'handoff', input);

export async function plan(ctx: Context, { values, positionals }: CommandInput<'plan'>): Promise<number> {
  const text = (await ctx.io.stdin()) || positionals.join(' ');
  const r = await ctx.core().savePlan(ctx.project(str(values.project)), ctx.agent(str(values.agent)), text, ctx.time(str(values.at)));
  if (values.json) ctx.json({ ...r.plan, redactions: r.redactions });
  else ctx.io.out(`Plan saved: ${r.plan.slug}.md\n`);
  return 0;
}
