// The walkthrough's "Hover a file", checked off in the real workbench by the
// hover a person gives, and not before.
//
// Why it needs a window of its own: VS Code checks an `onContext:` step off
// only when the key changes to true after its walkthrough service registered
// the step. A key already true at registration is put in the service's
// session events without progressing the step, and every later change of it
// is then ignored for that window (registerDoneListeners and progressByEvent
// in gettingStartedService.ts; the service is made when something first asks
// for it, here the walkthrough opened from the palette). workbench.ui.ts
// hovers checkout.ts before any suite opens the walkthrough, so in that
// window `baton.fileHovered` is true at registration and the step can never
// be checked off: that, not the hover, is why running Show or Focus Hover
// there did nothing. So this suite reloads the window (a new extension host:
// no key set), opens the walkthrough first, and only then hovers.
import * as assert from 'assert';
import type { Locator } from 'playwright-core';
import { errorNotifications, openFile, openWorkbench, quickOpen, runCommand, screenshot, treeItem, workbench } from './support/workbench';

/** Welcome: Open Walkthrough… from the palette, then Baton's. */
async function openWalkthrough(): Promise<Locator> {
  const { page } = workbench();
  await quickOpen('>Welcome: Open Walkthrough', 'Open Walkthrough');
  await page.locator('.quick-input-widget .quick-input-list .monaco-list-row').filter({ hasText: 'Get Started with Baton' }).first().click();
  const container = page.locator('.gettingStartedContainer');
  await container.getByText('Get Started with Baton').first().waitFor({ timeout: 30000 });
  return container;
}

const hoverStep = (container: Locator): Locator => container.locator('[data-done-step-id$="#hoverFile"]');

describe('walkthrough: "Hover a file" (UI)', function () {
  before(async () => {
    // A fresh window, whatever the suites before did in theirs (see above).
    await openWorkbench();
  });

  after(async () => {
    await runCommand('View: Close All Editors').catch(() => undefined);
  });

  it('is checked off once a checkpoint hover was shown on a touched file, not when the file is merely open', async () => {
    const { page } = workbench();
    let container = await openWalkthrough();
    if ((await hoverStep(container).getAttribute('aria-checked')) === 'true') {
      // Checked in an earlier window of this profile: start it over, so the check below means something.
      await runCommand('Developer: Reset Welcome Page Walkthrough Progress');
      container = await openWalkthrough();
    }
    assert.strictEqual(await hoverStep(container).getAttribute('aria-checked'), 'false', 'not done before any hover');

    // The touched file open, its lens shown (Baton has looked at it), no hover yet: still not done. Opened from
    // the Explorer, so the pointer is in the side bar, not resting where the editor's first line appears.
    await runCommand('View: Show Explorer');
    const src = treeItem(/^src/).first();
    await src.waitFor({ timeout: 30000 });
    if ((await src.getAttribute('aria-expanded')) !== 'true') await src.click();
    await treeItem(/^checkout\.ts/).click();
    const editor = page.locator('.editor-group-container.active .monaco-editor').first();
    await editor
      .locator('.codelens-decoration')
      .filter({ hasText: /\d+ checkpoints? · last:/ })
      .first()
      .waitFor({ timeout: 30000 });
    container = await openWalkthrough();
    assert.strictEqual(await hoverStep(container).getAttribute('aria-checked'), 'false', 'a file open with its lens is no hover');

    // The hover, as a person gives it: the pointer on the first line.
    const again = await openFile('checkout.ts');
    await again.locator('.view-line').first().locator('span span').first().hover();
    await page
      .locator('.monaco-hover:visible')
      .filter({ hasText: /\d+ checkpoints? touched this file/ })
      .first()
      .waitFor({ timeout: 15000 });
    await page.keyboard.press('Escape');

    container = await openWalkthrough();
    await container.locator('[data-done-step-id$="#hoverFile"][aria-checked="true"]').waitFor({ timeout: 15000 });
    await screenshot('walkthrough-hover-done');
    assert.deepStrictEqual(await errorNotifications(), []);
  });
});
