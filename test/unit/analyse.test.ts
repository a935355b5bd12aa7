import { strict as assert } from 'node:assert';
import { analyse, splitIdentifier } from '../../src/core/text/analyse';
import { splitPassages, cleanMarkdown } from '../../src/core/text/passages';

describe('analyse', () => {
  it('stems English and drops stop words and filler', () => {
    assert.deepEqual(analyse('Please help me with deploying the containers'), ['deploy', 'contain']);
  });

  it('splits identifiers and keeps the compound', () => {
    assert.deepEqual(splitIdentifier('parseHTTPResponse'), ['parse', 'HTTP', 'Response']);
    assert.deepEqual(analyse('call getUserName in user_service.py'), ['call', 'getusername', 'user', 'name', 'user_servicepy', 'user', 'servic', 'py']);
    assert.ok(analyse('node.js and c++').includes('nodejs'));
  });

  it('reads an acronym\'s plural as the acronym, as it folds an English plural', () => {
    assert.deepEqual(analyse('extract tables from PDFs'), analyse('extract table from PDF'));
    assert.deepEqual(analyse('APIs URLs PRs IDs'), ['api', 'url', 'pr', 'id']);
    assert.ok(analyse('listPRs').includes('pr'), 'inside an identifier too');
    // Not an acronym's plural: K8s, CSS, macOS.
    assert.deepEqual(analyse('K8s CSS'), ['k8s', 'css']);
    assert.ok(analyse('macOS').includes('os'));
  });

  it('uses the segmenter for CJK runs, bigrams without one', () => {
    assert.deepEqual(analyse('转换PDF文件', { segmenter: (s) => (s === '转换' ? ['转换'] : ['文件']) }), ['转换', '文件', 'pdf']);
    assert.deepEqual(analyse('表格提取'), ['表格', '格提', '提取']);
  });
});

describe('passages', () => {
  it('splits by heading and size, trims fenced code, strips markup', () => {
    const body = ['# Intro', 'Use **this** [tool](http://x).', '## Steps', ...Array.from({ length: 30 }, (_, i) => `step ${i} does work`), '```', 'l1', 'l2', 'l3', 'l4', 'l5', '```'].join('\n');
    const ps = splitPassages(body, 40);
    assert.equal(ps[0].heading, 'Intro');
    assert.equal(ps[0].text, 'Use this tool.');
    assert.ok(ps.length >= 4);
    assert.ok(ps.every((p) => p.text.split(' ').length <= 40 + 4));
    const all = ps.map((p) => p.text).join(' ');
    assert.ok(all.includes('l3') && !all.includes('l4'), 'only the first code lines are kept');
    assert.equal(cleanMarkdown('<div>a</div> `b` ![img](x.png)'), 'a b');
  });
});
