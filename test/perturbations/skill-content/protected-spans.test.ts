import { describe, expect, it } from 'vitest';
import {
  findProtectedSpans,
  keepsProtectedSpans,
  protectedTexts,
  sameMentions,
} from '../../../perturbations/skill-content/protected-spans.js';
import { travelHarness } from '../../support/travel-harness.js';

const harness = travelHarness();

describe('protected spans', () => {
  it('finds code, quotes, numbers with units, identifiers, banned terms and pin markers', () => {
    const text =
      "1. Call `find_flights` and say 'no change fee' or “free”, 「不要」 within 48 hours for ¥199 (20% off).\n2. Never say guaranteed; hold_seat first <!-- pin -->. It's the viewer's 3号链接.";
    expect(findProtectedSpans(text, harness).map((span) => [span.kind, span.text])).toEqual([
      ['code', '`find_flights`'],
      ['quote', "'no change fee'"],
      ['quote', '“free”'],
      ['quote', '「不要」'],
      ['number', '48 hours'],
      ['number', '¥199'],
      ['number', '20%'],
      ['banned_term', 'guaranteed'],
      ['identifier', 'hold_seat'],
      ['marker', '<!-- pin -->'],
      ['number', '3号'],
    ]);
  });

  it('does not count list markers as numbers', () => {
    expect(protectedTexts('1. one\n  2) two\n3 items', harness)).toEqual(['3 items']);
  });

  it('checks that a rewrite keeps every protected span as often, and the same mentions', () => {
    expect(keepsProtectedSpans('Quote "¥199" twice: "¥199".', 'Say "¥199" and "¥199".', harness)).toBe(true);
    expect(keepsProtectedSpans('Quote "¥199" twice: "¥199".', 'Say "¥199".', harness)).toBe(false);
    expect(sameMentions('Use `find_flights`.', 'Please use `find_flights`.', harness)).toBe(true);
    expect(sameMentions('Use the tool.', 'Use `hold_seat`.', harness)).toBe(false);
  });
});
