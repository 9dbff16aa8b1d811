// Baton: Search… as a person uses it: type, see the hits, open one.
import * as assert from 'assert';
import { openBatonContainer, openWorkbench, screenshot, workbench } from './support/workbench';

describe('search (UI)', function () {
  before(() => openWorkbench());

  it('searches as you type, shows the hits with their icons, and opens the chosen one at its section', async () => {
    const { page } = workbench();
    // The extension's contributions are known once its container is.
    await openBatonContainer();
    await page.keyboard.press('Escape');
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget input[type="text"]');
    await input.waitFor({ timeout: 15000 });
    await input.fill('>Baton: Search');
    const command = page.locator('.quick-input-list .monaco-list-row').filter({ hasText: 'Baton: Search…' }).first();
    await command.waitFor({ timeout: 30000 });
    // Clicked, not Enter: a recently used command may be the highlighted row.
    await command.click();
    // Baton's own pick has replaced the palette once its placeholder shows.
    await page.locator('.quick-input-widget input[placeholder^="Words to find"]').waitFor({ timeout: 15000 });
    await page.waitForTimeout(300);
    // Typed on while the first word is searched: only the last search's hits stay.
    await input.pressSequentially('retry payment', { delay: 40 });
    const row = page.locator('.quick-input-list .monaco-list-row').filter({ hasText: 'retrying the payment call' }).first();
    await row.waitFor({ timeout: 15000 });
    assert.ok(await row.locator('.codicon-history').count(), 'a checkpoint’s icon');
    // The workbench highlights what its own matcher finds of the typed text
    // (searchCommand.ts): a single word, not "retry payment" (seen in 1.139.1).
    await input.fill('payment');
    await row.locator('.highlight').first().waitFor({ timeout: 15000 });
    await screenshot('search');
    await row.click();
    const editor = page.locator('.editor-group-container.active .monaco-editor').first();
    await editor.locator('.view-line').filter({ hasText: 'retrying the payment call' }).first().waitFor({ timeout: 15000 });
    assert.match((await page.locator('.tabs-container .tab.active').innerText()).replace(/\s+/g, ''), /20261001-090000-claude\.md/);
    await screenshot('search-opened');
  });
});
