/** The open buffers and their check timers: debounce, cancellation of superseded work, version checks. */
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DocumentScheduler, isSkillDocument, keyOf } from '../../src/server/documentScheduler';

const FILE = path.resolve('/lib/csv/SKILL.md');
const URI = pathToFileURL(FILE).href;
const OTHER = path.resolve('/lib/pdf/SKILL.md');

/** A scheduler whose checks are recorded; `next()` resolves with the key of the next check. */
function setup(debounceMs = 0, semanticDelayMs = 0) {
  const checked: string[] = [];
  const waiters: ((key: string) => void)[] = [];
  const docs = new DocumentScheduler({
    debounceMs,
    semanticDelayMs,
    check: (key) => {
      checked.push(key);
      waiters.shift()?.(key);
    },
  });
  const next = () => new Promise<string>((resolve) => waiters.push(resolve));
  return { docs, checked, next };
}

describe('DocumentScheduler', () => {
  it('checks a burst of edits once, after the debounce, at the last version', async () => {
    const t = setup();
    const checked = t.next();
    for (let v = 1; v <= 5; v++) t.docs.changed(URI, `v${v}`, v, 'markdown');
    assert.equal(await checked, FILE);
    assert.deepEqual(t.checked, [FILE]);
    assert.equal(t.docs.get(FILE)?.text, 'v5');
    assert.equal(t.docs.versionOf(URI), 5);
    assert.equal(t.docs.isCurrent(FILE, 5), true);
    assert.equal(t.docs.isCurrent(FILE, 4), false);
    t.docs.dispose();
  });

  it('an edit cancels the check of the version before and makes it stale', () => {
    const t = setup(60_000);
    t.docs.changed(URI, 'v1', 1, 'markdown');
    const check = t.docs.begin(FILE, 1);
    assert.equal(check.current(), true);
    t.docs.changed(URI, 'v2', 2, 'markdown');
    assert.equal(check.token.isCancellationRequested, true);
    assert.equal(check.current(), false);
    const fresh = t.docs.begin(FILE, 2);
    assert.equal(fresh.current(), true);
    assert.equal(t.docs.begin(FILE, 2).token.isCancellationRequested, false);
    assert.equal(fresh.token.isCancellationRequested, true, 'a newer check cancels the one in flight');
    t.docs.dispose();
  });

  it('closing a buffer stops its waits, cancels its check and gives the disk back', async () => {
    const t = setup();
    t.docs.changed(URI, 'v1', 1, 'markdown');
    const check = t.docs.begin(FILE, 1);
    let semantic = false;
    t.docs.scheduleSemantic(FILE, () => (semantic = true));
    assert.equal(t.docs.overlay.get(FILE), 'v1');
    assert.equal(t.docs.closed(URI)?.version, 1);
    assert.equal(check.token.isCancellationRequested, true);
    assert.equal(t.docs.overlay.has(FILE), false);
    assert.equal(t.docs.has(FILE), false);
    // Timers of the same delay fire in order: once the other document's check ran, the closed one's would have.
    const checked = t.next();
    t.docs.changed(pathToFileURL(OTHER).href, 'x', 1, 'markdown');
    assert.equal(await checked, OTHER);
    assert.deepEqual(t.checked, [OTHER]);
    assert.equal(semantic, false);
    assert.equal(t.docs.closed(URI), undefined, 'closing twice is harmless');
    t.docs.dispose();
  });

  it('keeps only file buffers in the overlay the libraries read', () => {
    const t = setup(60_000);
    t.docs.changed('untitled:Untitled-1', 'draft', 1, 'skill');
    assert.equal(t.docs.has('untitled:Untitled-1'), true);
    assert.equal(t.docs.overlay.size, 0);
    t.docs.dispose();
  });

  it('a newer semantic wait replaces the older: only the last one runs', async () => {
    const t = setup(60_000, 0);
    t.docs.changed(URI, 'v1', 1, 'markdown');
    const ran: string[] = [];
    let done!: () => void;
    const last = new Promise<void>((resolve) => (done = resolve));
    t.docs.scheduleSemantic(FILE, () => ran.push('first'));
    t.docs.scheduleSemantic(FILE, () => {
      ran.push('second');
      done();
    });
    await last;
    assert.deepEqual(ran, ['second']);
    t.docs.dispose();
  });

  it('after dispose nothing fires and nothing is scheduled', async () => {
    const t = setup();
    t.docs.changed(URI, 'v1', 1, 'markdown');
    t.docs.dispose();
    t.docs.schedule(FILE, 0);
    t.docs.scheduleSemantic(FILE, () => t.checked.push('semantic'));
    // A zero-delay timer set after them fires after any they could have set.
    await new Promise((r) => setTimeout(r, 0));
    assert.deepEqual(t.checked, []);
  });

  it('keys file URIs by path and tells SKILL.md documents apart', () => {
    assert.equal(keyOf(URI), FILE);
    assert.equal(keyOf('untitled:Untitled-1'), 'untitled:Untitled-1');
    assert.equal(isSkillDocument(URI), true);
    assert.equal(isSkillDocument(pathToFileURL(path.resolve('/lib/csv/README.md')).href), false);
    assert.equal(isSkillDocument('untitled:Untitled-1', 'skill'), true);
  });
});
