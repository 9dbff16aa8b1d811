// A checkpoint's Verified claims as the editor shows them (issue 26): judged
// by app/evidence's claimChecks against the workspace folder that is the
// checkpoint's project (another project's files prove nothing), its hashes
// cached per file, mtime and size there, so asking again costs a stat a file.
// A save of a covered file is announced, so the trees draw the claim stale
// without waiting for a vault change; the hover checks its built text against
// the claims' states itself.
import * as path from 'path';
import * as vscode from 'vscode';
import { claimChecks } from '../app/evidence';
import type { ClaimCheck } from '../core/evidence';
import type { Checkpoint } from '../core/model';
import type { BatonHost } from './batonHost';
import { Disposable } from './lifecycle';
import { workspaceCommitPlace } from './workspaceGit';

/** A burst of saves (Save All) redraws the trees once. */
const SAVES_SETTLE_MS = 200;

export class ClaimChecks extends Disposable {
  private readonly emitter = this.register(new vscode.EventEmitter<void>());
  /** A file some checked claim covers was saved: its state may have changed. */
  readonly onDidChange = this.emitter.event;
  /** Absolute paths of the files the claims checked so far cover. */
  private readonly covered = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly host: BatonHost) {
    super();
    this.register(
      vscode.workspace.onDidSaveTextDocument((doc) => {
        if (doc.uri.scheme !== 'file' || !this.covered.has(doc.uri.fsPath)) return;
        clearTimeout(this.timer);
        this.timer = setTimeout(() => this.emitter.fire(), SAVES_SETTLE_MS);
      }),
    );
    this.register({ dispose: () => clearTimeout(this.timer) });
  }

  /** The workspace folder that is the checkpoint's project, if it is open here. */
  folderOf(cp: Pick<Checkpoint, 'project'>): string | undefined {
    return workspaceCommitPlace(this.host.project, cp.project).folder ?? undefined;
  }

  /** Its claims judged now; [] without evidence or with its project not open in this window. */
  of(cp: Checkpoint): ClaimCheck[] {
    const folder = this.folderOf(cp);
    const checks = claimChecks(cp, folder);
    if (folder) for (const f of checks[0]?.files ?? []) this.covered.add(path.resolve(folder, f));
    return checks;
  }

  /**
   * Whether Re-run Verification is offered on its stale claims: a trusted
   * workspace (it runs the claims' commands), its project open here, and the
   * scope's latest checkpoint (what `baton verify --run` re-runs).
   */
  async rerunnable(cp: Checkpoint): Promise<boolean> {
    if (!vscode.workspace.isTrusted || !this.folderOf(cp)) return false;
    const latest = (await this.host.session.history(cp.project).catch(() => []))[0];
    return latest?.slug === cp.slug;
  }
}

/** A string that changes when any claim's state or changed files do: a built hover is kept only while it holds. */
export const checksKey = (checks: readonly ClaimCheck[]): string => checks.map((c) => `${c.state}:${c.changed.join(',')}`).join(';');
