// Session lifecycle counts: open, resumed, closed, auto-closed, abandoned,
// each derived from the vault and the resume log, and exclusive.
import { strict as assert } from 'assert';
import { readResumes, recordResume } from '../../src/adapters/resumeLog';
import { sessionStats } from '../../src/app/sessionStats';
import { tempVault, type TempVault } from './support/tempVault';
import * as fs from 'fs';
import * as path from 'path';

describe('baton stats: the session lifecycle', () => {
  let v: TempVault;
  beforeEach(() => {
    v = tempVault();
  });
  afterEach(() => v.cleanup());

  it('counts each state once, per project and in total', async () => {
    const b = v.baton;
    // closed: a checkpoint nobody resumed after
    await b.commit({ scope: 'kestrel', agent: 'claude', fields: { task: 'first' } });
    v.advance(60);
    // resumed: a checkpoint followed by a resume on its scope
    const resumed = await b.commit({ scope: 'kestrel', agent: 'codex', fields: { task: 'second' } });
    recordResume(v.root, { ts: resumed.checkpoint.ts + 5, project: 'kestrel', agent: 'cursor', via: 'mcp' });
    // a resume on another scope resumes nothing here
    recordResume(v.root, { ts: resumed.checkpoint.ts + 5, project: 'heron', agent: 'cursor', via: 'mcp' });
    // abandoned, then auto-closed (its checkpoint is timed at its last note, after that resume)
    v.advance(60);
    await b.note('kestrel', 'gemini', 'half done');
    v.advance(7 * 3600);
    const [gone] = (await b.sessions('kestrel')).abandoned;
    await b.closeAbandoned('kestrel', gone.session);
    // abandoned, left open
    await b.note('heron', 'aider', 'started the migration');
    v.advance(7 * 3600);
    // open, active
    await b.note('heron', 'claude', 'still going');
    await b.note('heron', 'claude', 'second note, same session');
    // a worktree scope rolls up into its project
    await b.commit({ scope: 'kestrel/feature-x', agent: 'claude', fields: { task: 'in the worktree' } });

    const s = await sessionStats(b, readResumes(v.root));
    assert.deepEqual(s.projects.kestrel, { open: 0, resumed: 1, closed: 2, autoClosed: 1, abandoned: 0, total: 4 });
    assert.deepEqual(s.projects.heron, { open: 1, resumed: 0, closed: 0, autoClosed: 0, abandoned: 1, total: 2 });
    assert.deepEqual({ ...s, projects: {} }, { open: 1, resumed: 1, closed: 2, autoClosed: 1, abandoned: 1, total: 6, projects: {} });
    const only = await sessionStats(b, readResumes(v.root), 'heron');
    assert.deepEqual(Object.keys(only.projects), ['heron']);
  });

  it('reads a resume log with a torn line and survives its absence', () => {
    assert.deepEqual(readResumes(v.root), []);
    recordResume(v.root, { ts: 10, project: 'kestrel', agent: 'a', via: 'hook' });
    fs.appendFileSync(path.join(v.root, '.baton', 'resumes.log'), '{"ts": 11, "proj');
    assert.deepEqual(readResumes(v.root), [{ ts: 10, project: 'kestrel', agent: 'a', via: 'hook' }]);
  });
});
