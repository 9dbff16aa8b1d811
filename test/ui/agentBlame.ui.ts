// Agent blame as a person sees it, for the README: the faded annotation after
// the current line and the hover of a line in the middle of a session's block.
// The file's history is made here: backdated commits in the fixture
// repository and two sessions checkpointed by the built CLI.
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { openFile, openWorkbench, screenshot, workbench } from './support/workbench';

const DAY = 86400;

function git(args: string[], at?: number): void {
  const date = at === undefined ? {} : { GIT_AUTHOR_DATE: `@${at} +0000`, GIT_COMMITTER_DATE: `@${at} +0000` };
  const r = spawnSync('git', ['-c', 'user.name=Baton Test', '-c', 'user.email=baton-test@example.invalid', '-c', 'commit.gpgsign=false', ...args], {
    cwd: workbench().workspace,
    encoding: 'utf8',
    env: { ...process.env, ...date },
  });
  assert.strictEqual(r.status, 0, `git ${args.join(' ')}: ${r.stderr}`);
}

function baton(args: string[]): void {
  const { extensionPath, vault, workspace } = workbench();
  const r = spawnSync(process.execPath, [path.join(extensionPath, 'dist', 'cli.js'), ...args], { cwd: workspace, encoding: 'utf8', env: { ...process.env, BATON_VAULT: vault } });
  assert.strictEqual(r.status, 0, `baton ${args.join(' ')}: ${r.stdout}${r.stderr}`);
}

const FIRST = [
  '// Totals of a cart, in integer cents.',
  'export interface Line {',
  '  price: number;',
  '  qty: number;',
  '}',
  '',
  'export function total(lines: Line[]): number {',
  '  let sum = 0;',
  '  for (const l of lines) sum += l.price * l.qty;',
  '  return sum;',
  '}',
  '',
];

describe('agent blame (UI)', function () {
  let head = '';

  before(async () => {
    const { page, workspace } = workbench();
    head = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: workspace, encoding: 'utf8' }).stdout.trim();
    if ((await page.locator('.monaco-workbench').count()) === 0) await openWorkbench();
    const file = path.join(workspace, 'src', 'totals.ts');
    const now = Math.floor(Date.now() / 1000);
    const t1 = now - 2 * DAY - 3 * 3600;
    fs.writeFileSync(file, FIRST.join('\n'));
    git(['add', '-A']);
    git(['commit', '-q', '-m', 'totals'], now - 40 * DAY);
    baton(['note', '--agent', 'claude', '--at', String(t1), 'prices are floats: move to cents']);
    const cents = [...FIRST];
    cents.splice(5, 1, 'const toCents = (p: number) => Math.round(p * 100);');
    cents.splice(7, 3, '  let cents = 0;', '  for (const l of lines) cents += toCents(l.price) * l.qty;', '  return cents;');
    fs.writeFileSync(file, cents.join('\n'));
    git(['commit', '-q', '-am', 'totals in integer cents'], t1 + 3600);
    baton([
      'checkpoint',
      '--agent',
      'claude',
      '--at',
      String(t1 + 7200),
      '--task',
      'cart totals in cents',
      '--failed',
      'toFixed(2) on the float sum: still off by a cent on 3 × 0.1',
      '--decided',
      'integer cents end to end; format only at display',
      '--verified',
      'totals match the fixture carts (npm test -- cart)',
      '--next',
      'round tax per line, not on the sum',
    ]);
  });

  after(() => {
    // Suites after this one read the fixture repository as it was.
    git(['reset', '-q', '--hard', head]);
  });

  it('annotates the current line and hovers a line of the session with its checkpoint', async () => {
    const { page } = workbench();
    const editor = await openFile('totals.ts');
    // Line 9 (the loop), in the middle of claude's block: clicking puts the cursor there.
    const line9 = editor.locator('.view-line').filter({ hasText: 'for (const' }).first();
    await line9.waitFor({ timeout: 15000 });
    await line9.click({ position: { x: 5, y: 5 } });
    // The annotation is an `after` decoration: its text lives in a CSS rule, so wait for the rule's class on the line.
    await editor.locator('.view-line').filter({ hasText: 'for (const' }).locator('span[class*="ced-"]').first().waitFor({ state: 'attached', timeout: 20000 });
    await line9.locator('span span').nth(1).hover();
    const hover = page.locator('.monaco-hover:visible').filter({ hasText: 'written in this session' });
    await hover.first().waitFor({ timeout: 15000 });
    const text = await hover.first().innerText();
    for (const expected of ['cart totals in cents', "Didn't work", 'toFixed(2)', 'Decided', 'Next']) {
      assert.ok(text.includes(expected), `the hover shows "${expected}":\n${text}`);
    }
    await screenshot('agent-blame');
    await page.keyboard.press('Escape');
  });
});
