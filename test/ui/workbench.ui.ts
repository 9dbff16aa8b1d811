// The UI tier: Playwright drives the real workbench as a person would and
// takes the screenshots the README shows. Run it with
// `node scripts/vscode-test/ui.js` (or `npm run test:ui`), which starts the
// VS Code server with the fixture workspace and vault and hands this file the
// page.
//
// The helpers are in support/workbench.ts (each *.ui.ts is bundled alone, so
// a suite file imported by another would run twice). Tests that need a part
// of the UI the manifest does not declare yet skip themselves (saying so), so
// this tier passes while the views are being built and starts enforcing each
// part the moment package.json contributes it.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import {
  errorNotifications,
  expandPane,
  manifest,
  openBatonContainer,
  openFile,
  openWorkbench,
  runCommand,
  screenshot,
  treeItem,
  waitForIdle,
  workbench,
} from './support/workbench';

// A root hook: applies to every UI suite loaded beside this file.
afterEach(async function () {
  if (this.currentTest?.state === 'failed') {
    await screenshot(`failure-${this.currentTest.title.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}`).catch(() => undefined);
  }
});

describe('workbench (UI)', function () {
  before(async () => {
    console.log(`  UI tier in VS Code ${workbench().vscodeVersion} (${workbench().flavour})`);
    await openWorkbench();
  });

  it('opens the fixture workspace in the explorer', async () => {
    const { page } = workbench();
    await runCommand('View: Show Explorer');
    await treeItem(/^README\.md/).waitFor({ timeout: 30000 });
    await treeItem(/^src/).first().waitFor();
    assert.ok(await page.locator('.part.activitybar').isVisible());
    await screenshot('workbench');
  });

  it('shows the Baton activity-bar container and its views', async function () {
    const containers = manifest().contributes?.viewsContainers?.activitybar ?? [];
    const baton = containers.find((c) => /baton/i.test(c.title));
    if (!baton) {
      console.log('    (package.json declares no Baton activity-bar container yet: skipped)');
      this.skip();
    }
    const sidebar = await openBatonContainer();
    for (const view of manifest().contributes?.views?.[baton.id] ?? []) {
      // 'attached': a container with a single view hides that view's header.
      await sidebar.locator(`.pane-header[aria-label^="${view.name}"]`).first().waitFor({ state: 'attached', timeout: 30000 });
    }
    // A vault fixture with content must show up as tree items somewhere in the container.
    const vault = workbench().vault;
    if (fs.readdirSync(vault).length > 0) await sidebar.getByRole('treeitem').first().waitFor({ timeout: 30000 });
    await screenshot('baton-container');
  });

  it('runs "Baton: Refresh" from the command palette', async function () {
    const refresh = (manifest().contributes?.commands ?? []).find((c) => c.category === 'Baton' && c.title === 'Refresh');
    if (!refresh) {
      console.log('    (package.json declares no "Baton: Refresh" command yet: skipped)');
      this.skip();
    }
    await runCommand('Baton: Refresh');
    await waitForIdle();
    assert.deepStrictEqual(await errorNotifications(), []);
    await screenshot('baton-refresh');
  });

  it('closes an abandoned session with one click on its inline Close action', async () => {
    const { vault } = workbench();
    const sidebar = await openBatonContainer();
    const pane = await expandPane(sidebar, 'Abandoned Sessions');
    const row = pane.getByRole('treeitem', { name: /aider · orchard/ });
    await row.waitFor({ timeout: 30000 });
    // Inline actions show on the row under the pointer.
    await row.hover();
    await row.locator('.action-label[aria-label^="Close"]').click();
    await row.waitFor({ state: 'detached', timeout: 15000 });
    const dir = path.join(vault, 'sessions', 'orchard');
    const written = fs.readdirSync(dir).filter((f) => /^\d{8}-\d{6}-aider\.md$/.test(f));
    assert.strictEqual(written.length, 1, `one auto-closed checkpoint in ${dir}: ${fs.readdirSync(dir).join(', ')}`);
    const text = fs.readFileSync(path.join(dir, written[0]), 'utf8');
    assert.match(text, /^auto_closed: true$/m);
    assert.match(text, /zone 3 valve ids do not match the plan/, 'the session’s notes are kept in the checkpoint');
    assert.ok(await pane.getByRole('treeitem', { name: /gemini · kestrel/ }).isVisible(), 'the other abandoned session stays');
    assert.deepStrictEqual(await errorNotifications(), []);
    await screenshot('abandoned-closed');
  });

  it('shows the lens of a touched file and, on its first line, the checkpoints hover', async () => {
    const { page } = workbench();
    const editor = await openFile('checkout.ts');
    const lens = editor.locator('.codelens-decoration').filter({ hasText: /2 checkpoints · last: Fix the checkout crash on empty carts/ });
    await lens.first().waitFor({ timeout: 30000 });
    await editor.locator('.view-line').first().locator('span span').first().hover();
    const hover = page.locator('.monaco-hover:visible').filter({ hasText: '2 checkpoints touched this file' });
    await hover.first().waitFor({ timeout: 15000 });
    const text = await hover.first().innerText();
    for (const expected of ['Fix the checkout crash on empty carts', "Didn't work", 'retrying the payment call']) {
      assert.ok(text.includes(expected), `the hover shows "${expected}":\n${text}`);
    }
    await screenshot('hover');
    await page.keyboard.press('Escape');
  });
});
