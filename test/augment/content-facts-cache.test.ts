// The content-preservation check derives each text's facts once per content: a second variant that changes
// only the hooks part (a per-example hook step) scans no skill, tool or prompt text again, and its verdict
// is the one a fresh check gives.
import { describe, expect, it } from 'vitest';
import { textScans } from '../../src/augment/content-facts.js';
import { checkContentPreservation } from '../../src/augment/content-preservation.js';
import { renameSymbols } from '../../src/augment/rename-symbols.js';
import { parseHarness } from '../../src/harness/parse-harness.js';
import type { Harness } from '../../src/harness/schema.js';
import { identityRelabel } from '../../src/trajectory/relabel.js';
import { travelHarnessInput } from '../support/travel-harness.js';

const scans = () => ({ ...textScans });
const deepCopy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('content facts are derived once per part content', () => {
  it('a variant that changes only hooks scans only hooks texts', () => {
    const base = parseHarness(travelHarnessInput());
    // An entry that renamed a tool and a skill: its skills and tools parts differ from the base.
    const tool = base.tools.items[0]?.name as string;
    const skill = base.skills.items[0]?.id as string;
    const entry = renameSymbols(base, {
      tools: { [tool]: `${tool}_v2` },
      skills: { [skill]: `${skill}-v2` },
    });
    const first = checkContentPreservation(base, entry.harness, entry.relabel);
    expect(first.kept).toBe(true);

    // Two per-example hook steps: new harness objects, new hooks parts (one drops a hook, so the hook ids
    // change), the entry's skills, tools and prompt as equal content in fresh objects.
    const steps: Harness[] = [
      { ...entry.harness, hooks: { ...entry.harness.hooks, items: entry.harness.hooks.items.slice(1) } },
      {
        ...deepCopy(entry.harness),
        hooks: { ...entry.harness.hooks, items: [...entry.harness.hooks.items].reverse() },
      },
    ];
    for (const variant of steps) {
      const before = scans();
      const result = checkContentPreservation(base, variant, entry.relabel);
      const after = scans();
      expect(after.skills - before.skills).toBe(0);
      expect(after.tools - before.tools).toBe(0);
      expect(after.prompt - before.prompt).toBe(0);
      expect(result.checked).toEqual(first.checked);
      expect(result.issues).toEqual([]);
    }
  });

  it('gives a variant sharing the cached facts the verdict and counts of a check on fresh copies', () => {
    const base = parseHarness(travelHarnessInput());
    const lost = {
      ...base,
      skills: {
        ...base.skills,
        items: base.skills.items.map((item, index) =>
          index === 0 ? { ...item, body: 'Nothing here.' } : item,
        ),
      },
      hooks: { ...base.hooks, items: base.hooks.items.slice(1) },
    };
    const cached = checkContentPreservation(base, lost, identityRelabel);
    // Fresh objects, sharing the same parts as the pair above (shared parts are left out of the check).
    const freshBase = deepCopy(base);
    const freshLost = { ...deepCopy(lost), tools: freshBase.tools, prompt: freshBase.prompt };
    const fresh = checkContentPreservation(freshBase, freshLost, identityRelabel);
    expect(cached.kept).toBe(false);
    expect(cached).toEqual(fresh);
  });
});
