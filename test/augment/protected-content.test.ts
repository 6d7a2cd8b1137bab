// The one rule for protected content, as both of its readers see it: the certificate's content check and the
// paraphrasing operators' protected spans.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findProtectedSpans } from '../../perturbations/skill-content/protected-spans.js';
import { checkContentPreservation } from '../../src/augment/content-preservation.js';
import {
  codeSpans,
  numberSpans,
  pathSpans,
  protectedContentSpans,
  quoteSpans,
} from '../../src/augment/protected-content.js';
import { parseHarness } from '../../src/harness/parse-harness.js';
import type { Harness } from '../../src/harness/schema.js';
import { identityRelabel } from '../../src/trajectory/relabel.js';
import { travelHarness, travelHarnessInput } from '../support/travel-harness.js';

const texts = (spans: ReadonlyArray<{ text: string }>) => spans.map((span) => span.text);

function withFirstBody(body: string): Harness {
  const input = travelHarnessInput();
  input.skills.items = input.skills.items.map((skill, index) => (index === 0 ? { ...skill, body } : skill));
  return parseHarness(input);
}

describe('protected content', () => {
  it('finds quotes in every form both readers know', () => {
    const text = `'one' "two" “three” ‘four’ 「five」 『six』 《seven》 it's`;
    expect(texts(quoteSpans(text))).toEqual([
      "'one'",
      '"two"',
      '“three”',
      '‘four’',
      '「five」',
      '『six』',
      '《seven》',
    ]);
  });

  it('finds numbers with their currency sign, with the unit only when asked, list markers and URLs aside', () => {
    const text = '1. Ship within 48 hours for ¥199 (20% off), API v2, see https://example.com/p/42.\n2) 3号';
    expect(texts(numberSpans(text))).toEqual(['48', '¥199', '20', '2', '3']);
    expect(texts(numberSpans(text, { unit: true }))).toEqual(['48 hours', '¥199', '20%', '2', '3号']);
  });

  it('finds a path in a text without a slash only where the whole pattern does', () => {
    // A text holding a `/` is scanned with the whole pattern; "\n/" after a text adds no path and moves none,
    // so the text with it is the reference for the text alone, which a text without a `/` may skip.
    const tokens = fc.constantFrom(
      'report',
      '.csv',
      '.py',
      '.yaml',
      '.yml',
      '.md',
      '.mdx',
      '.pyc',
      'v2',
      '~',
      '-',
      '_',
      '.',
      '..',
      ' ',
      '\n',
      'scripts',
      'init',
      'a.b',
      '`',
      "'",
      '(',
      ')',
      '数据',
      '.json',
      '.jpeg',
      '3',
      'https:',
      'x.docx',
    );
    fc.assert(
      fc.property(fc.array(tokens, { maxLength: 12 }), (parts) => {
        const text = parts.join('');
        expect(pathSpans(text)).toEqual(pathSpans(`${text}\n/`));
      }),
      { numRuns: 2000 },
    );
    expect(texts(pathSpans('Save it as report.csv, then rename it.'))).toEqual(['report.csv']);
    expect(pathSpans('Version 1.2 is out. See the docs.')).toEqual([]);
  });

  it('finds code, paths and URLs for the protected spans of a paraphrase', () => {
    const text = 'Run `init` from scripts/init.py, then read https://example.com/faq.';
    expect(texts(codeSpans(text))).toEqual(['`init`']);
    expect(texts(pathSpans(text))).toEqual(['scripts/init.py']);
    expect(findProtectedSpans(text, travelHarness()).map((span) => [span.kind, span.text])).toEqual([
      ['code', '`init`'],
      ['path', 'scripts/init.py'],
      ['url', 'https://example.com/faq'],
    ]);
  });

  it('makes the certificate count what the paraphrase keeps: a changed book title or version is a change', () => {
    const base = withFirstBody('Quote 《说明书》 and API v2 only.');
    for (const changed of ['Quote 《手册》 and API v2 only.', 'Quote 《说明书》 and API v3 only.']) {
      const result = checkContentPreservation(base, withFirstBody(changed), identityRelabel);
      expect(result.kept).toBe(false);
      expect(result.issues.map((issue) => issue.code)).toEqual(['protected_content_changed']);
    }
    expect(
      checkContentPreservation(base, withFirstBody('Quote 《说明书》 and API v2 only.'), identityRelabel)
        .kept,
    ).toBe(true);
  });

  it('returns spans that are slices of the text', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.constantFrom(
            '`a b`',
            '"q"',
            '《书》',
            '¥19.9',
            '48 hours',
            '1. ',
            '\n',
            'a/b/c.md',
            'https://x.io/1',
            ' ',
            'x',
            '7',
          ),
          { maxLength: 12 },
        ),
        (parts) => {
          const text = parts.join('');
          for (const span of protectedContentSpans(text)) {
            expect(text.slice(span.start, span.end)).toBe(span.text);
            expect(span.text.length).toBeGreaterThan(0);
          }
        },
      ),
    );
  });
});
