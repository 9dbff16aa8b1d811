// The entry the extension host loads (`extensionTestsPath`): runs every
// compiled `*.test.js` beside it with mocha (BDD). Both launchers use the same
// suites: the offline one (scripts/vscode-test/run.js) calls this `run()`, and
// @vscode/test-cli (.vscode-test.mjs) finds the same files with its own mocha.
import * as fs from 'fs';
import * as path from 'path';
import * as util from 'util';
import Mocha from 'mocha';
import * as vscode from 'vscode';

function testFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? testFiles(path.join(dir, e.name)) : e.name.endsWith('.test.js') ? [path.join(dir, e.name)] : []))
    .sort();
}

/** Rejects when any test fails, so the launcher cannot report a pass it did not see. */
export async function run(): Promise<void> {
  // Said first, so every log shows which VS Code the suites ran in.
  console.log(
    `Baton integration suites: VS Code ${vscode.version} (${vscode.env.appName}, ${vscode.env.uiKind === vscode.UIKind.Web ? 'web' : 'desktop'}), Node ${process.versions.node}`,
  );
  // The web workbench forwards console.log arguments joined, not formatted;
  // format here so mocha's printf-style report reads right in the launcher.
  const base = Mocha.reporters.Base as unknown as { consoleLog: (...args: unknown[]) => void };
  base.consoleLog = (...args: unknown[]) => console.log(util.format(...args));
  const mocha = new Mocha({
    ui: 'bdd',
    color: false,
    reporter: 'spec',
    timeout: 30000,
    grep: process.env.BATON_TEST_GREP || undefined,
  });
  const files = testFiles(__dirname);
  if (files.length === 0) throw new Error(`no *.test.js under ${__dirname}: was build-tests run?`);
  for (const f of files) mocha.addFile(f);
  const failures = await new Promise<number>((resolve) => mocha.run(resolve));
  if (failures > 0) throw new Error(`${failures} integration test(s) failed`);
}
