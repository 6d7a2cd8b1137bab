import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSkillMarkdown, renderSkillMarkdown, skillName } from '../../../src/harness/importers/index.js';
import { type Skill, SkillSchema } from '../../../src/harness/schema.js';

/** Text that stresses the front-matter fences, YAML quoting and line breaks, plus arbitrary unicode. */
const awkwardLine = fc.constantFrom(
  '---',
  '...',
  '',
  ' ',
  '\r',
  '# Title',
  '- item',
  'key: value',
  '"quoted"',
  '\t',
);
const unicodeText = fc.oneof(
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 120 }),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 60 }),
  fc
    .array(fc.oneof(awkwardLine, fc.string({ unit: 'grapheme', maxLength: 30 })), {
      minLength: 1,
      maxLength: 8,
    })
    .map((lines) => lines.join('\n')),
);

const skillArbitrary: fc.Arbitrary<Skill> = fc
  .record(
    {
      id: fc.stringMatching(/^[a-z][a-z0-9_]{0,20}$/),
      kind: fc.constantFrom('reply' as const, 'strategy' as const),
      description: unicodeText,
      body: unicodeText,
      risk: fc.constantFrom('low' as const, 'medium' as const, 'high' as const),
    },
    { requiredKeys: ['id', 'kind', 'description', 'body'], noNullPrototype: true },
  )
  .filter((skill) => SkillSchema.safeParse(skill).success && skill.body.length > 0);

describe('SKILL.md round trip over arbitrary skills', () => {
  it('render then parse gives the same skill', () => {
    fc.assert(
      fc.property(skillArbitrary, (skill) => {
        expect(parseSkillMarkdown(renderSkillMarkdown(skill))).toStrictEqual(skill);
      }),
      { numRuns: 500 },
    );
  });

  it('writes a name in the Agent Skills format', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 80 }), (id) => {
        const name = skillName(id);
        expect(name).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
        expect(name.length).toBeLessThanOrEqual(64);
      }),
    );
  });
});
