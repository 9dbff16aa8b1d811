// Baton: Search… — a quick pick that searches the vault as you type.
//
// What VS Code's API allows here (checked in the extension host of 1.100.3
// and of 1.139.1, `ExtHostQuickPick` items setter in
// out/vs/workbench/api/node/extensionHostProcess.js): an item crosses to the
// workbench as label, iconPath, description, detail, picked, alwaysShow,
// tooltip, buttons (and resourceUri in 1.139); there are no highlights an
// extension can set. The workbench highlights what the typed text matches
// itself (`matchOnDescription`, `matchOnDetail`), so the snippet sits in the
// detail, where the words typed are highlighted as they appear. Items are
// `alwaysShow`, since a stemmed hit ("mocking" for "mock") or one holding
// only some of the words may not match the typed text literally. And the
// workbench re-sorts items whose *label* matches the typed text first
// (`sortByLabel`, settable only through the proposed
// vscode.proposed.quickPickSortByLabel.d.ts), so the label holds only the
// kind's icon and Baton's ranking stands.
//
// No keybinding: Ctrl/Cmd+Alt+B, the one the issue suggests, is VS Code's
// Toggle Secondary Side Bar (workbench.action.toggleAuxiliaryBar,
// `keybinding:{primary:2592}` = CtrlCmd|Alt|KeyB in 1.139.1's workbench.js).
import * as vscode from 'vscode';
import { systemClock } from '../../app/openBaton';
import type { TextHit } from '../../core/ports';
import { hitLine, searchPickText } from '../../core/searchPick';
import type { BatonHost } from '../batonHost';
import type { Log } from '../log';
import { asArgs, str } from './args';

/** Typing pauses this long before the vault is searched. */
const DEBOUNCE_MS = 150;
const LIMIT = 50;

export interface SearchItem extends vscode.QuickPickItem {
  hit?: TextHit;
}

/** What the command returns, for tests: the pick's items once the search for `query` (when given) settled. */
export interface SearchPickHandle {
  items: readonly SearchItem[];
  matchOnDetail: boolean;
}

export class SearchCommand {
  constructor(
    private readonly host: BatonHost,
    private readonly log: Log,
  ) {}

  /** `{query}` starts the pick with that text typed, `{project}` keeps to one project (tests, a keybinding's args). */
  search = async (arg?: unknown): Promise<SearchPickHandle> => {
    const project = str(asArgs(arg).project);
    const qp = vscode.window.createQuickPick<SearchItem>();
    qp.title = 'Baton: Search';
    qp.placeholder = 'Words to find in checkpoints, working notes and plans (stemmed: mock finds mocking)';
    qp.matchOnDescription = true;
    qp.matchOnDetail = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Each keystroke starts a new generation; a search whose generation is
    // stale when it returns is dropped, so typing on cancels it.
    let generation = 0;
    let settle: (items: readonly SearchItem[]) => void = () => undefined;
    const run = async (value: string, mine: number): Promise<void> => {
      let items: SearchItem[] = [];
      if (value.trim()) {
        try {
          const hits = await this.host.session.baton.search({ query: value, project, limit: LIMIT });
          items = hits.length ? hits.map((h) => this.itemOf(h)) : [{ label: '$(info)', description: 'Nothing in the vault matches', alwaysShow: true }];
        } catch (err) {
          this.log.warn(`Search: ${err instanceof Error ? err.message : String(err)}`);
          items = [{ label: '$(info)', description: err instanceof Error ? err.message : String(err), alwaysShow: true }];
        }
      }
      if (mine !== generation) return;
      qp.items = items;
      qp.busy = false;
      settle(items);
    };
    const changed = (value: string): void => {
      if (timer) clearTimeout(timer);
      const mine = ++generation;
      qp.busy = value.trim() !== '';
      timer = setTimeout(() => void run(value, mine), DEBOUNCE_MS);
    };
    qp.onDidChangeValue(changed);
    qp.onDidAccept(() => {
      const hit = qp.selectedItems[0]?.hit;
      if (!hit) return;
      qp.hide();
      void this.open(hit);
    });
    qp.onDidHide(() => {
      if (timer) clearTimeout(timer);
      generation += 1;
      qp.dispose();
    });
    qp.show();
    const query = typeof asArgs(arg).query === 'string' ? (asArgs(arg).query as string) : undefined;
    if (!query) return { items: [], matchOnDetail: qp.matchOnDetail };
    const first = new Promise<readonly SearchItem[]>((resolve) => (settle = resolve));
    qp.value = query;
    // Setting the value from code does not fire onDidChangeValue in every VS Code.
    changed(query);
    return { items: await first, matchOnDetail: qp.matchOnDetail };
  };

  private itemOf(hit: TextHit): SearchItem {
    const t = searchPickText(hit, systemClock.now());
    return { label: `$(${t.icon})`, description: t.description, detail: t.detail, alwaysShow: true, hit };
  }

  /** Opens the hit's file at the section that matched. */
  private async open(hit: TextHit): Promise<vscode.TextEditor | undefined> {
    const file = this.host.session.fileOf(hit.slug);
    if (!file) {
      void vscode.window.showErrorMessage(`Baton: no such file in the vault (${hit.slug}).`);
      return undefined;
    }
    try {
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
      const line = Math.min(hitLine(doc.getText(), hit), Math.max(0, doc.lineCount - 1));
      const at = new vscode.Range(line, 0, line, 0);
      return await vscode.window.showTextDocument(doc, { preview: true, selection: at });
    } catch (err) {
      this.log.warn(`Opening a search hit: ${err instanceof Error ? err.message : String(err)}`);
      void vscode.window.showErrorMessage(`Baton could not open ${hit.slug}: ${err instanceof Error ? err.message : String(err)}`);
      return undefined;
    }
  }
}
