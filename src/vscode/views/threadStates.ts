// The shared thread's state on the Projects view's rows (issue 28): for a
// project that is a folder of this window whose repository shares the thread
// (Baton's agent-thread/), what `baton thread status` says, from the same app
// function (app/threadRefresh threadStatus). It runs git, so it is read in the
// background and kept until the vault, the folder's agent-thread/ or its refs
// change: the tree never waits on git. Nothing runs unless gitAllowed() (a
// trusted workspace, baton.git.enabled): a repository's config can start programs.
import * as vscode from 'vscode';
import { homeOf } from '../../app/projectDir';
import { threadStatus, type ThreadStatus } from '../../app/threadRefresh';
import { BatonError } from '../../core/errors';
import { rootProject } from '../../core/names';
import type { BatonHost } from '../batonHost';
import { affects, gitAllowed } from '../config';
import { Disposable, timerDisposable } from '../lifecycle';
import type { Log } from '../log';

/** A burst of git's writes (a commit touches refs, logs and HEAD) becomes one read. */
const SETTLE_MS = 300;

/** What the row says: its description's words and its tooltip's lines. */
export function threadWords(s: ThreadStatus): { description: string; tooltip: string[] } {
  const committed = { current: 'current', behind: 'committed hand-over behind the vault', uncommitted: 'hand-over not committed' }[s.committed];
  const waiting = s.checkpoints.unpulled;
  const said = { current: 'current', behind: 'behind the vault', uncommitted: 'not committed', missing: 'missing' };
  return {
    description: ['thread shared', committed, waiting ? `${waiting} cloud checkpoint${waiting === 1 ? '' : 's'} to pull` : ''].filter(Boolean).join(' · '),
    tooltip: [
      `Thread shared with cloud agents in ${s.folder}/: the committed hand-over is ${said[s.committed]}, the working tree's is ${said[s.workingTree]}.`,
      `Cloud checkpoints on the branches: ${s.checkpoints.pulled} pulled, ${waiting} waiting to be pulled (Sync Vault brings them home)${s.checkpoints.refused ? `, ${s.checkpoints.refused} a pull refuses` : ''}.`,
    ],
  };
}

export class ThreadStates extends Disposable {
  /** By project: the status, or null when its folder shares no thread (or git may not run). */
  private readonly known = new Map<string, ThreadStatus | null>();
  private readonly reading = new Set<string>();
  /** Bumped by each change: a read begun before it is dropped, not cached. */
  private generation = 0;
  private watcher: vscode.Disposable | undefined;
  private soon: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly host: BatonHost,
    private readonly log: Log,
    /** Called when a read finished with something new: the view asks again. */
    private readonly changed: () => void,
  ) {
    super();
    this.register(host.onDidChange(() => this.forget()));
    this.register(vscode.workspace.onDidChangeWorkspaceFolders(() => this.watch()));
    this.register(vscode.workspace.onDidGrantWorkspaceTrust(() => this.forget(true)));
    this.register(vscode.workspace.onDidChangeConfiguration((e) => affects(e, 'git') && this.forget(true)));
    this.register({ dispose: () => this.watcher?.dispose() });
    this.register(timerDisposable(() => this.soon && clearTimeout(this.soon)));
    this.watch();
  }

  /**
   * The thread state of `project` (a root project), when a folder of this
   * window is it and shares the thread; undefined until known, the read then
   * started in the background.
   */
  of(project: string): ThreadStatus | undefined {
    if (!gitAllowed()) return undefined;
    const folder = this.folderOf(project);
    if (!folder) return undefined;
    if (this.known.has(project)) return this.known.get(project) ?? undefined;
    if (!this.reading.has(project)) void this.read(project, folder);
    return undefined;
  }

  private folderOf(project: string): string | undefined {
    const f = (vscode.workspace.workspaceFolders ?? []).find((w) => w.uri.scheme === 'file' && rootProject(this.host.project.ofUri(w.uri) ?? '') === project);
    return f?.uri.fsPath;
  }

  /** How many reads (Baton's git, in the background) have started: what shows that none starts while git may not run. */
  reads = 0;

  private async read(project: string, folder: string): Promise<void> {
    const generation = this.generation;
    this.reads++;
    this.reading.add(project);
    let s: ThreadStatus | null = null;
    try {
      s = await threadStatus(this.host.session.baton, { cwd: folder, home: homeOf(process.env), vault: this.host.session.root });
      // The hand-over is another project's: this row's project does not share its thread here.
      if (rootProject(s.project) !== project) s = null;
    } catch (err) {
      // Refused is the usual case (no repository, no agent-thread/ of Baton's in it): the row says nothing.
      if (!(err instanceof BatonError)) this.log.error(`Reading the shared thread of ${project} in ${folder} failed`, err);
    } finally {
      this.reading.delete(project);
    }
    if (generation !== this.generation || this.isDisposed) return;
    this.known.set(project, s);
    if (s) this.changed();
  }

  /** Drops what is known; `tell`: the rows change now (a row may lose its thread when git is turned off). */
  private forget(tell = false): void {
    this.generation++;
    this.known.clear();
    if (tell) this.changed();
  }

  /**
   * Each folder's agent-thread/ (the refresh and enable write there) and git's
   * refs and HEAD (a commit, a fetch, a new branch): the committed hand-over
   * and the branches' checkpoints are read from them.
   */
  private watch(): void {
    this.watcher?.dispose();
    this.forget();
    const watchers = (vscode.workspace.workspaceFolders ?? [])
      .filter((f) => f.uri.scheme === 'file')
      .map((f) => {
        const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(f, '{agent-thread/**,.git/HEAD,.git/packed-refs,.git/refs/**,.git/logs/**}'));
        const later = (): void => this.later();
        w.onDidCreate(later);
        w.onDidChange(later);
        w.onDidDelete(later);
        return w;
      });
    this.watcher = vscode.Disposable.from(...watchers);
  }

  private later(): void {
    if (this.soon) clearTimeout(this.soon);
    this.soon = setTimeout(() => {
      this.soon = undefined;
      this.forget(true);
    }, SETTLE_MS);
  }
}
