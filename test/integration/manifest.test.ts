// The manifest is code: these checks keep package.json and src/vscode/ids.ts
// in step (a command declared but not registered is a palette entry that
// fails; a `viewItem ==` that matches no contextValue is a menu that never shows).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { Commands, ContextValues, Views } from '../../src/vscode/ids';
import { batonApi, EXTENSION_ID } from './support/baton';

interface Manifest {
  activationEvents: string[];
  capabilities: { untrustedWorkspaces: { supported: string | boolean } };
  contributes: {
    commands: { command: string; title: string; category?: string }[];
    menus: Record<string, { command: string; when?: string }[]>;
    views: Record<string, { id: string }[]>;
    viewsWelcome: { view: string; when: string; contents: string }[];
  };
}

function manifest(): Manifest {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(ext);
  return JSON.parse(fs.readFileSync(path.join(ext.extensionPath, 'package.json'), 'utf8')) as Manifest;
}

describe('manifest', () => {
  const m = manifest();

  it('declares exactly the commands the code registers, each in the Baton category', async () => {
    await batonApi();
    const declared: string[] = m.contributes.commands.map((c) => c.command).sort();
    assert.deepStrictEqual(declared, [...Object.values(Commands)].sort());
    // VS Code itself registers `<view id>.focus` and the like for each view.
    const registered = (await vscode.commands.getCommands(true)).filter((c) => c.startsWith('baton.'));
    const ours = registered.filter((c) => !Object.values(Views).some((v) => c.startsWith(`${v}.`)));
    const known = new Set<string>(declared);
    assert.deepStrictEqual(ours.filter((c) => !known.has(c)), [], 'registered but not declared');
    for (const c of m.contributes.commands) assert.strictEqual(c.category, 'Baton', c.command);
  });

  it('hides item-only commands from the palette', () => {
    const palette = new Map(m.contributes.menus.commandPalette.map((e) => [e.command, e.when]));
    assert.strictEqual(palette.get(Commands.openCheckpoint as string), 'false');
    assert.strictEqual(palette.get(Commands.openPlan as string), 'false');
    assert.strictEqual(palette.get(Commands.resumeInClaudeCode as string), 'false');
    assert.strictEqual(palette.get(Commands.openTranscript as string), 'false');
  });

  it('activates on its views and a project marker, never on everything', () => {
    assert.ok(!m.activationEvents.includes('*'));
    assert.ok(!m.activationEvents.includes('onStartupFinished'));
    for (const v of Object.values(Views)) assert.ok(m.activationEvents.includes(`onView:${v}`), v);
    assert.ok(m.activationEvents.includes('workspaceContains:.baton-project'));
    assert.strictEqual(m.capabilities.untrustedWorkspaces.supported, 'limited');
  });

  it('has the five views and a welcome for every empty or error state of each', () => {
    assert.deepStrictEqual(m.contributes.views.baton.map((v) => v.id), Object.values(Views));
    for (const view of Object.values(Views)) {
      const whens = m.contributes.viewsWelcome.filter((w) => w.view === view).map((w) => w.when);
      for (const state of ['baton.vaultState == noVault', 'baton.vaultState == empty', 'baton.vaultState == unreadable', '!isWorkspaceTrusted', 'baton.vaultState == ready']) {
        assert.ok(whens.some((w) => w.includes(state)), `${view} has no welcome for ${state}`);
      }
    }
    assert.ok(m.contributes.viewsWelcome.some((w) => w.contents.includes('[Choose Vault Folder](command:baton.chooseVault)')));
  });

  it('matches only contextValues the code sets', () => {
    const known = new Set<string>(Object.values(ContextValues));
    const used = Object.values(m.contributes.menus)
      .flat()
      .flatMap((e) => [...(e.when ?? '').matchAll(/viewItem == ([\w.]+)/g)].map((x) => x[1]));
    assert.ok(used.length > 0);
    assert.deepStrictEqual(used.filter((u) => !known.has(u)), []);
  });
});
