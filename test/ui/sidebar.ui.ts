// The sidebar as a person meets it (issue 30.5): Checkpoints open on the
// current project's checkpoints with most of the height, its title whole
// beside three icons, Abandoned Sessions below while there are some, File
// Checkpoints in the Explorer; and Commit Checkpoint's form. The README's
// pictures of both come from here (test-results/screenshots/views.png and
// checkpoint-form.png, copied to media/screenshots/).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { expandPane, openBatonContainer, openFile, openWorkbench, runCommand, screenshot, workbench } from './support/workbench';

describe('sidebar (UI)', function () {
  before(() => openWorkbench());

  it('Checkpoints opens on the current project’s checkpoints with most of the side bar, its title whole beside three icons', async () => {
    const { page } = workbench();
    const notes = path.join(workbench().vault, 'sessions', 'dunes', 'uncommitted.md');
    const editor = await openFile('checkout.ts');
    await editor
      .locator('.codelens-decoration')
      .filter({ hasText: /checkpoints · last:/ })
      .first()
      .waitFor({ timeout: 30000 });
    const sidebar = await openBatonContainer();
    const pane = await expandPane(sidebar, 'Checkpoints');
    const kestrel = pane.getByRole('treeitem', { name: /^kestrel/ });
    await kestrel.waitFor({ timeout: 30000 });
    assert.strictEqual(await kestrel.getAttribute('aria-expanded'), 'true', 'the current project is open');
    const fix = pane.getByRole('treeitem', { name: /^Fix the checkout crash on empty carts/ });
    await fix.waitFor({ timeout: 15000 });
    assert.strictEqual(await fix.getAttribute('aria-level'), '2', 'a checkpoint right under its project');
    assert.strictEqual(await sidebar.locator('.pane-header[aria-label^="Projects"]').count(), 0, 'no second view repeating the list');

    // Open what was ruled out, as a person would: the twisties, not the rows (a row's click opens the checkpoint).
    await fix.locator('.monaco-tl-twistie').click();
    const failed = pane.getByRole('treeitem', { name: /^Didn't work/ });
    await failed.waitFor({ timeout: 15000 });
    await failed.locator('.monaco-tl-twistie').click();
    await pane.getByRole('treeitem', { name: /^retrying the payment call/ }).waitFor({ timeout: 15000 });

    const header = pane.locator('.pane-header').first();
    await header.hover();
    const icons = await header.locator('.actions .action-item:visible').count();
    // Commit Checkpoint, Search, Resume, Collapse All and the ... menu.
    assert.ok(icons <= 5, `${icons} icons beside the title`);
    const title = header.locator('h3.title');
    const whole = await title.evaluate((el) => el.scrollWidth <= el.clientWidth);
    assert.ok(whole, `the title is cut: "${await title.innerText()}"`);

    // A session left silent for 8 hours: the Abandoned Sessions view appears for it (the suites before closed the fixture's).
    // Its folder made the same instant as its file, as an agent's first note makes it (the watcher once missed such a file: live.test.ts).
    fs.mkdirSync(path.dirname(notes), { recursive: true });
    fs.writeFileSync(notes, `- left the tide tables half done <!-- ts=${Math.floor(Date.now() / 1000) - 8 * 3600} agent=aider -->\n`);
    const abandoned = await expandPane(sidebar, 'Abandoned Sessions');
    await abandoned.getByRole('treeitem', { name: /aider · dunes/ }).waitFor({ timeout: 30000 });
    // As a person leaves the rarer views: collapsed.
    // Abandoned too, once seen: after an earlier suite opened and closed Agents, VS Code gives freed height to
    // whichever view it likes (148 of 833 px for Checkpoints in a full run); the split of a first workbench is
    // checked when this suite runs alone. What is checked here: the space goes to Checkpoints, not to File Checkpoints.
    for (const name of ['Agents', 'Plans', 'Abandoned Sessions']) {
      const h = sidebar.locator(`.pane-header[aria-label^="${name}"]`).first();
      if ((await h.getAttribute('aria-expanded')) === 'true') await h.click();
    }
    const [bar, checkpoints] = await Promise.all([sidebar.boundingBox(), pane.boundingBox()]);
    assert.ok(bar && checkpoints);
    assert.ok(checkpoints.height > bar.height * 0.5, `Checkpoints has ${Math.round(checkpoints.height)} of ${Math.round(bar.height)} px`);
    await page.mouse.move(900, 500);
    await screenshot('views');
  });

  it('File Checkpoints is in the Explorer, following the active editor', async () => {
    await runCommand('View: Show Explorer');
    const sidebar = workbench().page.locator('.part.sidebar');
    const pane = await expandPane(sidebar, 'File Checkpoints');
    await pane.getByRole('treeitem', { name: /^Fix the checkout crash on empty carts/ }).waitFor({ timeout: 30000 });
    assert.match(await pane.locator('.pane-header').first().innerText(), /checkout\.ts/);
    await screenshot('file-checkpoints');
  });

  it('Commit Checkpoint opens the form, one markdown document with Commit and Discard on its title; Discard writes nothing', async () => {
    const { page, vault } = workbench();
    const dir = path.join(vault, 'sessions', 'kestrel');
    const before = fs.readdirSync(dir).filter((f) => f.endsWith('.md'));
    await openBatonContainer();
    await runCommand('Baton: Commit Checkpoint');
    const tab = page.locator('.tabs-container .tab.active');
    await tab.filter({ hasText: /checkpoint-kestrel\.md/ }).waitFor({ timeout: 30000 });
    const form = page.locator('.editor-group-container.active .monaco-editor').first();
    for (const heading of ['## Task', '## State', "## Didn't work"]) {
      await form.locator('.view-line').filter({ hasText: heading }).first().waitFor({ timeout: 15000 });
    }
    const actions = page.locator('.editor-group-container.active .editor-actions');
    await actions.locator('.action-label[aria-label^="Commit"]').waitFor({ timeout: 15000 });
    await actions.locator('.action-label[aria-label^="Discard Checkpoint Form"]').waitFor({ timeout: 15000 });
    await page.mouse.move(900, 500);
    await screenshot('checkpoint-form');
    await runCommand('Baton: Discard Checkpoint Form');
    await tab.filter({ hasText: /checkpoint-kestrel\.md/ }).waitFor({ state: 'detached', timeout: 15000 });
    assert.deepStrictEqual(
      fs.readdirSync(dir).filter((f) => f.endsWith('.md')),
      before,
      'Discard wrote a checkpoint',
    );
  });
});
