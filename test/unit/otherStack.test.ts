/** A skill for another language or framework than the request names (src/core/route/otherStack.ts). */
import { strict as assert } from 'node:assert';
import { detectFacets } from '../../src/core/analysis/facets';
import { otherStack, ownStack } from '../../src/core/route/otherStack';

describe('another stack than the request names', () => {
  const request = (text: string) => detectFacets(text, '');

  it('reads what a skill is for in its description\'s first sentence', () => {
    const atheris = ownStack('Atheris is a coverage-guided Python fuzzer based on libFuzzer. Use for fuzzing pure Python code and Python C extensions.');
    assert.deepEqual(otherStack(atheris, request('Set up coverage-guided fuzzing for my Rust crate with cargo')), { skill: ['python'], request: ['rust'] });
    assert.equal(otherStack(atheris, request('Fuzz the Python parser of our package')), null, 'the request names its language');
    assert.equal(otherStack(atheris, request('Set up coverage-guided fuzzing for this parser')), null, 'the request names no language');
    const java = ownStack('Build event-driven Java applications with the Azure Event Grid SDK.');
    assert.ok(otherStack(java, request('Publish Event Grid events from our C# .NET service')));
    // A name is not read: the variant finding is about a first sentence that does not say it.
    assert.equal(ownStack('Authenticate to Azure services with several credential types.').language, undefined);
  });

  it('does not take a language the skill only mentions later, or a .js tool it uses, as what it is for', () => {
    const engineer = ownStack('Design data pipelines and warehouses. Works with Python, SQL, Spark and Scala.');
    assert.equal(otherStack(engineer, request('Write the Flink job in Java')), null);
    const architect = ownStack('Turn meeting transcripts into a Power Platform solution architecture, with Mermaid.js diagrams.');
    assert.equal(architect.language, undefined);
    assert.equal(otherStack(architect, request('then write the Python job that upserts the rows into Dataverse')), null);
    assert.ok(otherStack(ownStack('Build REST APIs on Node.js with Express.'), request('Build a REST API in Go')), 'Node.js is the language a skill is for');
  });

  it('reads Blazor as a web front end of its own, in C#', () => {
    const ui = ownStack('Builds .NET UI apps across Blazor (Server, WASM), MAUI and WinForms with JS interop.');
    assert.deepEqual(otherStack(ui, request('Build a React frontend with TypeScript and Vite for a dashboard')), { skill: ['blazor'], request: ['react'] }, 'a React request is not for the Blazor skill, though it mentions JS interop');
    assert.equal(otherStack(ui, request('Add a Blazor component with form validation')), null);
    assert.deepEqual(detectFacets('Blazor components in C#', ''), { frontend: ['blazor'], language: ['dotnet'] }, 'Blazor does not imply JavaScript');
  });

  it('a request that names both stacks spans them', () => {
    const atheris = ownStack('Atheris is a coverage-guided Python fuzzer.');
    assert.equal(otherStack(atheris, request('Fuzz the Rust core and the Python bindings')), null);
  });
});
