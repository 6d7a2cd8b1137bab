// The severity rules of the kit: what each gives, and that each gives what the operators computed before
// they named it (so their rows stay the same), the one change named.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { severityLevels } from '../../src/augment/policy.js';
import { addedCount, affectedCount, severityBetween, severityStep } from '../../src/kit/index.js';

const severity = fc.double({ min: 0, max: 1, noNaN: true, minExcluded: true });
const levels = Object.values(severityLevels);

describe('severity rules', () => {
  it('give nothing at severity 0, at least one above 0, everything at 1', () => {
    fc.assert(
      fc.property(severity, fc.integer({ min: 1, max: 50 }), (value, total) => {
        for (const rule of [affectedCount, addedCount]) {
          expect(rule(0, total)).toBe(0);
          expect(rule(value, total)).toBeGreaterThanOrEqual(1);
          expect(rule(value, total)).toBeLessThanOrEqual(total);
          expect(rule(1, total)).toBe(total);
        }
        expect(severityStep(0, total)).toBe(0);
        expect(severityStep(value, total)).toBeGreaterThanOrEqual(1);
      }),
    );
    expect(affectedCount(0.5, 0)).toBe(0);
    expect(addedCount(0.5, 0)).toBe(0);
  });

  it('grow with severity', () => {
    fc.assert(
      fc.property(severity, severity, fc.integer({ min: 1, max: 50 }), (a, b, total) => {
        const [low, high] = a <= b ? [a, b] : [b, a];
        expect(affectedCount(low, total)).toBeLessThanOrEqual(affectedCount(high, total));
        expect(addedCount(low, total)).toBeLessThanOrEqual(addedCount(high, total));
        expect(severityStep(low, total)).toBeLessThanOrEqual(severityStep(high, total));
        expect(severityBetween(low, 0.5, 1)).toBeLessThanOrEqual(severityBetween(high, 0.5, 1));
      }),
    );
  });

  it('give what the operators computed themselves before', () => {
    fc.assert(
      fc.property(
        severity,
        fc.integer({ min: 0, max: 200 }),
        fc.integer({ min: 1, max: 12 }),
        (value, current, replies) => {
          // hooks/inject-recovery, prompt/whitespace-noise
          expect(affectedCount(value, Math.min(3, replies))).toBe(
            Math.max(1, Math.round(value * Math.min(3, replies))),
          );
          // hooks/vary-budgets: a retry budget, a threshold
          expect(severityStep(value, 3)).toBe(Math.max(1, Math.round(value * 3)));
          expect(severityStep(value, current * 0.5)).toBe(Math.max(1, Math.round(current * value * 0.5)));
          // skill-content/paraphrase-lexicon
          expect(severityBetween(value, 0.5, 1)).toBe((1 + value) / 2);
          // tools/add-distractors
          expect(addedCount(value, 4)).toBe(Math.min(4, Math.max(1, Math.ceil(value * 4))));
        },
      ),
    );
  });

  it('change tools/add-optional-parameters only at severities that are exact thirds', () => {
    const formerPerTool = (value: number) => 1 + Math.min(2, Math.floor(value * 3));
    for (const value of levels) expect(addedCount(value, 3)).toBe(formerPerTool(value));
    fc.assert(
      fc.property(severity, (value) => {
        if (Number.isInteger(value * 3)) return;
        expect(addedCount(value, 3)).toBe(formerPerTool(value));
      }),
    );
    expect([addedCount(1 / 3, 3), formerPerTool(1 / 3)]).toEqual([1, 2]);
  });
});
