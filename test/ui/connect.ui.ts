// The UI tier, as a new user goes: the walkthrough stepped through with its
// media shown; Connect Agent… from the command palette (the agent, the scope,
// the diff behind the go-ahead, the go-ahead); the Agents view showing the
// connection and a problem fixed with its button; the walkthrough's steps
// checked off by what was really done.
//
// The walkthrough is opened first on purpose: VS Code creates its walkthrough
// service when something first asks for it, and a step whose `onContext:` is
// already true when the service registers it is never checked off in that
// session (gettingStartedService.ts adds the event to its session set without
// progressing the step, then ignores it). A person reaches Connect from the
// walkthrough, so this is their order too. Screenshots for the
// README's "Connect your agents". Runs after workbench.ui.ts on the same page
// (ui.js loads that first) and needs nothing of it: run alone (--grep), it
// opens the workbench itself.
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import type { Locator } from 'playwright-core';
import { errorNotifications, expandPane, openBatonContainer, openFile, openWorkbench, quickOpen, runCommand, screenshot, workbench } from './support/workbench';

/** Waits for the quick pick titled `title` and clicks its row showing `row`, as a person picks with the mouse. */
async function pick(title: RegExp, row: string | RegExp): Promise<void> {
  const { page } = workbench();
  const widget = page.locator('.quick-input-widget');
  await widget.locator('.quick-input-title').filter({ hasText: title }).waitFor({ timeout: 15000 });
  await widget.locator('.quick-input-list .monaco-list-row').filter({ hasText: row }).first().click();
}

/** The Agents view's pane, expanded. */
async function agentsPane(): Promise<Locator> {
  const sidebar = await openBatonContainer();
  return expandPane(sidebar, 'Agents');
}

/** Collapses every other pane of the Baton side bar (room for the Agents view in a screenshot); returns a function that reopens them. */
async function onlyAgents(): Promise<() => Promise<void>> {
  const sidebar = await openBatonContainer();
  const open = sidebar.locator('.pane-header[aria-expanded="true"]');
  const names: string[] = [];
  for (const header of await open.all()) {
    const name = (await header.getAttribute('aria-label')) ?? '';
    if (name.startsWith('Agents')) continue;
    names.push(name);
  }
  for (const name of names) await sidebar.locator(`.pane-header[aria-label="${name}"]`).click();
  // Wider, as a person drags the side bar's edge, so descriptions are not cut short.
  const box = await sidebar.boundingBox();
  const drag = async (from: number, to: number): Promise<void> => {
    if (!box) return;
    const { mouse } = workbench().page;
    await mouse.move(box.x + from + 1, box.y + box.height / 2);
    await mouse.down();
    await mouse.move(box.x + to + 1, box.y + box.height / 2, { steps: 5 });
    await mouse.up();
  };
  if (box) await drag(box.width, 560);
  return async () => {
    if (box) await drag(560, box.width);
    for (const name of names) await sidebar.locator(`.pane-header[aria-label="${name}"]`).click();
  };
}

/** The step whose media is shown, and a phrase of that media (media/walkthrough/*.md). */
const MEDIA: Record<string, string> = {
  chooseVault: 'A vault is a plain folder',
  connectAgent: 'asks three things',
  firstCheckpoint: 'session-start hook',
  hoverFile: 'Every checkpoint records the files',
};

/** Welcome: Open Walkthrough… from the palette, then Baton's, as a person finds it. */
async function openWalkthrough(): Promise<void> {
  const { page } = workbench();
  await quickOpen('>Welcome: Open Walkthrough', 'Open Walkthrough');
  await page.locator('.quick-input-widget .quick-input-list .monaco-list-row').filter({ hasText: 'Get Started with Baton' }).first().click();
  await page.locator('.gettingStartedContainer').getByText('Get Started with Baton').first().waitFor({ timeout: 30000 });
}

const settingsFile = (): string => path.join(workbench().home, '.claude', 'settings.json');
// The person's own file, with their own formatting: Connect keeps all of it.
const mine = '{\n  "theme": "dark",\n  "permissions": { "allow": ["Bash(npm test)"] }\n}\n';

describe('Connect and the walkthrough (UI)', function () {
  before(async () => {
    // Run alone (--grep), the workbench suite's before did not open the page.
    if (!workbench().page.url().startsWith('http')) await openWorkbench();
    // Claude Code "found on this machine": its folder is in HOME, so it is offered first.
    fs.mkdirSync(path.dirname(settingsFile()), { recursive: true });
    fs.writeFileSync(settingsFile(), mine);
  });

  after(async () => {
    // As a person leaves it: the Explorer in the side bar, no editor open.
    await runCommand('View: Close All Editors').catch(() => undefined);
    await runCommand('View: Show Explorer').catch(() => undefined);
  });

  it('the walkthrough: opened from the palette, each step shows its media', async () => {
    // No editor, and the Explorer's File Checkpoints in sight to say so: "Hover a file" must not be true already (see above).
    await openBatonContainer();
    await runCommand('View: Close All Editors');
    // The Baton side bar out of sight: showing it later is what checks "See its first checkpoint" off.
    await runCommand('View: Show Explorer');
    const explorer = workbench().page.locator('.part.sidebar');
    await (await expandPane(explorer, 'File Checkpoints')).getByText('Open a file to see the checkpoints').waitFor({ timeout: 15000 });
    await openWalkthrough();
    const container = workbench().page.locator('.gettingStartedContainer');
    for (const [step, text] of Object.entries(MEDIA)) {
      await container.locator(`.getting-started-step[data-step-id$="#${step}"]`).click();
      // The markdown media renders in a webview: two frames deep.
      const frame = workbench().page.frameLocator('.getting-started-media iframe').first().frameLocator('iframe').first();
      await frame.getByText(text).first().waitFor({ timeout: 30000 });
      if (step === 'connectAgent') await screenshot('walkthrough');
    }
    assert.deepStrictEqual(await errorNotifications(), []);
  });

  it('Connect Agent… from the palette: pick Claude Code, read the diff, confirm; the Agents view shows it', async () => {
    const { page } = workbench();
    await quickOpen('>Baton: Connect Agent', 'Baton: Connect Agent…');
    await pick(/Connect Agent \(1\/3\)/, /^Claude Code/);
    await pick(/Connect Claude Code \(2\/3\)/, /^User/);

    // The go-ahead, with the diff of ~/.claude/settings.json open behind it; nothing written yet.
    await page
      .locator('.quick-input-widget .quick-input-title')
      .filter({ hasText: /Connect Claude Code\? \(3\/3\)/ })
      .waitFor({ timeout: 15000 });
    const diff = page.locator('.editor-group-container.active .monaco-diff-editor');
    await diff.waitFor({ timeout: 15000 });
    await page.locator('.tabs-container .tab.active').filter({ hasText: 'settings.json' }).waitFor({ timeout: 15000 });
    await diff.locator('.line-insert').first().waitFor({ timeout: 15000 });
    assert.match(await diff.locator('.editor.modified').innerText(), /SessionStart/);
    assert.strictEqual(fs.readFileSync(settingsFile(), 'utf8'), mine, 'nothing is written before the go-ahead');
    await page.mouse.move(1100, 700); // off the picks: no hover over the diff
    await screenshot('connect-diff');

    await pick(/Connect Claude Code\? \(3\/3\)/, /Connect/);
    await page.locator('.monaco-diff-editor').first().waitFor({ state: 'detached', timeout: 15000 });
    const written = JSON.parse(fs.readFileSync(settingsFile(), 'utf8')) as { theme: string; hooks: Record<string, unknown> };
    assert.strictEqual(written.theme, 'dark');
    assert.ok(written.hooks.SessionStart, 'the SessionStart hook is written');
    // Claude Code's own ~/.claude.json is left to `claude mcp add-json`: the message offers the command.
    // In the notification centre, opened with the status bar's bell: a toast may have hidden itself by now.
    await page.locator('[id="status.notifications"]').click();
    const message = page.locator('.notifications-center .notification-list-item').filter({ hasText: 'connected Claude Code (user scope)' });
    await message.waitFor({ timeout: 15000 });
    assert.match((await message.textContent()) ?? '', /claude mcp add-json --scope user baton/);
    await message.getByRole('button', { name: 'Copy Command' }).waitFor();
    await page.keyboard.press('Escape');
    // This host has no `claude` on its PATH, so the person runs the command the message offers; Claude Code
    // then keeps the server in ~/.claude.json's mcpServers, which is what the Agents view checks (health/claudeMcp.ts).
    // The command is the installed CLI's own dry run's (the test bundle cannot load connect's settings editors).
    const { home, vault, extensionPath } = workbench();
    const dry = spawnSync(process.execPath, [path.join(extensionPath, 'dist', 'cli.js'), '--vault', vault, 'connect', 'claude-code', '--dry-run', '--json'], {
      encoding: 'utf8',
      env: { HOME: home, PATH: '/usr/bin:/bin' },
    });
    const add = ((JSON.parse(dry.stdout || '{}') as { commands?: string[] }).commands ?? []).find((c) => c.startsWith('claude mcp add-json --scope user baton '));
    assert.ok(add, `connect --dry-run left no claude mcp add-json: ${dry.stdout}${dry.stderr}`);
    const json = add.slice('claude mcp add-json --scope user baton '.length).replace(/^'|'$/g, '').replace(/'\\''/g, "'");
    fs.writeFileSync(path.join(home, '.claude.json'), JSON.stringify({ mcpServers: { baton: JSON.parse(json) } }, null, 2) + '\n');

    const pane = await agentsPane();
    const claude = pane.getByRole('treeitem', { name: /^Claude Code/ });
    await claude.waitFor({ timeout: 30000 });
    await claude
      .locator('.label-description')
      .filter({ hasText: /^connected: User/ })
      .waitFor({ timeout: 15000 });
    assert.deepStrictEqual(await errorNotifications(), []);
    await screenshot('connect-done');
    await page.keyboard.press('Escape');
  });

  it('the Agents view: files and last seen under a connected agent, a problem fixed with its button', async () => {
    const { page, home, extensionPath } = workbench();
    const launcher = path.join(home, '.baton', 'bin', 'baton');
    const good = fs.readFileSync(launcher, 'utf8');
    // The launcher's runtime gone (an uninstalled Node): every user-scope hook would fail.
    fs.writeFileSync(
      launcher,
      good
        .replace(/^# runtime: .*$/m, '# runtime: "/opt/uninstalled/node"')
        .replace(/^exec .*$/m, `exec "/opt/uninstalled/node" "${path.join(extensionPath, 'dist', 'cli.js')}" "$@"`),
    );
    const reopen = await onlyAgents();
    try {
      const pane = await agentsPane();
      // Agents' files are not watched: the view's Refresh asks again, as a person would press it.
      await pane.hover();
      await pane.locator('.pane-header .action-label[aria-label^="Refresh"]').click();
      const claude = pane.getByRole('treeitem', { name: /^Claude Code/ });
      await claude
        .locator('.label-description')
        .filter({ hasText: /1 to fix/ })
        .waitFor({ timeout: 15000 });
      // A tree item's accessible name is its tooltip: the whole problem.
      const problem = pane.getByRole('treeitem', { name: /^Claude Code calls the launcher .*, which runs \/opt\/uninstalled\/node, which is gone/ });
      await problem.waitFor({ timeout: 15000 });
      await pane.getByRole('treeitem', { name: /\.claude\/settings\.json$/ }).waitFor({ timeout: 15000 });
      await problem.hover();
      await screenshot('agents-problem', workbench().page.locator('.part.sidebar'));
      await problem.locator('.action-label[aria-label^="Refresh Launcher"]').click();
      await problem.waitFor({ state: 'detached', timeout: 15000 });
      assert.ok(!fs.readFileSync(launcher, 'utf8').includes('/opt/uninstalled/node'), 'the launcher is pointed back at a runtime that is there');
      await claude
        .locator('.label-description')
        .filter({ hasText: /^connected: User · (seen|never)/ })
        .waitFor({ timeout: 15000 });
      assert.deepStrictEqual(await errorNotifications(), []);
    } finally {
      if (fs.readFileSync(launcher, 'utf8').includes('/opt/uninstalled/node')) fs.writeFileSync(launcher, good);
    }
    // Expanded, a connected agent shows its files.
    const claude = (await agentsPane()).getByRole('treeitem', { name: /^Claude Code/ });
    if ((await claude.getAttribute('aria-expanded')) === 'false') await claude.locator('.monaco-tl-twistie').click();
    await page.mouse.move(720, 450);
    await screenshot('agents-view', workbench().page.locator('.part.sidebar'));
    await reopen();
  });

  it('the walkthrough checks off what was done: an agent connected, the Checkpoints view seen', async () => {
    const { page } = workbench();
    // A file checkpoints touched, in the editor, with the Checkpoints view in sight listing the project's.
    const sidebar = await openBatonContainer();
    await openFile('checkout.ts');
    await (await expandPane(sidebar, 'Checkpoints')).getByRole('treeitem', { name: /^Fix the checkout crash/ }).waitFor({ timeout: 15000 });
    await openWalkthrough();
    const container = page.locator('.gettingStartedContainer');
    const checked = (step: string): Locator => container.locator(`[data-done-step-id$="#${step}"][aria-checked="true"]`);
    // "Hover a file" completes only on a checkpoint hover given, proven in the integration suite (walkthrough.test.ts).
    for (const step of ['connectAgent', 'firstCheckpoint']) await checked(step).waitFor({ timeout: 15000 });
    await screenshot('walkthrough-done');
    assert.deepStrictEqual(await errorNotifications(), []);
  });
});
