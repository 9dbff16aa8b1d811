// What the checkpoint hover shows beyond the index's answer: the detailed
// checkpoints read from their files, and whether the file has commits since
// each. The lens of a touched file starts building the hover, so by the time a
// person's pointer rests on the first line (a hover delay later) it is ready.
import type * as vscode from 'vscode';
import type { Touch } from '../../core/model';
import { buildHover, DETAILED, type HoverEntry } from '../../core/hoverText';
import { systemClock } from '../../app/openBaton';
import { lastCommits } from '../../app/lastCommits';
import type { BatonHost } from '../batonHost';
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
}

export class HoverDetails {
  private readonly history = lastCommits();
  private readonly built = new Map<string, Built>();

  constructor(
    private readonly host: BatonHost,
    private readonly files: FileTouches,
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
  markdown(uri: vscode.Uri, touches: Touch[]): Promise<vscode.MarkdownString | undefined> {
    const file = uri.toString();
    // Whether git may run is part of the key: turning it off (or trusting the workspace) changes the hover.
    const key = `${gitAllowed()}\n${touches.length}\n${touches
      .slice(0, ENTRIES)
      .map((t) => `${t.slug}@${t.ts}`)
      .join('\n')}`;
    const now = Date.now();
    const hit = this.built.get(file);
    if (hit && hit.key === key && now - hit.at < BUILT_FOR_MS) return hit.markdown;
    const markdown = Promise.all([this.entries(uri, touches.slice(0, ENTRIES)), this.here()]).then(([entries, here]) => {
      const blocks = buildHover({ entries, total: touches.length, now: systemClock.now(), file, here });
      return blocks.length > 0 ? hoverMarkdown(blocks) : undefined;
    });
    this.built.delete(file);
    if (this.built.size >= MAX_BUILT) this.built.delete(this.built.keys().next().value as string);
    const entry = { key, at: now, markdown };
    this.built.set(file, entry);
    // A failed build is not kept: the next ask tries again.
    markdown.catch(() => this.built.get(file) === entry && this.built.delete(file));
    return markdown;
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
        return { touch, checkpoint, changedSince: lastTs > touch.ts };
      }),
    );
  }
}
