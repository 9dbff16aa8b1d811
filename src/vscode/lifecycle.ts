// Every disposable has an owner. A class that listens or registers anything
// extends `Disposable` and `register`s what it creates; disposing the owner
// disposes them in reverse order, once, even if one of them throws.
import type * as vscode from 'vscode';

export abstract class Disposable implements vscode.Disposable {
  private readonly owned: vscode.Disposable[] = [];
  private disposed = false;

  protected get isDisposed(): boolean {
    return this.disposed;
  }

  protected register<T extends vscode.Disposable>(d: T): T {
    if (this.disposed) d.dispose();
    else this.owned.push(d);
    return d;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const d of this.owned.splice(0).reverse()) {
      try {
        d.dispose();
      } catch {
        // One failing disposer must not leak the rest.
      }
    }
  }
}

/** A disposable for a timer, so a debounce belongs to its owner like any listener. */
export function timerDisposable(cancel: () => void): vscode.Disposable {
  return { dispose: cancel };
}
