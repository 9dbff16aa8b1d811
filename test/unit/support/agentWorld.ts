// A temporary HOME and project for connect tests, and readers for what each
// agent's format makes of the files written there.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import { parse as parseJsonc, type ParseError } from 'jsonc-parser';
import * as path from 'path';
import { parse as parseToml } from 'smol-toml';
import { planAgent } from '../../../src/adapters/agents/agentConfigs';
import type { AgentId, AgentPlan, ConnectAction, PlanInput, Scope } from '../../../src/adapters/agents/agentPlan';
import { applyPlan } from '../../../src/adapters/agents/configWriter';
import { tempDir } from './tempVault';

export type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface World {
  root: string;
  home: string;
  project: string;
  launcher: string;
  vault: string;
  input(scope: Scope): PlanInput;
  write(file: string, text: string): void;
  read(file: string): string;
  exists(file: string): boolean;
  run(agent: AgentId, action: ConnectAction, scope?: Scope): AgentPlan;
}

export function world(launcherDir = '.baton/bin'): World {
  const root = tempDir('baton-connect-');
  const home = path.join(root, 'home');
  const project = path.join(root, 'work', 'app');
  fs.mkdirSync(home, { recursive: true });
  fs.mkdirSync(project, { recursive: true });
  const w: World = {
    root,
    home,
    project,
    launcher: path.join(home, launcherDir, 'baton'),
    vault: path.join(home, 'notes vault'),
    input: (scope) => ({ scope, home, projectDir: project, launcherPath: w.launcher, vault: w.vault }),
    write(file, text) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, text);
    },
    read: (file) => fs.readFileSync(file, 'utf8'),
    exists: (file) => fs.existsSync(file),
    run(agent, action, scope = 'user') {
      const plan = planAgent(agent, action, w.input(scope));
      applyPlan(plan);
      return plan;
    },
  };
  return w;
}

/** Strict JSON: what a reader with JSON.parse sees. */
export const json = (text: string): Obj => JSON.parse(text) as Obj;
/** JSON with comments, as Gemini CLI (strip-json-comments) and VS Code read it. */
export function jsonc(text: string): Obj {
  const errors: ParseError[] = [];
  const v = parseJsonc(text, errors, { allowTrailingComma: true }) as Obj;
  assert.deepEqual(errors, []);
  return v;
}
export const toml = (text: string): Obj => JSON.parse(JSON.stringify(parseToml(text))) as Obj;

export const actions = (plan: AgentPlan): string[] => plan.files.map((f) => `${path.basename(f.path)}:${f.action}`);

/** The commands of every handler in a nested hooks file, by event. */
export const nestedCommands = (v: Obj, event: string): string[] => (v.hooks?.[event] ?? []).flatMap((g: Obj) => g.hooks.map((h: Obj) => h.command));
