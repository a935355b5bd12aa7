import * as assert from 'node:assert/strict';
import { detectFacets, WordPattern } from '../../src/core/analysis/facets';

/** The expression `WordPattern` stands for, written out. */
function fullExpression(alternatives: string, digits: boolean, loose?: string): RegExp {
  const cls = digits ? '[\\p{L}\\p{N}]' : '[\\p{L}]';
  return new RegExp(`(?<!${cls})(?:${alternatives})(?!${cls})${loose ? `|${loose}` : ''}`, 'u');
}

/** A small deterministic generator (xorshift32). */
function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 0x100000000;
  };
}

describe('facet word patterns', () => {
  const cases: [string, boolean, string?][] = [
    ['python|pip|pypi|py', true],
    ['c#|csharp|\\.net|dotnet|asp\\.net', true],
    ['c\\+\\+|cpp|cmake', true],
    ['go', true],
    ['beginners?|novices?|for dummies', false, '初学者|小白'],
    ['enterprises?|enterprise-grade|fortune 500', false, '企业级'],
  ];
  // Pieces a text is made of: the words themselves, their neighbours in several scripts.
  const pieces = ['python', 'py', 'pip', 'c#', '.net', 'asp.net', 'c++', 'cmake', 'go', 'beginner', 'beginners', 'for dummies', 'enterprise', 'fortune 500',
    '初学者', '企业级', ' ', '  ', '-', '.', '，', '用', 'é', 'ß', 'Ω', '2', '٣', '𝐀', '😀', 'a', 'Z', '_', '\n', '→'];

  it('answers as the expression bounded by letters (and digits) of every script, on texts mixing scripts', () => {
    const next = rng(24);
    for (const [alternatives, digits, loose] of cases) {
      const fast = new WordPattern(alternatives, digits, loose);
      const full = fullExpression(alternatives, digits, loose);
      for (let n = 0; n < 3000; n++) {
        let text = '';
        const length = 1 + Math.floor(next() * 7);
        for (let i = 0; i < length; i++) text += pieces[Math.floor(next() * pieces.length)];
        assert.equal(fast.test(text), full.test(text), `${alternatives} on ${JSON.stringify(text)}`);
      }
    }
  });

  it('decides a match beside another script by the whole expression', () => {
    const p = new WordPattern('python', true);
    assert.equal(p.test('用python写'), false, 'CJK letters on both sides: inside a word');
    assert.equal(p.test('用python写 and python'), true, 'a later match stands on its own');
    assert.equal(p.test('𝐀python'), false, 'an astral letter before it');
    assert.equal(p.test('python，'), true, 'CJK punctuation is not a letter');
    assert.equal(p.test('python2'), false);
    assert.equal(new WordPattern('beginners?', false).test('5beginners'), true, 'a letters-only bound lets digits touch');
  });

  it('keeps the facets of skills written in and across scripts', () => {
    assert.deepEqual(detectFacets('A FastAPI service with pytest tests'), { language: ['python'] });
    assert.deepEqual(detectFacets('用 Python 和 Django 构建 Web 应用'), { language: ['python'] });
    assert.deepEqual(detectFacets('面向初学者的 React 教程'), { audience: ['novice'], frontend: ['react'] });
    assert.deepEqual(detectFacets('Pythonic idioms'), {});
  });
});
