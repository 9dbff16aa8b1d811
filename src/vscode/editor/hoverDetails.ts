// What the checkpoint hover shows beyond the index's answer: the detailed
// checkpoints read from their files, and whether the file has commits since
// each. The lens of a touched file starts building the hover, so by the time a
// person's pointer rests on the first line (a hover delay later) it is ready.
import type * as vscode from 'vscode';
import type { Checkpoint, Touch } from '../../core/model';
import { buildHover, DETAILED, type HoverEntry } from '../../core/hoverText';
import { systemClock } from '../../app/openBaton';
import { lastCommits } from '../../app/lastCommits';
import type { BatonHost } from '../batonHost';
import { checksKey, type ClaimChecks } from '../claimChecks';
import { gitAllowed, readConfig } from '../config';
import { hoverMarkdown } from '../markdown';
import type { FileTouches } from './fileTouches';

/** The detailed entries plus the listed ones; the rest are counted and a link shows them all. */
export const ENTRIES = 10;
const PREFETCH_AFTER_MS = 50;
/** A built hover says "2h ago": after this long it is built again. */
const BUILT_FOR_MS = 60_000;
const MAX_BUILT = 100;

interface Built {
  key: string;
  at: number;
  markdown: Promise<vscode.MarkdownString | undefined>;
  /** The checkpoints whose claims it shows, and their states then: a save since that turned one stale rebuilds it. */
  claims: Promise<{ checkpoints: Checkpoint[]; key: string }>;
}

export class HoverDetails {
  private readonly history = lastCommits();
  private readonly built = new Map<string, Built>();

  constructor(
    private readonly host: BatonHost,
    private readonly files: FileTouches,
    private readonly claims: ClaimChecks,
  ) {}

  /** Starts the hover's reads for a file just found touched; a failure is the hover's to report when it asks. */
  prefetch(uri: vscode.Uri, touches: Touch[]): void {
    if (!readConfig().hover.enabled) return;
    // After the lens has gone out: starting git blocks this thread for a few ms, and the
    // hover comes a hover delay (300 ms by default) later anyway.
    setTimeout(() => this.markdown(uri, touches).catch(() => undefined), PREFETCH_AFTER_MS);
  }

  /** Forgets every built hover (the vault changed: a checkpoint may have been rewritten in place). */
  clear(): void {
    this.built.clear();
  }

  /** The hover's markdown for a file and the index's answer about it, built once and kept a minute. */
  async markdown(uri: vscode.Uri, touches: Touch[]): Promise<vscode.MarkdownString | undefined> {
    const file = uri.toString();
    // Whether git may run is part of the key: turning it off (or trusting the workspace) changes the hover.
    const key = `${gitAllowed()}\n${touches.length}\n${touches
      .slice(0, ENTRIES)
      .map((t) => `${t.slug}@${t.ts}`)
      .join('\n')}`;
    const now = Date.now();
    const hit = this.built.get(file);
    if (hit && hit.key === key && now - hit.at < BUILT_FOR_MS && (await this.claimsHold(hit))) return hit.markdown;
    const built = Promise.all([this.entries(uri, touches.slice(0, ENTRIES)), this.here()]);
    const markdown = built.then(([entries, here]) => {
      const blocks = buildHover({ entries, total: touches.length, now: systemClock.now(), file, here });
      return blocks.length > 0 ? hoverMarkdown(blocks) : undefined;
    });
    const claims = built.then(([entries]) => {
      const shown = entries.filter((e) => e.claims?.length && e.checkpoint);
      return { checkpoints: shown.map((e) => e.checkpoint as Checkpoint), key: shown.map((e) => checksKey(e.claims ?? [])).join('|') };
    });
    claims.catch(() => undefined);
    this.built.delete(file);
    if (this.built.size >= MAX_BUILT) this.built.delete(this.built.keys().next().value as string);
    const entry = { key, at: now, markdown, claims };
    this.built.set(file, entry);
    // A failed build is not kept: the next ask tries again.
    markdown.catch(() => this.built.get(file) === entry && this.built.delete(file));
    return markdown;
  }

  /** Whether the claims a built hover shows are as they were (a stat a covered file: their hashes are cached per mtime). */
  private async claimsHold(hit: Built): Promise<boolean> {
    const then = await hit.claims.catch(() => undefined);
    return then !== undefined && then.checkpoints.map((cp) => checksKey(this.claims.of(cp))).join('|') === then.key;
  }

  /** This machine's id (kept by the vault adapter after its first read): "" when none, and the hover says no machine. */
  private here(): Promise<string> {
    return this.host.session.baton.machine().catch(() => '');
  }

  async entries(uri: vscode.Uri, touches: Touch[]): Promise<HoverEntry[]> {
    const q = this.files.queryOf(uri);
    // Git runs only in a trusted workspace: a repository's config can start programs.
    const git = gitAllowed() && q?.folder ? { dir: q.folder.uri.fsPath, file: q.query } : undefined;
    // One git question per file, whatever the number of checkpoints: its last commit time against each checkpoint's.
    const last = git ? this.history.lastCommitTime(git.dir, git.file) : Promise.resolve(0);
    return Promise.all(
      touches.map(async (touch, i): Promise<HoverEntry> => {
        if (i >= DETAILED) return { touch, checkpoint: null, changedSince: false };
        const [checkpoint, lastTs] = await Promise.all([this.host.session.checkpoint(touch.slug), last]);
        const claims = checkpoint ? this.claims.of(checkpoint) : [];
        const rerun = checkpoint !== null && claims.some((c) => c.state === 'stale') && (await this.claims.rerunnable(checkpoint));
        return { touch, checkpoint, changedSince: lastTs > touch.ts, ...(claims.length ? { claims, rerun } : {}) };
      }),
    );
  }
}
