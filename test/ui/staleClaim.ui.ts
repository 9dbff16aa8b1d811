// A Verified claim gone stale, as a person sees it, for the README (issue 26):
// a run recorded by the real Claude Code hook, a checkpoint whose claim names
// it, then the covered file edited and saved; the hover on its first line says
// which file changed since the run and offers Re-run Verification. Everything
// made here is taken back afterwards, so the suites after read the fixture as
// it was.
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { openFile, openWorkbench, screenshot, workbench } from './support/workbench';

const REL = path.join('src', 'limits.ts');
const COMMAND = 'npm test -- limits';

function git(args: string[], at?: number): string {
  const date = at === undefined ? {} : { GIT_AUTHOR_DATE: `@${at} +0000`, GIT_COMMITTER_DATE: `@${at} +0000` };
  const r = spawnSync('git', ['-c', 'user.name=Baton Test', '-c', 'user.email=baton-test@example.invalid', '-c', 'commit.gpgsign=false', ...args], {
    cwd: workbench().workspace,
    encoding: 'utf8',
    env: { ...process.env, ...date },
  });
  assert.strictEqual(r.status, 0, `git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
}

function baton(args: string[], input = ''): void {
  const { extensionPath, vault, workspace } = workbench();
  const r = spawnSync(process.execPath, [path.join(extensionPath, 'dist', 'cli.js'), ...args], {
    cwd: workspace,
    encoding: 'utf8',
    input,
    env: { ...process.env, BATON_VAULT: vault, BATON_AGENT: '', BATON_PROJECT: '' },
  });
  assert.strictEqual(r.status, 0, `baton ${args.join(' ')}: ${r.stdout}${r.stderr}`);
}

describe('a stale claim in the hover (UI)', function () {
  let head = '';
  let scope = '';
  /** The scope's open notes before this suite (null: none; an earlier suite's checkpoint may have folded them all). */
  let notes: string | null = null;
  let existing: string[] = [];

  before(async () => {
    const { page, workspace, vault } = workbench();
    head = git(['rev-parse', 'HEAD']);
    if ((await page.locator('.monaco-workbench').count()) === 0) await openWorkbench();
    scope = path.join(vault, 'sessions', 'kestrel');
    existing = fs.readdirSync(scope);
    const notesFile = path.join(scope, 'uncommitted.md');
    notes = fs.existsSync(notesFile) ? fs.readFileSync(notesFile, 'utf8') : null;
    const now = Math.floor(Date.now() / 1000);
    const file = path.join(workspace, REL);
    baton(['note', '--agent', 'claude-code', '--at', String(now - 3600), 'rate limits per token, not per IP']);
    fs.writeFileSync(file, '// Request limits, per API token.\nexport const perMinute = 60;\nexport const burst = 10;\n');
    git(['add', REL]);
    git(['commit', '-q', '-m', 'limits per token'], now - 1800);
    // The run, as Claude Code's PostToolUse hook hands it over.
    baton(
      ['hook', 'claude-code', 'post-tool-use'],
      JSON.stringify({
        session_id: 's-limits',
        transcript_path: '',
        cwd: workspace,
        permission_mode: 'default',
        hook_event_name: 'PostToolUse',
        tool_name: 'Bash',
        tool_input: { command: COMMAND, description: 'Check the limits file' },
        tool_use_id: 'toolu_limits',
        tool_response: { stdout: '', stderr: '', interrupted: false, isImage: false },
      }),
    );
    baton([
      'checkpoint',
      '--agent',
      'claude-code',
      '--task',
      'Rate limits per API token',
      '--decided',
      'limit per token; an IP is shared behind NAT',
      '--verified',
      `limits unchanged by the refactor — ${COMMAND}`,
      '--file',
      'src/limits.ts',
      '--next',
      'a burst allowance per plan',
    ]);
    // Saved after the checkpoint: the claim's run saw the old file.
    fs.writeFileSync(file, '// Request limits, per API token.\nexport const perMinute = 120;\nexport const burst = 10;\n');
  });

  after(() => {
    const { workspace } = workbench();
    for (const f of fs.readdirSync(scope)) if (!existing.includes(f)) fs.rmSync(path.join(scope, f), { recursive: true, force: true });
    // The rmSync above removed a notes file this suite made; one that was there gets its notes back.
    if (notes !== null) fs.writeFileSync(path.join(scope, 'uncommitted.md'), notes);
    git(['reset', '-q', '--hard', head]);
    fs.rmSync(path.join(workspace, REL), { force: true });
  });

  it('hovers the first line of the edited file: the claim stale, which file changed since its run, Re-run Verification', async () => {
    const { page } = workbench();
    const editor = await openFile('limits.ts');
    const first = editor.locator('.view-line').first();
    await first.waitFor({ timeout: 15000 });
    await editor
      .locator('.codelens-decoration')
      .filter({ hasText: /checkpoints? · last:/ })
      .first()
      .waitFor({ timeout: 30000 });
    await first.locator('span span').first().hover();
    const hover = page.locator('.monaco-hover:visible').filter({ hasText: 'stale:' });
    await hover.first().waitFor({ timeout: 20000 });
    const text = await hover.first().innerText();
    for (const expected of [
      'Rate limits per API token',
      'Verified',
      'stale:',
      '1 of its 1 file changed since (src/limits.ts)',
      're-run before relying on it',
      'Re-run Verification',
    ]) {
      assert.ok(text.includes(expected), `the hover shows "${expected}":\n${text}`);
    }
    await screenshot('stale-claim');
    await page.keyboard.press('Escape');
  });
});
