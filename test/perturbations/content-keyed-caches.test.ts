// The skill-content preamble and the tool-description rewording keep what they find of a text under its
// content: the same bodies and descriptions across variants are scanned once, and a fresh copy of the
// harness (as every variant is) hits. Outputs stay those of a fresh scan.
import { describe, expect, it } from 'vitest';
import { addPreamble, preambleChecks } from '../../perturbations/skill-content/preamble.js';
import { rewordDescriptions, rewordScans } from '../../perturbations/tools/reword-descriptions.js';
import { applyOperator } from '../../src/augment/operator.js';
import { canonicalJson } from '../../src/harness/canonical-json.js';
import { parseHarness } from '../../src/harness/parse-harness.js';
import { travelHarnessInput } from '../support/travel-harness.js';

// The caches are module-wide and keyed by content: texts tagged with this file's name are new to them,
// whatever other files of the worker augmented before.
const fileTag = import.meta.url.split('/').at(-1) as string;

/** A harness nobody has augmented in this process: its texts are new to every cache. */
function freshHarness(label: string) {
  const tag = `${label} (${fileTag})`;
  const input = travelHarnessInput();
  input.skills.items = input.skills.items.map((skill) => ({ ...skill, body: `${skill.body}\n\n${tag}` }));
  input.tools.items = input.tools.items.map((tool) => ({
    ...tool,
    description: `${tool.description} ${tag}`,
    parameters: tagged(tool.parameters, tag),
  }));
  return parseHarness(input);
}

/** The schema with its own and its properties' descriptions tagged. */
function tagged<Schema extends { description?: unknown; properties?: unknown }>(
  schema: Schema,
  tag: string,
): Schema {
  const withTag = <Node extends { description?: unknown }>(node: Node): Node =>
    typeof node.description === 'string' ? { ...node, description: `${node.description} ${tag}` } : node;
  const properties = schema.properties as Record<string, { description?: unknown }> | undefined;
  return {
    ...withTag(schema),
    ...(properties
      ? {
          properties: Object.fromEntries(
            Object.entries(properties).map(([key, node]) => [key, withTag(node)]),
          ),
        }
      : {}),
  };
}

describe('content-keyed caches of the operators', () => {
  it('skill-content/preamble checks each body once for any number of variants', async () => {
    const base = freshHarness('Cache tag one.');
    const before = preambleChecks();
    const outputs: string[] = [];
    for (let seed = 0; seed < 8; seed++) {
      // A fresh copy each time, as a variant of the pool is.
      const result = await applyOperator(addPreamble, structuredClone(base), {
        rng: `c/${seed}`,
        severity: 1,
      });
      outputs.push(canonicalJson(result));
    }
    expect(preambleChecks() - before).toBe(base.skills.items.length);
    // The same draws as on a harness seen for the first time.
    const again = await applyOperator(addPreamble, freshHarness('Cache tag one.'), {
      rng: 'c/3',
      severity: 1,
    });
    expect(canonicalJson(again)).toBe(outputs[3]);
  });

  it('tools/reword-descriptions scans each description once for any number of variants', async () => {
    const base = freshHarness('Cache tag two.');
    const texts = new Set<string>();
    for (const tool of base.tools.items) {
      texts.add(tool.description);
      for (const node of [tool.parameters, ...Object.values((tool.parameters.properties ?? {}) as object)])
        if (typeof node.description === 'string') texts.add(node.description);
    }
    const before = rewordScans();
    for (let seed = 0; seed < 8; seed++)
      await applyOperator(rewordDescriptions, structuredClone(base), { rng: `c/${seed}`, severity: 1 });
    // Each text of the base once; the reworded texts are new, but are never scanned (nothing rewords them).
    expect(rewordScans() - before).toBe(texts.size);
  });
});
