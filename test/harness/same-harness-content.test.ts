import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { partFacts } from '../../src/augment/content-facts.js';
import { hashHarness, sameHarnessContent, writtenPartHash } from '../../src/harness/hash.js';
import type { Harness } from '../../src/harness/schema.js';
import { writtenHarnessKey } from '../../src/trajectory/facts.js';
import { travelHarness } from '../support/travel-harness.js';

/** Harnesses near the base: the same content written otherwise, or one member or part changed. */
function nearby(base: Harness): Harness[] {
  const [first, ...others] = base.skills.items;
  const reversedTools = {
    ...base.tools,
    items: base.tools.items.map((tool) => Object.fromEntries(Object.entries(tool).reverse()) as typeof tool),
  };
  return [
    base,
    structuredClone(base),
    { ...base, $schema: './harness.schema.json' } as Harness,
    { ...base, tools: reversedTools },
    Object.fromEntries(Object.entries(base).reverse()) as Harness,
    { ...base, id: `${base.id}-2` },
    { ...base, description: `${base.description ?? ''} (copy)` },
    {
      ...base,
      skills: { ...base.skills, items: [{ ...first!, body: `${first!.body}\n- One more rule.` }, ...others] },
    },
    { ...base, hooks: { ...base.hooks, items: base.hooks.items.slice(1) } },
    { ...base, tools: { ...base.tools, items: [...base.tools.items].reverse() } },
  ];
}

describe('sameHarnessContent', () => {
  it('answers as comparing the two harness hashes does', () => {
    const harnesses = nearby(travelHarness());
    fc.assert(
      fc.property(fc.nat(harnesses.length - 1), fc.nat(harnesses.length - 1), (i, j) => {
        const [a, b] = [harnesses[i] as Harness, harnesses[j] as Harness];
        expect(sameHarnessContent(a, b)).toBe(hashHarness(a).harness === hashHarness(b).harness);
      }),
    );
  });

  it('keys trajectory facts by every member beside the parts, and the parts as written', () => {
    const [base, clone, withSchema, reorderedTools, , renamed, described] = nearby(
      travelHarness(),
    ) as Harness[];
    expect(writtenHarnessKey(clone as Harness)).toBe(writtenHarnessKey(base as Harness));
    expect(writtenHarnessKey(withSchema as Harness)).toBe(writtenHarnessKey(base as Harness));
    expect(writtenHarnessKey(renamed as Harness)).not.toBe(writtenHarnessKey(base as Harness));
    expect(writtenHarnessKey(described as Harness)).not.toBe(writtenHarnessKey(base as Harness));
    expect(writtenHarnessKey(reorderedTools as Harness)).not.toBe(writtenHarnessKey(base as Harness));
  });

  it('keys content facts by each part as written: another key order misses the cache and derives the same facts', () => {
    const [base, clone, , reorderedTools] = nearby(travelHarness()) as Harness[];
    expect(writtenPartHash((clone as Harness).tools)).toBe(writtenPartHash((base as Harness).tools));
    expect(writtenPartHash((reorderedTools as Harness).tools)).not.toBe(
      writtenPartHash((base as Harness).tools),
    );
    const counts = (harness: Harness) =>
      partFacts(harness, 'tools').groups.map((group) => [...group.counts()]);
    expect(counts(reorderedTools as Harness)).toEqual(counts(base as Harness));
    expect(partFacts(reorderedTools as Harness, 'tools')).not.toBe(partFacts(base as Harness, 'tools'));
  });
});
