// The extension loads from the development folder, activates, and registers
// every command its manifest declares (a declared but unregistered command is a
// palette entry that fails when clicked).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';

const EXTENSION_ID = 'baton-dev.baton';

interface Manifest {
  contributes?: { commands?: { command: string }[] };
}

function extension(): vscode.Extension<unknown> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(ext, `${EXTENSION_ID} is not installed in this extension host`);
  return ext;
}

describe('activation', () => {
  it(`finds ${EXTENSION_ID}`, () => {
    const ext = extension();
    assert.strictEqual(ext.id.toLowerCase(), EXTENSION_ID);
    assert.ok(fs.existsSync(path.join(ext.extensionPath, 'package.json')), `no package.json in ${ext.extensionPath}`);
  });

  it('activates', async () => {
    const ext = extension();
    await ext.activate();
    assert.strictEqual(ext.isActive, true);
  });

  it('registers every command declared in package.json', async () => {
    const ext = extension();
    await ext.activate();
    const manifest = JSON.parse(fs.readFileSync(path.join(ext.extensionPath, 'package.json'), 'utf8')) as Manifest;
    const declared = (manifest.contributes?.commands ?? []).map((c) => c.command);
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = declared.filter((c) => !registered.has(c));
    assert.deepStrictEqual(missing, [], `declared in package.json but not registered: ${missing.join(', ')}`);
    console.log(`    (${declared.length} declared commands, all registered)`);
  });
});
