/**
 * What a request says not to do ("Fix the CLI crash locally, but do not open a pull request";
 * "只检查代码问题，不要修改"). Authors write such requests to tell two skills apart, and a router
 * that reads every word hears the declined step as asked for: "Create a PRD only; do not plan or
 * implement" went to the planning skill. The declined clause is left out of what is matched,
 * and shown, so that a user sees why its words did not count.
 *
 * Only a clause that opens with the negation is declined (an imperative: "do not", "don't",
 * "never"; 不要, 别, 不用, 无需, 请勿): "we don't have SCAPI credentials yet" and "the hook never
 * fires" describe the situation, and their words still count, as do "Don't know why the build
 * fails" and "Never used Docker before" (a verb of knowing, a past participle: no instruction). A declined clause runs to the next
 * comma, full stop, semicolon or line end, so a wanted step after a comma is still read.
 *
 * Every pattern here is linear in the request's length (no nested or adjacent open-ended
 * repetition over the same characters): requests are user input of any size.
 */

/**
 * A clause that opens with an imperative negation, in English: the mark or joining word before
 * it (group 1), then the clause up to its end.
 */
const ENGLISH = /(^|[.;:!?]\s|,|(?<![\p{L}])(?:but|and|then|yet)\s)\s*((?:please\s+)?(?:(?:do\s+not|don['’]t|dont)(?!\s+(?:know|understand|see|remember|recall|think|care|mind|have|get\s+why)(?![\p{L}]))|never(?!\s+(?:[\p{L}]+ed|been|seen|heard|had|done|gotten|got|known|run|written|made|mind)(?![\p{L}])))(?![\p{L}])[^.;:!?,\n]*)/giu;

/**
 * The same in Chinese. 别 is not declined before 人, 的, 处, 名 or 称 (别人 "other people",
 * 别的 "other"), where it is no negation.
 */
const CHINESE = /(^|[，。；！？：,.;!?:]|但是?|并且|而且)\s*((?:请|也|千万|并)?(?:不要|不用|无需|不需要|请勿|切勿|别(?![人的处名称]))[^，。；！？：,.;!?\n]*)/gu;

/** Marks that join clauses; left at the end of what precedes a declined clause, they go with it. */
const JOINING_MARKS = new Set([',', ';', ':', '，', '；', '：']);
/** Joining words left at the end of what precedes a declined clause ("…locally, but"). */
const JOINING_WORDS = ['but', 'and', 'then', 'yet', '但是', '但', '并且', '而且'];

const isSpace = (c: string) => c === ' ' || c === '\t' || c === '\r' || c === '\u3000' || c === '\u00a0';
const isLetter = (c: string | undefined) => c !== undefined && /\p{L}/u.test(c);

/** `text` without the spaces, joining marks and joining words at its end. */
function trimJoinEnd(text: string): string {
  let end = text.length;
  for (;;) {
    while (end > 0 && (isSpace(text[end - 1]) || JOINING_MARKS.has(text[end - 1]))) end--;
    const head = text.slice(0, end).toLowerCase();
    const word = JOINING_WORDS.find((w) => head.endsWith(w) && (!/^[a-z]/.test(w) || !isLetter(head[end - w.length - 1])));
    if (!word) return text.slice(0, end);
    end -= word.length;
  }
}

/** `text` without the spaces and joining marks at its start. */
function trimJoinStart(text: string): string {
  let start = 0;
  while (start < text.length && (isSpace(text[start]) || JOINING_MARKS.has(text[start]))) start++;
  return text.slice(start);
}

/** One line without its declined clauses (`found` collects them). */
function declineLine(line: string, found: string[]): string {
  const cuts: { from: number; to: number; clause: string }[] = [];
  for (const re of [ENGLISH, CHINESE]) {
    for (const m of line.matchAll(re)) {
      const from = m.index + m[1].length;
      cuts.push({ from, to: m.index + m[0].length, clause: m[2].trim() });
    }
  }
  if (!cuts.length) return line;
  cuts.sort((a, b) => a.from - b.from);
  let out = '';
  let at = 0;
  const append = (text: string) => (out ? out + text : trimJoinStart(text));
  for (const cut of cuts) {
    if (cut.from < at) continue;
    found.push(cut.clause);
    out = trimJoinEnd(append(line.slice(at, cut.from)));
    at = cut.to;
  }
  // What follows the last cut clause: its sentence's end or joining mark stays after what came
  // before ("…locally."), and goes when nothing came before.
  let rest = line.slice(at).trimStart();
  if (/[.!?。！？]$/u.test(out) && /^[.!?。！？]/u.test(rest)) rest = rest.slice(1).trimStart();
  const joined = !out ? trimJoinStart(rest) : !rest || /^[.!?。！？,;:，；：]/u.test(rest) ? out + rest : `${out} ${rest}`;
  return joined.replace(/ {2,}/gu, ' ').trim();
}

export interface DeclinedRequest {
  /** The request without what it declines: what routing matches. */
  asked: string;
  /** Each declined clause, as written. */
  declined: string[];
}

/**
 * The request without the clauses it declines, and those clauses. A request that is all
 * declined ("Don't use any skill") is left whole: nothing else in it says what is wanted.
 */
export function declinedClauses(request: string): DeclinedRequest {
  const declined: string[] = [];
  const asked = request
    .split('\n')
    .map((line) => declineLine(line, declined))
    .join('\n')
    .trim();
  if (!declined.length || !/[\p{L}\p{N}]/u.test(asked)) return { asked: request, declined: [] };
  return { asked, declined };
}

/** The line that tells a user which clauses were not matched, and why. */
export function declinedNote(declined: readonly string[]): string {
  return `Not matched, because the request says not to: ${declined.map((c) => `“${c}”`).join('; ')}`;
}
