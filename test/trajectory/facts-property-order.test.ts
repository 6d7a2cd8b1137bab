// Trajectory facts are keyed by the harness as written, not only by its content hash: the hash sorts keys,
// but the offered tools a trajectory carries keep their schemas' property order, so two harnesses that
// differ in property order alone (what `tools/reorder-properties` makes) move an example differently.

import { describe, expect, it } from 'vitest';
import { hashHarness } from '../../src/harness/hash.js';
import { toChatCompletionTools } from '../../src/harness/offered-tools.js';
import { createRunContext } from '../../src/harness/run-context.js';
import type { Harness } from '../../src/harness/schema.js';
import { forwardFacts, validationFacts } from '../../src/trajectory/facts.js';
import { identityRelabel } from '../../src/trajectory/relabel.js';
import { baggageTrajectory, travelHarness } from '../support/travel-harness.js';

/** The harness with find_flights' properties in another order: the same content hash. */
function reordered(harness: Harness): Harness {
  const items = harness.tools.items.map((tool) => {
    if (tool.name !== 'find_flights') return tool;
    const properties = (tool.parameters as { properties: Record<string, unknown> }).properties;
    const order = ['date', 'filters', 'destination', 'origin'];
    return {
      ...tool,
      parameters: {
        ...tool.parameters,
        properties: Object.fromEntries(order.map((key) => [key, properties[key]])),
      },
    };
  });
  return { ...harness, tools: { ...harness.tools, items } };
}

describe('trajectory facts under property order', () => {
  it('moves the example into each harness as written, even when the content hashes agree', () => {
    const harness = travelHarness();
    const variant = reordered(harness);
    expect(hashHarness(variant).harness).toBe(hashHarness(harness).harness);
    const original = baggageTrajectory(harness);
    const run = createRunContext();
    const underBase = forwardFacts(original, identityRelabel, harness, run);
    const underVariant = forwardFacts(original, identityRelabel, variant, run);
    expect(underBase.trajectory.tools).toEqual(toChatCompletionTools(harness));
    // Before: the base's move was returned for the variant, offering the base's property order.
    expect(JSON.stringify(underVariant.trajectory.tools)).toBe(
      JSON.stringify(toChatCompletionTools(variant)),
    );
    expect(underVariant.issues).toEqual([]);
    expect(validationFacts(underVariant.trajectory, variant, run).valid).toBe(true);
  });
});
