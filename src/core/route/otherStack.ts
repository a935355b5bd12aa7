/**
 * A skill that presents itself as for one language or framework, when the request names another:
 * "Atheris is a coverage-guided Python fuzzer" for "set up fuzzing for my Rust crate",
 * "Build event-driven Java applications with Azure Event Grid" for a .NET request. What the skill
 * is for is read where an agent reads first, the first sentence of its description, not from every
 * language its text mentions (a data engineer's skill that lists Python, SQL and Scala is not "for
 * Python"), nor from its name: the pair scan's variant finding is about a first sentence that does
 * not say its language (azure-identity-ts), and a rule reading names took those pairs' evidence
 * away. A library named `<name>.js` ("Mermaid.js diagrams") names a tool, not the language the
 * skill is for; Node.js is a runtime and counts.
 */
import { firstSentence } from '../analysis/facets';
import { detectFacets, type Facets, type FacetFamily } from '../analysis/facets';

/** The families in which a skill for another value does not serve the request at all. */
const STACK_FAMILIES: readonly FacetFamily[] = ['language', 'frontend'];

/** `<Name>.js` library names, which are not the language a skill is for (Node.js is). */
const JS_LIBRARY = /(?<![\p{L}])(?!node\.js)[\p{L}\d-]+\.js(?![\p{L}])/giu;

/** What a skill says it is for, in its description's first sentence. */
export function ownStack(description: string): Facets {
  return detectFacets(firstSentence(description).replace(JS_LIBRARY, ' '), '');
}

/**
 * The values a skill is for and the request's, in the first family where the request names some
 * and the skill says it is for others only; null when there is no such family.
 */
export function otherStack(own: Facets, request: Facets): { skill: string[]; request: string[] } | null {
  for (const family of STACK_FAMILIES) {
    const wanted = request[family];
    const mine = own[family];
    if (wanted?.length && mine?.length && !mine.some((v) => wanted.includes(v))) return { skill: mine, request: wanted };
  }
  return null;
}
