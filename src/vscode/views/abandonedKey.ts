// Whether Abandoned Sessions shows: its `when` is `baton.hasAbandoned`, so the
// view takes no room while nobody's session is abandoned. VS Code never asks
// a hidden view for its children, so the key is asked of the vault itself,
// after every look at it and every change, one answer at a time (a late
// answer to an older change must not win over a newer one).
import type { BatonHost } from '../batonHost';
import { ContextKeys } from '../ids';
import { Disposable } from '../lifecycle';
import type { Log } from '../log';

export class AbandonedKey extends Disposable {
  private last: Promise<void> = Promise.resolve();

  constructor(
    private readonly host: BatonHost,
    private readonly log: Log,
  ) {
    super();
    // Not at once: the host announces the end of every look, and activation must not start one.
    this.register(host.onDidChange(() => void this.update()));
  }

  /** The answer under way, once it is set (tests wait on it). */
  update(): Promise<void> {
    this.last = this.last.then(() => this.ask()).catch((err) => this.log.error('Counting the abandoned sessions failed', err));
    return this.last;
  }

  private async ask(): Promise<void> {
    await this.host.loaded();
    if (this.isDisposed) return;
    const any = this.host.state === 'ready' && (await this.host.session.baton.abandoned()).length > 0;
    await this.host.context.set(ContextKeys.hasAbandoned, any);
  }
}
