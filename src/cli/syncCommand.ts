// `baton sync [--json]`, `baton sync --init [--remote URL]`, `baton sync --clone URL`:
// the vault shared through git. Exit 0 when synced, 1 with what to do when not.
import { usage } from '../core/errors';
import { SyncError, syncVault, type SyncResult } from '../app/sync';
import { cloneSharedVault, initSharedVault } from '../app/syncSetup';
import { pullThreadHere } from '../app/threadRefresh';
import type { PullReport } from '../app/threadPull';
import { str } from './args';
import type { CommandInput } from './commands';
import type { Context } from './context';
import { usageLine } from './usage';

const HELP = usageLine('sync');

function summary(r: SyncResult): string {
  const parts = [`committed ${r.committed} file(s)`, `pulled ${r.pulled} commit(s)`, `pushed ${r.pushed} commit(s)`];
  const lines = [`Synced: ${parts.join(', ')}.`];
  for (const x of r.renamed) lines.push(`Renamed ${x.from} -> ${x.to} (the same name was taken on another machine).`);
  for (const p of r.unreadable) lines.push(`Kept ${p}, which arrived by sync but cannot be read as Baton's; check it by hand.`);
  for (const x of r.refused) lines.push(`Refused ${x.path}: ${x.reason}.`);
  return lines.join('\n') + '\n';
}

/**
 * After the vault's sync, the checkpoints cloud agents left on the branches of
 * the repository this folder is in, when it shares the thread (issue 28). Its
 * failure is reported, never the sync's: the vault is synced by then.
 */
async function threadPulled(ctx: Context): Promise<PullReport | { error: string } | null> {
  try {
    return await pullThreadHere(ctx.core(), ctx.io.cwd);
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

function threadLine(t: PullReport | { error: string }): string {
  if ('error' in t) return `Thread: not pulled: ${t.error}\n`;
  const rejected = t.rejected.length ? `, ${t.rejected.length} file(s) rejected (baton thread pull says why)` : '';
  return `Thread: imported ${t.imported.length} checkpoint(s) from the repository's branches${rejected}.\n`;
}

export async function sync(ctx: Context, { values, positionals }: CommandInput<'sync'>): Promise<number> {
  if (positionals.length) throw usage(`Unexpected "${positionals[0]}". ${HELP}`);
  const remote = str(values.remote);
  const clone = str(values.clone);
  if (clone !== undefined && (values.init || remote !== undefined)) throw usage(`--clone joins a shared vault; --init shares this one: give one of them. ${HELP}`);
  if (remote !== undefined && !values.init) throw usage(`--remote goes with --init (baton sync --init --remote URL). ${HELP}`);
  if ((clone !== undefined && !clone.trim()) || (remote !== undefined && !remote.trim())) throw usage(`Give the remote's URL. ${HELP}`);
  try {
    if (values.init || clone !== undefined) {
      const r = clone !== undefined ? await cloneSharedVault(ctx.vault, clone) : await initSharedVault(ctx.vault, remote);
      if (values.json) ctx.json({ vault: ctx.vault, steps: r.steps, ...(r.sync ?? {}) });
      else ctx.io.out(r.steps.join('\n') + '\n' + (r.sync ? summary(r.sync) : ''));
      return 0;
    }
    const r = await syncVault(ctx.vault);
    const thread = await threadPulled(ctx);
    if (values.json) ctx.json(thread ? { ...r, thread: 'error' in thread ? thread : { imported: thread.imported, rejected: thread.rejected } } : r);
    else ctx.io.out(summary(r) + (thread ? threadLine(thread) : ''));
    return 0;
  } catch (err) {
    if (err instanceof SyncError && values.json) ctx.json({ ...err.result, error: err.message, reason: err.reason });
    throw err;
  }
}
