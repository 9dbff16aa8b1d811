// The entry the extension host loads for the packaged-.vsix smoke suite
// (scripts/vscode-test/vsix.js): every compiled `*.test.js` beside it, with
// mocha, as test/integration/index.ts does for the integration suites.
import * as fs from 'fs';
import * as path from 'path';
import * as util from 'util';
import Mocha from 'mocha';
import * as vscode from 'vscode';

/** Rejects when any test fails, so the launcher cannot report a pass it did not see. */
export async function run(): Promise<void> {
  console.log(`Baton .vsix smoke suite: VS Code ${vscode.version}, Node ${process.versions.node}`);
  // The web workbench forwards console.log arguments joined, not formatted.
  const base = Mocha.reporters.Base as unknown as { consoleLog: (...args: unknown[]) => void };
  base.consoleLog = (...args: unknown[]) => console.log(util.format(...args));
  const mocha = new Mocha({ ui: 'bdd', color: false, reporter: 'spec', timeout: 180000 });
  const files = fs
    .readdirSync(__dirname)
    .filter((n) => n.endsWith('.test.js'))
    .sort();
  if (files.length === 0) throw new Error(`no *.test.js under ${__dirname}: was build-tests run?`);
  for (const f of files) mocha.addFile(path.join(__dirname, f));
  const failures = await new Promise<number>((resolve) => mocha.run(resolve));
  if (failures > 0) throw new Error(`${failures} smoke test(s) failed`);
}
