// Baton: Import Past Sessions… as a person meets it (issue 27): the agents
// found in the extension host's home (a fixture history of the real CLIs'
// transcripts, never the machine's home), how many sessions each and since
// when, imported into the Checkpoints view; and the progress notification's
// own Cancel button stopping a long import. The README's picture comes from
// here (test-results/screenshots/import-pick.png, copied to media/screenshots/).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { Locator } from 'playwright-core';
import { writeManySessions, writePastHistory } from '../support/pastHistory';
import { errorNotifications, expandPane, openBatonContainer, openWorkbench, quickOpen, runCommand, screenshot, workbench } from './support/workbench';

const DAY = 86400_000;

/** A person's history: one real session of each agent, and a project of Claude Code sessions over the last weeks. */
function history(home: string): string[] {
  writePastHistory(home);
  writeManySessions(home, 'tide-tables', 11);
  const dir = path.join(home, '.claude', 'projects', '-WORLD-tide-tables');
  fs.readdirSync(dir).forEach((f, i) => {
    const when = new Date(Date.now() - (40 - i * 3) * DAY);
    fs.utimesSync(path.join(dir, f), when, when);
  });
  return ['claude', 'codex-cart', 'gemini', 'shop', 'tide-tables'];
}

/**
 * A notification as the notification centre lists it (opened first): 1.139.1
 * toasts none here (the bell shows them; syncAndHandOff.ui.ts saw the same),
 * and the centre lists one posted after it opened too.
 */
async function notification(text: RegExp, timeout = 60000): Promise<Locator> {
  const { page } = workbench();
  if (!(await page.locator('.notifications-center.visible').count())) await runCommand('Notifications: Show Notifications');
  const item = page.locator('.notifications-center .notification-list-item').filter({ hasText: text }).first();
  await item.waitFor({ timeout });
  return item;
}

async function startImport(): Promise<void> {
  const { page } = workbench();
  // No earlier notification left to be mistaken for this import's.
  await runCommand('Notifications: Clear All Notifications');
  await quickOpen('>Baton: Import Past Sessions', 'Baton: Import Past Sessions…');
  // Baton's own pick has replaced the palette once its placeholder shows.
  await page.locator('.quick-input-widget input[placeholder^="Agents whose sessions"]').waitFor({ timeout: 15000 });
  await page.mouse.move(720, 600); // off the pick: no tooltip in the screenshot
}

/** Accepts the pick (every agent found is checked) with its OK button, as a person would. */
async function acceptPick(): Promise<void> {
  const { page } = workbench();
  await page.locator('.quick-input-widget').getByRole('button', { name: 'OK' }).click();
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 15000 });
}

/**
 * Room for the imported projects, as a person makes it: the tree draws only
 * the rows in sight, and after connect.ui.ts the Agents view holds most of
 * the side bar (CI's run: the Checkpoints pane showed the workspace's project
 * and five of its rows, no imported one). With every other Baton view
 * collapsed Checkpoints is the one pane left to fill the side bar, and the
 * workspace's own project, collapsed, leaves the rest of the list in sight.
 */
async function makeRoom(sidebar: Locator, pane: Locator): Promise<void> {
  for (const name of ['Agents', 'Plans', 'Abandoned Sessions']) {
    const h = sidebar.locator(`.pane-header[aria-label^="${name}"]`).first();
    if ((await h.count()) && (await h.getAttribute('aria-expanded')) === 'true') await h.click();
  }
  const own = pane.getByRole('treeitem', { name: /^kestrel\b/ }).first();
  await own.waitFor({ timeout: 30000 });
  if ((await own.getAttribute('aria-expanded')) === 'true') {
    await own.locator('.monaco-tl-twistie').click();
    await workbench().page.waitForFunction((el) => el?.getAttribute('aria-expanded') === 'false', await own.elementHandle(), { timeout: 15000 });
  }
}

describe('import past sessions (UI)', function () {
  this.timeout(180_000);
  const made: string[] = [];
  before(async () => {
    made.push(...history(workbench().home));
    await openWorkbench();
  });
  after(async () => {
    // The vault and home are the suites' after this one: what was made here goes.
    const { home, vault } = workbench();
    fs.rmSync(path.join(home, '.claude', 'projects'), { recursive: true, force: true });
    for (const d of ['.codex', '.gemini', '.copilot']) fs.rmSync(path.join(home, d), { recursive: true, force: true });
    for (const p of made) fs.rmSync(path.join(vault, 'sessions', p), { recursive: true, force: true });
    await runCommand('Baton: Refresh').catch(() => undefined);
  });

  it('lists the agents found with how many sessions and since when, and fills the Checkpoints view', async () => {
    const { page } = workbench();
    const sidebar = await openBatonContainer();
    await startImport();
    const rows = page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
    const claude = rows.filter({ hasText: 'Claude Code' }).first();
    await claude.waitFor({ timeout: 15000 });
    assert.match(await claude.innerText(), /12 sessions since/);
    for (const agent of ['Codex CLI', 'Gemini CLI', 'GitHub Copilot CLI']) assert.match(await rows.filter({ hasText: agent }).first().innerText(), /1 session since/);
    await screenshot('import-pick');

    await acceptPick();
    await notification(/Baton imported 15 sessions/);
    // The centre closed again with the status bar's bell, for the picture of the view.
    await page.locator('[id="status.notifications"]').click();
    await page.locator('.notifications-center.visible').waitFor({ state: 'hidden', timeout: 15000 });
    const pane = await expandPane(sidebar, 'Checkpoints');
    await makeRoom(sidebar, pane);
    const tide = pane.getByRole('treeitem', { name: /^tide-tables/ });
    await tide.waitFor({ timeout: 30000 });
    for (const p of ['claude', 'codex-cart', 'gemini', 'shop']) await pane.getByRole('treeitem', { name: new RegExp(`^${p}\\b`) }).waitFor({ timeout: 15000 });
    // One imported project opened, as a person would look: its sessions' first requests.
    await pane
      .getByRole('treeitem', { name: /^claude\b/ })
      .locator('.monaco-tl-twistie')
      .click();
    await pane
      .getByRole('treeitem', { name: /^Round the cart total to cents/ })
      .first()
      .waitFor({ timeout: 15000 });
    await screenshot('import-done');
    assert.deepStrictEqual(await errorNotifications(), []);
  });

  it('stops a long import at the notification’s Cancel, saying how many it wrote and how many are left', async () => {
    const { home, vault } = workbench();
    writeManySessions(home, 'import-bulk', 600);
    made.push('import-bulk');
    await startImport();
    // Only the new project's agent has sessions to import; the others are already in the vault.
    await acceptPick();
    const progress = await notification(/Baton: importing past sessions/, 30000);
    await progress.getByRole('button', { name: 'Cancel' }).click();
    const done = await notification(/Baton: import cancelled after \d+ sessions?, each written whole; \d+ left for the next import/);
    const [, written, left] = /after (\d+) sessions?.*; (\d+) left/.exec(await done.innerText()) ?? [];
    // Cancelled while still reading, it wrote none (and made no folder).
    const dir = path.join(vault, 'sessions', 'import-bulk');
    const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => /^\d{8}-.*\.md$/.test(f)) : [];
    assert.strictEqual(files.length, Number(written));
    assert.ok(Number(left) > 0, 'stopped before the end');
  });
});
