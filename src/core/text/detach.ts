/**
 * A copy of `s` that does not keep the text it was cut from alive. V8 keeps a substring of 13 or
 * more characters as a view of its parent, so a memo or cache keyed by a piece of a body held the
 * whole body: at 7,000 skills the Chinese-run memos and the reference keys kept ~25 MB of bodies
 * that nothing else referred to (a heap snapshot of the language server with the checks done).
 */
export function detach(s: string): string {
  return s.length < 13 ? s : (' ' + s).slice(1);
}
