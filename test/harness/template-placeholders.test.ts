import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  blankTemplatePlaceholders,
  templatePlaceholderSpans,
} from '../../src/harness/template-placeholders.js';

describe('template placeholders', () => {
  it('finds double and triple-stash blocks, across lines', () => {
    const template = 'Hi {{name}}, {{{html}}} and {{#if vip}}\n{{/if}}';
    expect(templatePlaceholderSpans(template).map(([start, end]) => template.slice(start, end))).toEqual([
      '{{name}}',
      '{{{html}}}',
      '{{#if vip}}',
      '{{/if}}',
    ]);
    expect(blankTemplatePlaceholders('Use {{tool}} now')).toBe('Use          now');
  });

  it('blanking keeps the length and every character outside the spans', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a', ' ', '{', '}', '\n', 'x'), { maxLength: 40 }),
        (characters) => {
          const template = characters.join('');
          const blank = blankTemplatePlaceholders(template);
          expect(blank.length).toBe(template.length);
          const inside = new Set(
            templatePlaceholderSpans(template).flatMap(([start, end]) => range(start, end)),
          );
          for (let index = 0; index < template.length; index++)
            expect(blank[index]).toBe(inside.has(index) ? ' ' : template[index]);
        },
      ),
    );
  });
});

const range = (start: number, end: number) =>
  Array.from({ length: end - start }, (_, offset) => start + offset);
