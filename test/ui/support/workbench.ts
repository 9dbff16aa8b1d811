// What the UI suites share: the page the runner (scripts/vscode-test/ui.js)
// hands over, and helpers that act as a person would (the palette, the side
// bar, a file opened through Go to File, screenshots once the views are idle).
import * as fs from 'fs';
import * as path from 'path';
import type { Locator, Page } from 'playwright-core';

export interface WorkbenchContext {
  page: Page;
  url: string;
  flavour: string;
  vscodeVersion: string;
  extensionPath: string;
  workspace: string;
  vault: string;
  /** The extension host's HOME (the launcher, agents' user-scope files). */
  home: string;
  screenshotsDir: string;
}

interface Manifest {
  contributes?: {
    commands?: { command: string; title: string; category?: string }[];
    viewsContainers?: { activitybar?: { id: string; title: string }[] };
    views?: Record<string, { id: string; name: string }[]>;
  };
}

export function workbench(): WorkbenchContext {
  const ctx = (globalThis as { batonWorkbench?: WorkbenchContext }).batonWorkbench;
  if (!ctx) throw new Error('no workbench: run the UI tier through `node scripts/vscode-test/ui.js`');
  return ctx;
}

export function manifest(): Manifest {
  return JSON.parse(fs.readFileSync(path.join(workbench().extensionPath, 'package.json'), 'utf8')) as Manifest;
}

/** Opens the workbench on the fixture workspace and waits until the remote file system answers. */
export async function openWorkbench(): Promise<Page> {
  const { page, url } = workbench();
  await page.goto(url);
  await page.locator('.monaco-workbench').waitFor({ timeout: 60000 });
  await page.getByRole('tab', { name: /^Explorer/ }).waitFor({ timeout: 60000 });
  return page;
}

/** The activity-bar entry of a view container, by its title ("Baton"). */
export function activityBarItem(title: string): Locator {
  return workbench()
    .page.locator('.part.activitybar')
    .getByRole('tab', { name: new RegExp(`^${escapeRegExp(title)}\\b`) });
}

/**
 * Shows the Baton side bar. Clicking an already selected activity-bar entry
 * would hide the side bar, so it clicks only when Baton is not showing.
 */
export async function openBatonContainer(): Promise<Locator> {
  const { page } = workbench();
  const item = activityBarItem('Baton');
  await item.waitFor({ timeout: 30000 });
  if ((await item.getAttribute('aria-selected')) !== 'true') await item.click();
  await page.mouse.move(720, 450); // off the activity bar: no tooltip in the screenshots
  const sidebar = page.locator('.part.sidebar');
  await sidebar.locator('.composite.title').filter({ hasText: /baton/i }).waitFor({ timeout: 30000 });
  return sidebar;
}

/** Tree items (in any view) by accessible name. */
export function treeItem(name: RegExp | string): Locator {
  return workbench().page.getByRole('treeitem', { name });
}

/** Runs a command from the command palette by its title as shown there ("Baton: Refresh"). */
export async function runCommand(title: string): Promise<void> {
  await quickOpen(`>${title}`, title);
  await workbench().page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 15000 });
}

/** Types `text` into the quick input (F1; a leading `>` asks for commands) and clicks the row showing `row`. */
export async function quickOpen(text: string, row: string): Promise<void> {
  const { page } = workbench();
  await page.keyboard.press('Escape');
  const input = page.locator('.quick-input-widget input[type="text"]');
  const rowShown = page.locator('.quick-input-list .monaco-list-row').filter({ hasText: row }).first();
  // Right after the workbench loads, the palette may not list an extension's
  // commands yet; and an editor that takes the focus as it finishes opening
  // (the walkthrough's, on a loaded machine) closes the palette under the
  // typing (CI: "element is inert", then "not visible"). Either way: open it
  // again and ask again.
  for (let attempt = 1; ; attempt++) {
    try {
      if (!(await input.isVisible())) await page.keyboard.press('F1');
      await input.waitFor({ state: 'visible', timeout: 15000 });
      await input.fill(text, { timeout: 10000 });
      await rowShown.waitFor({ timeout: attempt < 3 ? 5000 : 15000 });
      break;
    } catch (err) {
      if (attempt >= 4) throw err;
      await page.keyboard.press('Escape');
      await input.waitFor({ state: 'hidden', timeout: 5000 }).catch(() => undefined);
    }
  }
  // Clicked, not Enter: Enter takes the highlighted row, which may be a recently used other one.
  await rowShown.click();
}

/** Error toasts currently shown (their text), so a test can assert a command did not fail. */
export async function errorNotifications(): Promise<string[]> {
  const toasts = workbench()
    .page.locator('.notifications-toasts .notification-list-item')
    .filter({ has: workbench().page.locator('.codicon-error') });
  return toasts.allInnerTexts();
}

/** Waits until no view shows a progress bar (a refresh in flight), then a moment for the repaint. */
export async function waitForIdle(timeout = 15000): Promise<void> {
  const { page } = workbench();
  const busy = page.locator('.monaco-workbench .monaco-progress-container.active:visible');
  const until = Date.now() + timeout;
  while ((await busy.count()) > 0 && Date.now() < until) await page.waitForTimeout(100);
  await page.waitForTimeout(300);
}

/** Saves test-results/screenshots/<name>.png (suffixed with the flavour off stable), once the views are idle: the page, or only `part` of it. */
export async function screenshot(name: string, part?: Locator): Promise<string> {
  await waitForIdle();
  const { page, screenshotsDir, flavour } = workbench();
  const file = path.join(screenshotsDir, `${name}${flavour === 'stable' ? '' : `-${flavour}`}.png`);
  await (part ?? page).screenshot({ path: file });
  return file;
}

/** Expands a view's pane in the side bar when it is collapsed; returns the pane. */
export async function expandPane(sidebar: Locator, name: string): Promise<Locator> {
  const selector = `.pane-header[aria-label^="${name}"]`;
  const header = sidebar.locator(selector).first();
  await header.waitFor({ state: 'attached', timeout: 30000 });
  if ((await header.getAttribute('aria-expanded')) === 'false') await header.click();
  // `has` is matched inside each pane, so it is built from the page, not from the side bar.
  return sidebar.locator('.pane').filter({ has: workbench().page.locator(selector) });
}

/** Opens a workspace file through Go to File, as a person would, and returns its editor. */
export async function openFile(name: string): Promise<Locator> {
  const { page } = workbench();
  await quickOpen(name, name);
  const editor = page.locator('.editor-group-container.active .monaco-editor').first();
  await editor.locator('.view-line').first().waitFor({ timeout: 15000 });
  return editor;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
