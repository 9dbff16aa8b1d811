// A world where an agent's hooks run as its host runs them: `baton connect`'s
// plan applied into a temporary HOME (a launcher calling the built CLI), each
// command read back from that host's own file and run through /bin/sh -c with
// PATH=/usr/bin:/bin, the HOME and nothing of Baton's in the environment, the
// payload on stdin, in a real git repository.
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { planAgent } from '../../../src/adapters/agents/agentConfigs';
import type { AgentId, PlanInput } from '../../../src/adapters/agents/agentPlan';
import { applyPlan } from '../../../src/adapters/agents/configWriter';
import { writeLauncher } from '../../../src/adapters/launcher';
import { CLI } from './cli';
import { gitRepo } from './gitRepo';
import { tempDir } from './tempVault';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface HostShell {
  root: string;
  home: string;
  repo: string;
  vault: string;
  /** The command connect wrote for a host's event, read from that host's own file. */
  commandFor(agent: AgentId, event: string): string;
  run(command: string, payload: unknown, cwd?: string): { code: number | null; stdout: string; stderr: string };
  dispose(): void;
}

export function hostShell(prefix = 'baton-host-'): HostShell {
  const root = tempDir(prefix);
  const home = path.join(root, 'home');
  const vault = path.join(root, 'vault');
  fs.mkdirSync(home, { recursive: true });
  const repo = gitRepo(path.join(root, 'work'), 'kestrel');
  const launcher = writeLauncher(home, { runtime: process.execPath, script: CLI, electron: false });
  const input: PlanInput = { scope: 'user', home, projectDir: repo, launcherPath: launcher.path, vault };
  const readJson = (...p: string[]): Obj => JSON.parse(fs.readFileSync(path.join(home, ...p), 'utf8')) as Obj;
  return {
    root,
    home,
    repo,
    vault,
    commandFor(agent, event) {
      applyPlan(planAgent(agent, 'connect', input));
      switch (agent) {
        case 'claude-code':
          return readJson('.claude', 'settings.json').hooks[event][0].hooks[0].command;
        case 'codex':
          return readJson('.codex', 'hooks.json').hooks[event][0].hooks[0].command;
        case 'gemini':
          return readJson('.gemini', 'settings.json').hooks[event][0].hooks[0].command;
        case 'cursor':
          return readJson('.cursor', 'hooks.json').hooks[event][0].command;
        case 'copilot':
          return readJson('.copilot', 'hooks', 'baton.json').hooks[event][0].bash;
      }
    },
    run(command, payload, cwd = repo) {
      const r = spawnSync('env', ['-i', 'PATH=/usr/bin:/bin', `HOME=${home}`, '/bin/sh', '-c', command], {
        cwd,
        input: typeof payload === 'string' ? payload : JSON.stringify(payload),
        encoding: 'utf8',
      });
      return { code: r.status, stdout: r.stdout, stderr: r.stderr };
    },
    dispose: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}
