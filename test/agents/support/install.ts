// The real agent CLIs, pinned in pins.json, installed on first use into
// .agents-test/ the way .vscode-test/ holds the VS Code builds: never
// dependencies of the package, about 1.1 GB, ~30 s from the npm registry.
// Install scripts are skipped (npm 11 skips unapproved ones anyway, so this
// keeps an npm 10 machine the same): every CLI here ships its program inside
// a registry package (Claude Code, Codex and Copilot as per-platform optional
// dependencies, Gemini as JavaScript). The one script a pin names as its
// `setup` is run by hand: Claude Code's install.cjs only copies the native
// binary from its platform package over the bin/claude.exe placeholder.
import { execFileSync } from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import pins from './pins.json';

export type AgentId = keyof typeof pins;

const ROOT = path.resolve(__dirname, '../../..');
const key = crypto.createHash('sha256').update(JSON.stringify(pins)).digest('hex').slice(0, 12);
/** One folder per set of pins, so changing a version never mixes two installs. */
export const AGENTS_DIR = path.join(ROOT, '.agents-test', key);
const DONE = path.join(AGENTS_DIR, 'installed.json');

/**
 * Installs every pinned CLI once (a marker file written last says the install
 * finished), under a lock folder so two test processes never install at once.
 */
export function ensureAgents(): void {
  if (fs.existsSync(DONE)) return;
  fs.mkdirSync(path.dirname(AGENTS_DIR), { recursive: true });
  const lock = `${AGENTS_DIR}.lock`;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch {
      if (fs.existsSync(DONE)) return;
      // Another process installs: wait for its marker or its lock to go.
      execFileSync('sleep', ['1']);
      const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? 0);
      if (age > 15 * 60_000) fs.rmSync(lock, { recursive: true, force: true });
    }
  }
  try {
    if (fs.existsSync(DONE)) return;
    fs.rmSync(AGENTS_DIR, { recursive: true, force: true });
    fs.mkdirSync(AGENTS_DIR, { recursive: true });
    fs.writeFileSync(path.join(AGENTS_DIR, 'package.json'), JSON.stringify({ name: 'baton-agents-test', private: true }) + '\n');
    const specs = Object.values(pins).map((p) => `${p.package}@${p.version}`);
    process.stderr.write(`installing the agent CLIs into ${AGENTS_DIR}: ${specs.join(' ')}\n`);
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--no-package-lock', ...specs], {
      cwd: AGENTS_DIR,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    for (const pin of Object.values(pins)) {
      if ('setup' in pin) execFileSync(process.execPath, [pin.setup], { cwd: path.join(AGENTS_DIR, 'node_modules', pin.package), stdio: 'inherit' });
    }
    for (const id of Object.keys(pins) as AgentId[]) execFileSync(agentBin(id), ['--version'], { stdio: 'pipe', timeout: 120_000 });
    fs.writeFileSync(DONE, JSON.stringify(pins, null, 2) + '\n');
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

/** The folder holding every pinned CLI's executable, for a PATH. */
export const agentsBinDir = (): string => path.join(AGENTS_DIR, 'node_modules', '.bin');

/** The absolute path of one agent's executable. */
export const agentBin = (id: AgentId): string => path.join(agentsBinDir(), pins[id].bin);

export const agentVersion = (id: AgentId): string => pins[id].version;
