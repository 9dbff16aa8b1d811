// Gemini CLI's folder trust as doctor and the Agents view judge it
// (app/health/geminiTrust.ts over adapters/agents/geminiSettings.ts), on real
// files in a temporary HOME: the rules of Gemini 0.61.0's trustedFolders.json.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { geminiCompressionThreshold, geminiFolderTrust } from '../../src/adapters/agents/geminiSettings';
import type { AgentHealthInput } from '../../src/app/agentHealth';
import { geminiTrustProblems } from '../../src/app/health/geminiTrust';
import { tempDir } from './support/tempVault';

describe('Gemini CLI folder trust (doctor, the Agents view)', () => {
  let root: string;
  let home: string;
  let project: string;
  const trusted = (rules: Record<string, string>): void => {
    fs.mkdirSync(path.join(home, '.gemini'), { recursive: true });
    fs.writeFileSync(path.join(home, '.gemini', 'trustedFolders.json'), JSON.stringify(rules));
  };
  const input = (): AgentHealthInput => ({
    agent: 'gemini',
    scope: 'user',
    projectDir: project,
    vault: path.join(root, 'vault'),
    home,
    launcher: {} as AgentHealthInput['launcher'],
    seen: [],
    pathEnv: '',
  });

  beforeEach(() => {
    root = tempDir('baton-gemini-trust-');
    home = path.join(root, 'home');
    project = path.join(root, 'work', 'kestrel');
    fs.mkdirSync(project, { recursive: true });
    fs.mkdirSync(home, { recursive: true });
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('a connected Gemini in a folder never trusted: one problem, with the step that fixes it; trusted, none', () => {
    const [p, ...more] = geminiTrustProblems(input(), 'yes', {});
    assert.equal(more.length, 0);
    assert.equal(p.fix.kind, 'manual');
    assert.match(p.text, new RegExp(`has not been told to trust ${project.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    assert.match(p.text, /turns off every MCP server, Baton's included: start `gemini` in .* and choose "Trust folder"/);
    trusted({ [project]: 'TRUST_FOLDER' });
    assert.deepEqual(geminiTrustProblems(input(), 'yes', {}), []);
    // Not connected: Gemini's trust is none of Baton's business.
    fs.rmSync(path.join(home, '.gemini', 'trustedFolders.json'));
    assert.deepEqual(geminiTrustProblems(input(), 'no', {}), []);
  });

  it("Gemini's rules: the longest matching path decides, TRUST_PARENT trusts its parent, DO_NOT_TRUST says so; the switches", () => {
    trusted({ [path.join(root, 'work', 'other')]: 'TRUST_PARENT' });
    assert.equal(geminiFolderTrust(home, project, {}).trusted, true);
    trusted({ [path.join(root, 'work', 'other')]: 'TRUST_PARENT', [project]: 'DO_NOT_TRUST' });
    assert.equal(geminiFolderTrust(home, project, {}).trusted, false);
    assert.match(geminiTrustProblems(input(), 'yes', {})[0].text, /is told not to trust/);
    trusted({ [path.join(root, 'work', 'kestrel-two')]: 'TRUST_FOLDER' });
    assert.equal(geminiFolderTrust(home, project, {}).trusted, undefined, 'a sibling that shares a prefix is no parent');
    assert.equal(geminiFolderTrust(home, project, { GEMINI_CLI_TRUST_WORKSPACE: 'true' }).trusted, true);
    fs.writeFileSync(path.join(home, '.gemini', 'settings.json'), '{\n  // the person turned trust off\n  "security": { "folderTrust": { "enabled": false } }\n}\n');
    assert.deepEqual(geminiFolderTrust(home, project, {}).trusted, true);
  });

  it('the compression threshold: user settings, then the workspace, then the system file; 0.5 unset', () => {
    assert.equal(geminiCompressionThreshold(home, project, {}), 0.5);
    fs.mkdirSync(path.join(home, '.gemini'), { recursive: true });
    fs.writeFileSync(path.join(home, '.gemini', 'settings.json'), '{ "model": { "compressionThreshold": 0.2 } }');
    assert.equal(geminiCompressionThreshold(home, project, {}), 0.2);
    fs.mkdirSync(path.join(project, '.gemini'));
    fs.writeFileSync(path.join(project, '.gemini', 'settings.json'), '{ "model": { "compressionThreshold": 0.3 } }');
    assert.equal(geminiCompressionThreshold(home, project, {}), 0.3);
    const system = path.join(root, 'system.json');
    fs.writeFileSync(system, '{ "model": { "compressionThreshold": 0.9 } }');
    assert.equal(geminiCompressionThreshold(home, project, { GEMINI_CLI_SYSTEM_SETTINGS_PATH: system }), 0.9);
  });
});
