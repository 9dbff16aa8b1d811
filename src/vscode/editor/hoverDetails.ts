// What the checkpoint hover shows beyond the index's answer: the detailed
// checkpoints read from their files, and whether the file has commits since
// each. The lens of a touched file starts fetching them, so by the time a
// person's pointer rests on the first line (a hover delay later) the hover
// has nothing left to wait for.
import type * as vscode from 'vscode';
import type { Touch } from '../../core/model';
import { DETAILED, type HoverEntry } from '../../core/hoverText';
import { FileHistory } from '../../adapters/git/fileHistory';
import type { BatonHost } from '../batonHost';
import { gitAllowed, readConfig } from '../config';
import type { FileTouches } from './fileTouches';

/** The detailed entries plus the listed ones; the rest are counted and a link shows them all. */
export const ENTRIES = 10;
const PREFETCH_AFTER_MS = 50;

export class HoverDetails {
  private readonly history = new FileHistory();

  constructor(
    private readonly host: BatonHost,
    private readonly files: FileTouches,
  ) {}

  /** Starts the hover's reads for a file just found touched; a failure is the hover's to report when it asks. */
  prefetch(uri: vscode.Uri, touches: Touch[]): void {
    if (!readConfig().hover.enabled) return;
    // After the lens has gone out: starting git blocks this thread for a few ms, and the
    // hover comes a hover delay (300 ms by default) later anyway.
    setTimeout(() => this.entries(uri, touches.slice(0, ENTRIES)).catch(() => undefined), PREFETCH_AFTER_MS);
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
