// Controllers decide, providers provide: this registers the CodeLens and hover
// providers while their settings allow and disposes them when turned off, and
// tells the lenses to refresh when the vault changes and the clock ticks.
import * as vscode from 'vscode';
import type { BatonHost } from '../batonHost';
import { affects, readConfig } from '../config';
import { Disposable } from '../lifecycle';
import { ContextKeys } from '../ids';
import type { Log } from '../log';
import { CheckpointCodeLensProvider } from './codeLensProvider';
import type { EditorNow } from './editorClock';
import type { FileTouches } from './fileTouches';
import type { ClaimChecks } from '../claimChecks';
import { HoverDetails } from './hoverDetails';
import { CheckpointHoverProvider } from './hoverProvider';

const FILES: vscode.DocumentSelector = { scheme: 'file' };

export class EditorController extends Disposable {
  private lens: vscode.Disposable | undefined;
  private hover: vscode.Disposable | undefined;
  private readonly lensChanged = this.register(new vscode.EventEmitter<void>());
  /** Fired whenever the lenses are told to ask again (the test API hears it). */
  readonly onDidChangeLenses = this.lensChanged.event;
  private readonly details: HoverDetails;

  constructor(
    private readonly host: BatonHost,
    private readonly files: FileTouches,
    private readonly log: Log,
    private readonly clock: EditorNow,
    claims: ClaimChecks,
  ) {
    super();
    this.details = new HoverDetails(host, files, claims);
    this.register(clock.onDidTick(() => this.lensChanged.fire()));
    this.register(
      host.onDidChange(() => {
        this.details.clear();
        this.lensChanged.fire();
      }),
    );
    this.register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (affects(e, 'codeLens') || affects(e, 'hover')) this.apply();
      }),
    );
    this.register({ dispose: () => (this.lens?.dispose(), this.hover?.dispose()) });
    this.apply();
  }

  private apply(): void {
    const config = readConfig();
    if (config.codeLens.enabled && !this.lens) {
      this.lens = vscode.languages.registerCodeLensProvider(FILES, new CheckpointCodeLensProvider(this.files, this.details, this.log, this.lensChanged.event, this.clock));
    } else if (!config.codeLens.enabled && this.lens) {
      this.lens.dispose();
      this.lens = undefined;
    }
    if (config.hover.enabled && !this.hover) {
      this.hover = vscode.languages.registerHoverProvider(
        FILES,
        new CheckpointHoverProvider(this.files, this.details, this.log, () => void this.host.context.set(ContextKeys.fileHovered, true)),
      );
    } else if (!config.hover.enabled && this.hover) {
      this.hover.dispose();
      this.hover = undefined;
    }
  }
}
