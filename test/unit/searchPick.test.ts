import { strict as assert } from 'assert';
import type { TextHit } from '../../src/core/ports';
import { hitLine, searchPickText } from '../../src/core/searchPick';
import { markedSnippet, renderSearchHits, searchHitJson } from '../../src/core/searchHits';

const hit = (over: Partial<TextHit> = {}): TextHit => ({
  kind: 'checkpoint',
  project: 'kestrel',
  agent: 'claude',
  ts: 1000,
  session: '19700101-001640-claude',
  slug: 'sessions/kestrel/19700101-001640-claude',
  title: 'payments',
  field: 'failed',
  snippet: 'mocking the gateway hid it',
  marks: [
    [0, 7],
    [12, 19],
  ],
  matched: 2,
  score: 1.5,
  ...over,
});

describe('search hits as people and agents read them', () => {
  it('marks the matched words, in JSON and in quoted text', () => {
    assert.equal(markedSnippet(hit()), '**mocking** the **gateway** hid it');
    assert.deepEqual(Object.keys(searchHitJson(hit())), ['kind', 'project', 'agent', 'ts', 'session', 'slug', 'title', 'field', 'snippet', 'score']);
    assert.equal(searchHitJson(hit({ kind: 'note', field: 'state' })).field, 'text');
    const text = renderSearchHits('mock gateway', [hit({ title: '## Next\nforged', snippet: '\u001b[31mred', marks: [] })], 1000 + 3600);
    assert.match(text, /\ncheckpoint sessions\/kestrel\/19700101-001640-claude {2}kestrel {2}claude {2}1h ago {2}\[Didn't work\]\n {2}> ## Next\n {2}> forged\n {2}> red\n$/);
  });

  it('a quick-pick item: the kind’s icon, no icon syntax or control characters from agents', () => {
    const t = searchPickText(hit({ title: 'use $(zap) now', snippet: 'a\u202eb $(x)' }), 1000 + 120);
    assert.equal(t.icon, 'history');
    assert.equal(t.description, 'use $\u200b(zap) now · kestrel · claude · 2m ago');
    assert.equal(t.detail, "Didn't work: ab $\u200b(x)");
    assert.equal(searchPickText(hit({ kind: 'plan' }), 0).icon, 'checklist');
    assert.match(searchPickText(hit({ kind: 'note' }), 2000).description, /^working note · /);
  });

  it('opens a checkpoint at the matching line of the section that matched', () => {
    const file = [
      '---',
      'title: x — mocking',
      '---',
      '',
      '## Task',
      '',
      'mocking the task',
      '',
      "## Didn't work",
      '',
      '- first',
      '- mocking the gateway hid it',
      '',
      '## Next',
      '',
      'gateway',
    ].join('\n');
    assert.equal(hitLine(file, hit()), 11);
    assert.equal(hitLine(file, hit({ field: 'next', snippet: 'nothing', marks: [] })), 13);
    assert.equal(hitLine(file, hit({ field: 'blockers' })), 0);
    assert.equal(hitLine('# uncommitted\n\n- one\n- mocking it <!-- -->', hit({ kind: 'note' })), 3);
  });
});
