/** Korean, Thai, Russian and Spanish requests read through the small glossaries (core/text/wordGlossary.ts, russianGlossary.ts, spanishGlossary.ts). */
import { strict as assert } from 'node:assert';
import { LexicalIndex } from '../../src/core/index/lexicalIndex';
import { parseSkill } from '../../src/core/parse/skillDoc';
import { DEFAULT_FIRST_STAGE } from '../../src/core/route/settings';
import { analyseRequest, unreadRequest } from '../../src/core/route/request';
import { lexicalFields } from '../../src/core/route/skillText';
import { RUSSIAN_GLOSSARY, russianStem } from '../../src/core/text/russianGlossary';
import { glossSpanish, SPANISH_GLOSSARY, spanishStem } from '../../src/core/text/spanishGlossary';
import { glossRequest, KOREAN_GLOSSARY, THAI_GLOSSARY } from '../../src/core/text/wordGlossary';

describe('Korean, Thai, Russian and Spanish through the glossaries', () => {
  it('reads a Korean word from its start, glossary word after glossary word, and leaves its ending', () => {
    assert.equal(glossRequest('취약한 의존성을 안전한 버전으로 올리고 테스트해줘.')?.readAs, 'vulnerable dependency safe version upgrade test.');
    assert.equal(glossRequest('현재 API 지연시간 기준값을 측정해서 보고만 해줘.')?.readAs, 'current API latency time baseline measure report.', 'a compound is read word by word; Latin words stay');
    assert.equal(glossRequest('미보안 구역'), null, 'a glossary word inside another word is not read');
    assert.equal(glossRequest('보안 감사해줘. 감사합니다!')?.readAs, 'security audit. thanks!', 'thanks is not an audit');
    assert.equal(glossRequest('결과를 표로 표시해줘')?.readAs, 'table display', 'a longer word wins over its first syllable: 표시 is no table');
  });

  it('reads a Thai run by the longest word at each place, a two-letter word only where one ended', () => {
    assert.equal(glossRequest('ตั้ง repo ใหม่แบบ partial clone')?.readAs, 'set up repo new partial clone');
    assert.equal(glossRequest('หาประวัติ commit')?.readAs, 'find history commit');
    assert.equal(glossRequest('สลบ'), null, 'ลบ (delete) inside สลบ is not read');
  });

  it('reads a Russian word by the longest stem it starts with, when what follows is an ending', () => {
    assert.equal(glossRequest('Покажи последние ошибки в Bugsnag')?.readAs, 'show latest error Bugsnag', 'short words and unknown ones are left out; Latin stays');
    assert.equal(glossRequest('отправь письмо с отчётом')?.readAs, 'send email report', 'ё is read as е');
    assert.equal(russianStem('ошибок'), 'ошибок', 'an irregular form has its own entry');
    assert.equal(russianStem('кодекс'), null, 'after a stem of three letters, at most two of ending: кодекс is no code');
    assert.equal(russianStem('логин'), 'логин', 'a longer stem wins: логин is a login, not a log');
    assert.equal(glossRequest('какая погода в Москве'), null, 'no generic word: no reading');
  });

  it('reads a Spanish word by its stem, leaves function words out and keeps the rest as written', () => {
    assert.equal(glossSpanish('Revisa si la ISR corrompe registros. Quiero un informe, no cambios.')?.readAs, 'review ISR corrupt record. report, change.', 'acronyms are names: never read as a stem');
    assert.equal(spanishStem('documentación'), 'documentaci', 'accents are dropped; the longest stem wins');
    assert.equal(spanishStem('codificación'), 'codific', 'a stem of five letters or more takes an ending of five (-ación)');
    assert.equal(spanishStem('verde'), 'ver', 'after a stem of three, two letters of ending');
    assert.equal(spanishStem('verdadero'), null);
    assert.equal(spanishStem('control'), 'control', 'a longer stem wins: control is not a count');
    assert.equal(glossSpanish('¿Dónde está la playa de Madrid?'), null, 'no glossary word: no reading');
  });

  it('gives no reading for a request without Hangul or Thai, and every entry has English', () => {
    assert.equal(glossRequest('Review the auth module'), null);
    assert.equal(glossRequest('帮我审查认证模块'), null, 'Chinese is the dictionary bridge\'s');
    for (const [word, english] of [...KOREAN_GLOSSARY, ...THAI_GLOSSARY, ...RUSSIAN_GLOSSARY, ...SPANISH_GLOSSARY]) {
      assert.ok(english.length > 0 && english.every((e) => /^[a-z][a-z -]*$/.test(e)), word);
    }
  });

  it('adds the English to the request\'s words, and still says the request is not read whole', () => {
    const doc = parseSkill({ id: 'security-audit', path: 'security-audit/SKILL.md', folderName: 'security-audit' }, '---\nname: security-audit\ndescription: Audit dependencies for known vulnerabilities and upgrade them to a safe version.\n---\n# Audit\n', ['spec']);
    const ix = new LexicalIndex();
    ix.upsert(doc.id, lexicalFields(doc, {}));
    const q = '취약한 의존성을 감사해줘';
    const req = analyseRequest(q, ix, DEFAULT_FIRST_STAGE, {});
    assert.equal(req.readAs, 'vulnerable dependency audit');
    for (const t of ['vulner', 'depend', 'audit']) assert.ok([...req.weights.keys()].some((k) => k.startsWith(t)), `${t} in ${[...req.weights.keys()]}`);
    assert.ok((ix.search(req.weights, undefined, req.translated).get('security-audit') ?? 0) > 0, 'the English meets the skill\'s words');
    const unknown = analyseRequest('트랜잭션을 살펴봐줘', ix, DEFAULT_FIRST_STAGE, {});
    assert.equal(unknown.readAs, null);
    assert.equal(ix.search(unknown.weights, undefined, unknown.translated).get('security-audit') ?? 0, 0, 'words outside the glossary meet nothing');
    assert.equal(unreadRequest(q, req.readAs), 'Hangul', 'read in part: "no skill fits" is not said of it');
    // A Latin word written onto a Korean ending is one token for the analyser; the reading has it apart.
    const pdf = analyseRequest('스캔한 영수증 PDF에서 표 데이터를 추출해줘', ix, DEFAULT_FIRST_STAGE, {});
    assert.equal(pdf.readAs, 'scan receipt PDF table data extract');
    for (const t of ['pdf', 'extract', 'receipt', 'scan']) assert.ok(pdf.weights.has(t), `${t} in ${[...pdf.weights.keys()]}`);
  });
});
