// One agent blame per file revision, shared by the current-line annotation,
// the line hover, the status bar and the whole-file toggle. Git's answer is
// kept per document version and where HEAD points (read from the git folder,
// no process), computed off the typing path (callers ask after an idle pause)
// and aborted when a newer version is asked for. A vault change attributes
// the kept answers again without git (a working note changes nothing, and
// costs nothing). A cursor move reads `peek`, which answers synchronously.
import * as path from 'path';
import * as vscode from 'vscode';
import { AgentBlame, type BlameAnswer, type BlameResult } from '../../app/blame';
import type { BatonHost } from '../batonHost';
import { gitAllowed } from '../config';
import { Disposable } from '../lifecycle';
import type { Log } from '../log';

/** Past this many lines, unsaved edits are not re-blamed: the file is blamed from disk once per HEAD, and shown only while saved. */
export const LARGE_FILE_LINES = 20_000;
const MAX_FILES = 50;

interface Entry {
  uri: vscode.Uri;
  version: number;
  key: string;
  answer: Promise<BlameAnswer | undefined>;
  result: Promise<BlameResult | undefined>;
  done?: BlameResult;
  abort: AbortController;
}

export class LineBlameCache extends Disposable {
  private readonly blame: AgentBlame;
  private readonly entries = new Map<string, Entry>();
  private readonly changed = this.register(new vscode.EventEmitter<vscode.Uri | undefined>());
  /** A blame finished (with the document's URI) or everything was dropped (undefined). */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly host: BatonHost,
    private readonly log: Log,
  ) {
    super();
    this.blame = new AgentBlame(() => host.session.baton);
    // A new checkpoint may cover commits nobody owned: attribute again what git said.
    this.register(host.onDidChange(() => this.attributeAll()));
    this.register(host.onDidChangeVault(() => this.clear()));
    this.register(vscode.workspace.onDidCloseTextDocument((d) => this.drop(d.uri)));
    this.register({ dispose: () => this.clear() });
  }

  /** What is known for this exact version of the document, without waiting; undefined while it is being blamed. */
  /** This machine's id, for saying whose a session was where the file's come from several machines; "" when none. */
  machine(): Promise<string> {
    return this.host.session.baton.machine().catch(() => '');
  }

  peek(doc: vscode.TextDocument): BlameResult | undefined {
    const e = this.entries.get(doc.uri.toString());
    return e && e.version === doc.version ? e.done : undefined;
  }

  /** The blame of this version (joined if under way); undefined where git may not run or the file is not blameable here. */
  async get(doc: vscode.TextDocument): Promise<BlameResult | undefined> {
    if (!this.applies(doc)) return undefined;
    const uri = doc.uri.toString();
    const large = doc.lineCount > LARGE_FILE_LINES;
    if (large && doc.isDirty) return undefined;
    const head = (await this.blame.head(path.dirname(doc.uri.fsPath))) ?? '';
    // A large file's key leaves the version out: its blame is of the saved file, once per HEAD.
    const key = `${head}\0${large ? 'saved' : doc.version}\0${gitAllowed()}`;
    const hit = this.entries.get(uri);
    if (hit && hit.key === key) {
      hit.version = doc.version;
      return hit.result;
    }
    hit?.abort.abort();
    const abort = new AbortController();
    const contents = doc.isDirty ? doc.getText() : undefined;
    const answer = this.blame.gitBlame(doc.uri.fsPath, { contents, enabled: gitAllowed(), signal: abort.signal }).catch((err: unknown) => {
      if (!abort.signal.aborted) this.log.error(`Agent blame of ${doc.uri.fsPath} failed`, err);
      return undefined;
    });
    const entry: Entry = { uri: doc.uri, version: doc.version, key, abort, answer, result: Promise.resolve(undefined) };
    this.entries.delete(uri);
    if (this.entries.size >= MAX_FILES) this.drop(vscode.Uri.parse(this.entries.keys().next().value as string));
    this.entries.set(uri, entry);
    entry.result = this.attribute(entry);
    return entry.result;
  }

  private attribute(entry: Entry): Promise<BlameResult | undefined> {
    const uri = entry.uri.toString();
    return entry.answer
      .then((answer) => (answer ? this.blame.attribute(entry.uri.fsPath, answer, entry.abort.signal) : undefined))
      .then((r) => {
        if (this.entries.get(uri) !== entry || !r) return r;
        const same = entry.done === r;
        entry.done = r;
        if (!same) this.changed.fire(entry.uri);
        return r;
      })
      .catch((err: unknown) => {
        if (!entry.abort.signal.aborted) this.log.error(`Agent blame of ${entry.uri.fsPath} failed`, err);
        return entry.done;
      });
  }

  /** The vault changed: every kept answer is attributed again; what shows stays until the new attribution is in. */
  private attributeAll(): void {
    for (const e of this.entries.values()) e.result = this.attribute(e);
  }

  private applies(doc: vscode.TextDocument): boolean {
    if (doc.uri.scheme !== 'file' || this.host.state !== 'ready' || !gitAllowed()) return false;
    // A checkpoint file in the vault would be blamed against itself.
    return !this.host.session.contains(doc.uri.fsPath);
  }

  private drop(uri: vscode.Uri): void {
    const key = uri.toString();
    this.entries.get(key)?.abort.abort();
    this.entries.delete(key);
  }

  private clear(): void {
    for (const e of this.entries.values()) e.abort.abort();
    this.entries.clear();
    this.changed.fire(undefined);
  }
}
