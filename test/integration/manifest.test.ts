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
    views: Record<string, { id: string; when?: string }[]>;
    viewsWelcome: { view: string; when: string; contents: string }[];
    walkthroughs: { id: string; steps: { id: string; description: string; media: { markdown?: string }; completionEvents: string[] }[] }[];
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
    assert.deepStrictEqual(
      ours.filter((c) => !known.has(c)),
      [],
      'registered but not declared',
    );
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

  it('has its views (This File in the Explorer); before the vault has sessions one welcome leads on, in the first view, and the others stay hidden', () => {
    const all = Object.values(m.contributes.views).flat();
    assert.deepStrictEqual(all.map((v) => v.id).sort(), [...Object.values(Views)].sort());
    assert.strictEqual(m.contributes.views.baton[0].id, Views.checkpoints);
    const early = ['baton.vaultState == noVault', 'baton.vaultState == empty', 'baton.vaultState == unreadable'];
    for (const state of [...early, '!isWorkspaceTrusted']) {
      const welcomes = m.contributes.viewsWelcome.filter((w) => w.when.includes(state));
      assert.deepStrictEqual(
        welcomes.map((w) => w.view),
        [Views.checkpoints],
        `${state}: said once, in the first view`,
      );
    }
    // Agents has something to show without a vault (the agents on this machine); the vault's own views do not.
    for (const v of all.filter((x) => x.id !== Views.checkpoints && x.id !== Views.agents)) {
      for (const state of ['noVault', 'empty', 'unreadable']) assert.ok(v.when?.includes(`baton.vaultState != ${state}`), `${v.id} is not hidden when the vault is ${state}`);
    }
    for (const view of Object.values(Views).filter((v) => v !== Views.agents)) {
      assert.ok(
        m.contributes.viewsWelcome.some((w) => w.view === view && w.when.includes('baton.vaultState == ready')),
        `${view} has no welcome for a ready vault`,
      );
    }
    for (const state of ['baton.vaultState == noVault', 'baton.vaultState == empty']) {
      const w = m.contributes.viewsWelcome.find((x) => x.when === state);
      assert.ok(w?.contents.includes('[Connect an Agent](command:baton.connectAgent)'), `the ${state} welcome does not offer Connect an Agent`);
    }
    assert.ok(m.contributes.viewsWelcome.some((w) => w.contents.includes('[Choose Vault Folder](command:baton.chooseVault)')));
    assert.strictEqual(m.contributes.viewsWelcome.filter((w) => w.contents.includes('Restricted Mode')).length, 1);
  });

  it('has a walkthrough whose every step runs a declared command and completes on an event, with its markdown in media/', () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext);
    const declared = new Set(m.contributes.commands.map((c) => c.command));
    const [walkthrough] = m.contributes.walkthroughs;
    assert.ok(walkthrough);
    assert.deepStrictEqual(
      walkthrough.steps.map((s) => s.id),
      ['chooseVault', 'connectAgent', 'firstCheckpoint', 'hoverFile'],
    );
    for (const step of walkthrough.steps) {
      const commands = [...step.description.matchAll(/\(command:([\w.]+)/g)].map((x) => x[1]);
      assert.ok(commands.length > 0, `${step.id} offers no command`);
      // A view's `.focus` command is VS Code's own, registered for each declared view.
      for (const c of commands) assert.ok(declared.has(c) || Object.values(Views).some((v) => c === `${v}.focus`), `${step.id}: ${c} is not a Baton command`);
      assert.ok(step.completionEvents.length > 0 && step.completionEvents.every((e) => /^on(Command|Context|SettingChanged|View):/.test(e)), step.id);
      assert.ok(step.media.markdown && fs.existsSync(path.join(ext.extensionPath, step.media.markdown)), `${step.id}: no ${step.media.markdown}`);
    }
    const welcome = m.contributes.viewsWelcome.find((w) => w.when === 'baton.vaultState == noVault');
    assert.ok(welcome?.contents.includes(encodeURIComponent(JSON.stringify(`${EXTENSION_ID}#${walkthrough.id}`))), 'the first-run welcome opens the walkthrough');
  });

  it('matches only contextValues the code sets', () => {
    const known = new Set<string>(Object.values(ContextValues));
    const used = Object.values(m.contributes.menus)
      .flat()
      .flatMap((e) => [...(e.when ?? '').matchAll(/viewItem == ([\w.]+)/g)].map((x) => x[1]));
    assert.ok(used.length > 0);
    assert.deepStrictEqual(
      used.filter((u) => !known.has(u)),
      [],
    );
  });
});
