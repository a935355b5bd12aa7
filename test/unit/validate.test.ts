import { strict as assert } from 'node:assert';
import { parseFrontMatter } from '../../src/core/parse/frontMatter';
import { validateFrontMatter } from '../../src/core/parse/validate';
import { CLIENT_PROFILES, listingText } from '../../src/core/profiles';

const codes = (text: string, folder = 'my-skill', profiles: Parameters<typeof validateFrontMatter>[2] = ['spec']) =>
  validateFrontMatter(parseFrontMatter(text), folder, profiles).map((f) => f.code);
const messages = (text: string, folder = 'my-skill') => validateFrontMatter(parseFrontMatter(text), folder).map((f) => f.message);

describe('validateFrontMatter', () => {
  it('accepts a valid skill', () => {
    assert.deepEqual(codes('---\nname: my-skill\ndescription: Does a thing.\nlicense: MIT\n---\n'), []);
  });

  it('gives one finding per name problem, naming every rule it breaks and a name that passes', () => {
    const text = '---\nname: Active Directory Attacks\ndescription: d\n---\n';
    const findings = validateFrontMatter(parseFrontMatter(text), 'Active Directory Attacks');
    assert.deepEqual(findings.map((f) => f.code), ['frontmatter.name-chars']);
    assert.equal(findings[0].message,
      "Skill name 'Active Directory Attacks' must be lowercase and contains invalid characters (spaces). " +
      "Only lowercase letters, digits, and hyphens are allowed: 'active-directory-attacks' would do.");
    assert.deepEqual(messages('---\nname: My--Skill-\ndescription: d\n---\n', 'My--Skill-'), [
      "Skill name 'My--Skill-' must be lowercase, cannot start or end with a hyphen and cannot contain consecutive hyphens. " +
        "Only lowercase letters, digits, and hyphens are allowed: 'my-skill' would do.",
    ]);
    assert.deepEqual(codes('---\nname: my--skill-\ndescription: d\n---\n', 'my--skill-'), ['frontmatter.name-hyphen']);
  });

  it('words name problems like the reference validator', () => {
    assert.deepEqual(messages('---\nname: My-Skill\ndescription: d\n---\n', 'My-Skill'), ["Skill name 'My-Skill' must be lowercase"]);
    assert.deepEqual(messages('---\nname: my--skill\ndescription: d\n---\n', 'my--skill'), ['Skill name cannot contain consecutive hyphens']);
    assert.deepEqual(messages('---\nname: other\ndescription: d\n---\n'), ["Directory name 'my-skill' must match skill name 'other'"]);
    assert.deepEqual(messages(`---\nname: ${'a'.repeat(65)}\ndescription: d\n---\n`, 'a'.repeat(65)), [
      `Skill name '${'a'.repeat(65)}' exceeds 64 character limit (65 chars)`,
    ]);
    assert.deepEqual(messages('---\nname: my_skill\ndescription: d\n---\n', 'my_skill'), [
      "Skill name 'my_skill' contains invalid characters. Only letters, digits, and hyphens are allowed.",
    ]);
    assert.deepEqual(messages('---\ndescription: d\n---\n'), ['Missing required field in frontmatter: name']);
  });

  it('checks description and compatibility lengths', () => {
    assert.deepEqual(messages(`---\nname: my-skill\ndescription: ${'x'.repeat(1025)}\n---\n`), ['Description exceeds 1024 character limit (1025 chars)']);
    assert.deepEqual(codes(`---\nname: my-skill\ndescription: d\ncompatibility: ${'x'.repeat(501)}\n---\n`), ['frontmatter.compatibility-too-long']);
    assert.deepEqual(codes('---\nname: my-skill\ndescription: ""\n---\n'), ['frontmatter.description-empty']);
  });

  it('allows client keys only under the profile that knows them', () => {
    const text = '---\nname: my-skill\ndescription: d\nwhen_to_use: on Fridays\nargument-hint: "[file]"\n---\n';
    assert.deepEqual(codes(text), ['frontmatter.unknown-key', 'frontmatter.unknown-key']);
    assert.deepEqual(codes(text, 'my-skill', ['claude-code']), []);
    const f = validateFrontMatter(parseFrontMatter(text), 'my-skill')[0];
    assert.equal(f.range.start.line, 4, 'the finding points at the key');
  });

  it('says which client a field belongs to, and how to accept it; nothing for a field no client knows', () => {
    const text = '---\nname: my-skill\ndescription: d\nuser-invocable: false\ncolour: red\n---\n';
    const [colour, invocable] = validateFrontMatter(parseFrontMatter(text), 'my-skill');
    assert.match(invocable.message, /user-invocable\. .* It is a field of Claude Code and GitHub Copilot: check for one of them to accept it \(`--profile claude-code`/);
    assert.match(colour.message, /colour\. Only .*\(the spec\)\.$/);
    const withCodex = validateFrontMatter(parseFrontMatter('---\nname: my-skill\ndescription: d\nwhen_to_use: x\n---\n'), 'my-skill', ['codex']);
    assert.match(withCodex[0].message, /It is a field of Claude Code: check for that client/);
  });

  it('applies each client listing rule', () => {
    const long = `---\nname: my-skill\ndescription: ${'d'.repeat(1100)}\n---\n`;
    const codex = validateFrontMatter(parseFrontMatter(long), 'my-skill', ['codex']).filter((f) => f.code === 'skill.budget');
    assert.equal(codex.length, 1);
    assert.equal(codex[0].profile, 'codex');
    assert.match(codex[0].message, /does not load/);
    const cc = `---\nname: my-skill\ndescription: ${'d'.repeat(1000)}\nwhen_to_use: ${'w'.repeat(600)}\n---\n`;
    const claude = validateFrontMatter(parseFrontMatter(cc), 'my-skill', ['claude-code']);
    assert.deepEqual(claude.map((f) => f.code), ['skill.budget']);
    const listing = listingText(parseFrontMatter(cc).data, CLIENT_PROFILES['claude-code']);
    assert.equal(listing.text.length, 1536);
    assert.equal(listing.cut, true);
  });

  it('reports missing front matter and YAML errors as findings', () => {
    assert.deepEqual(codes('# no front matter'), ['frontmatter.missing']);
    assert.deepEqual(codes('---\nname: [\n---\n'), ['frontmatter.invalid-yaml']);
  });
});
