// A real vault in a temporary folder, with a clock the test moves by hand.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { openBaton } from '../../../src/app/openBaton';
import type { Baton } from '../../../src/core/baton';

export const T0 = Date.UTC(2026, 7, 14, 14, 32, 7) / 1000;

export interface TempVault {
  root: string;
  baton: Baton;
  clock: { t: number; now(): number };
  /** Moves the clock forward by seconds. */
  advance(seconds: number): void;
  read(rel: string): string;
  exists(rel: string): boolean;
  list(rel: string): string[];
  cleanup(): void;
}

export function tempDir(prefix = 'baton-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function tempVault(start = T0): TempVault {
  const root = tempDir();
  const clock = { t: start, now: () => clock.t };
  return {
    root,
    baton: openBaton(root, { clock }),
    clock,
    advance: (s) => {
      clock.t += s;
    },
    read: (rel) => fs.readFileSync(path.join(root, rel), 'utf8'),
    exists: (rel) => fs.existsSync(path.join(root, rel)),
    list: (rel) => {
      try {
        return fs.readdirSync(path.join(root, rel)).sort();
      } catch {
        return [];
      }
    },
    cleanup: () => {
      // read-only folders left by a test must not stop the cleanup
      spawnChmod(root);
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

function spawnChmod(dir: string): void {
  try {
    fs.chmodSync(dir, 0o700);
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) if (e.isDirectory()) spawnChmod(path.join(dir, e.name));
  } catch {
    // best effort
  }
}
