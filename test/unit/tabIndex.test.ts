import { strict as assert } from 'node:assert';
import { TabIndex } from '../../src/node/tabIndex';

describe('TabIndex (key<TAB>value lines indexed over their bytes)', () => {
  /** What the Map the index replaces held for the same text. */
  function asMap(text: string): Map<string, string> {
    const m = new Map<string, string>();
    for (const line of text.split('\n')) {
      const tab = line.indexOf('\t');
      if (tab > 0) m.set(line.slice(0, tab), line.slice(tab + 1));
    }
    return m;
  }

  it('gives what a Map of the lines gives: values, key order, last line of a key winning in its first place', () => {
    const text = 'header line\n数据\tdata\tfigures\n\tno key\nno tab\n图表\tchart\n数据\tdata (again)\n𠀀字\tan astral key\nlast\tno newline';
    const index = new TabIndex(Buffer.from(text), text.indexOf('\n') + 1);
    const want = asMap(text.slice(text.indexOf('\n') + 1));
    assert.equal(index.size, want.size);
    assert.deepEqual([...index.keys()], [...want.keys()]);
    for (const [k, v] of want) assert.equal(index.get(k), v);
    for (const k of ['数', '数据x', 'no', '', 'header line']) assert.equal(index.get(k), undefined, k);
    assert.equal(index.maxKeyLength, Math.max(...[...want.keys()].map((k) => k.length)), 'in UTF-16 units, as string length counts');
  });

  it('takes back the parts it gave for the same text, and refuses parts that do not fit the text', () => {
    const lines = Array.from({ length: 3000 }, (_, i) => `键${i}\tvalue ${i}`);
    const text = Buffer.from(`header\n${lines.join('\n')}`);
    const made = new TabIndex(text, 7);
    const taken = new TabIndex(text, 7, made.parts());
    assert.equal(taken.size, made.size);
    assert.equal(taken.maxKeyLength, made.maxKeyLength);
    assert.deepEqual([...taken.keys()], [...made.keys()]);
    for (let i = 0; i < 3000; i += 13) assert.equal(taken.get(`键${i}`), `value ${i}`);
    assert.equal(taken.get('键3000'), undefined);
    const shifted = Buffer.concat([Buffer.from('x'), text]);
    assert.throws(() => new TabIndex(shifted, 8, made.parts()), /does not match the text/);
    const parts = made.parts();
    assert.throws(() => new TabIndex(text, 7, { ...parts, slots: parts.slots.subarray(1) }), /does not hold together/);
  });

  it('grows past its first estimate (short lines) without losing a key', () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `${i}\t${i % 7}`);
    const index = new TabIndex(Buffer.from(lines.join('\n')));
    assert.equal(index.size, 5000);
    for (let i = 0; i < 5000; i += 37) assert.equal(index.get(String(i)), String(i % 7));
  });
});
