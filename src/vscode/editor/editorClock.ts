// One "now" for the ages the editor shows beside each other: the CodeLens
// ("… · 3m ago") and the current line's blame annotation ("claude · … · 3m
// ago") both read `now` here, and both redraw on each tick. VS Code keeps a
// resolved lens until its provider says otherwise, so a lens computed from
// its own clock went stale beside an annotation drawn on every cursor move
// ("2m" beside "3m"). The tick comes every minute (the coarsest age that
// still changes within a sitting) and whenever the vault changed, so a
// checkpoint written a moment ago never reads as older than it is.
import * as vscode from 'vscode';
import { systemClock } from '../../app/openBaton';
import type { ClockPort } from '../../core/ports';
import { Disposable, timerDisposable } from '../lifecycle';

export const TICK_MS = 60_000;

/** What the editor's surfaces read; `tick` is also the test API's way to move time. */
export interface EditorNow {
  /** Unix seconds, as of the last tick. */
  readonly now: number;
  readonly onDidTick: vscode.Event<number>;
  /** Reads the clock (or takes `at`) and tells every surface to redraw. */
  tick(at?: number): void;
}

export class EditorClock extends Disposable implements EditorNow {
  private at: number;
  private readonly emitter = this.register(new vscode.EventEmitter<number>());
  readonly onDidTick = this.emitter.event;

  constructor(
    private readonly source: ClockPort = systemClock,
    also: vscode.Event<unknown>[] = [],
  ) {
    super();
    this.at = source.now();
    const timer = setInterval(() => this.tick(), TICK_MS);
    this.register(timerDisposable(() => clearInterval(timer)));
    for (const event of also) this.register(event(() => this.tick()));
  }

  get now(): number {
    return this.at;
  }

  tick(at = this.source.now()): void {
    if (this.isDisposed) return;
    this.at = at;
    this.emitter.fire(at);
  }
}
