// renameSymbols on a harness of thousands of tools, each parameter renamed and mentioned in a skill: the
// renames are looked up by key, so the list of renames is read a fixed number of times per rename, not once
// per mention (work is counted, not timed).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ParameterRename, renameSymbols } from '../../src/augment/rename-symbols.js';
import { loadHarnessFile } from '../../src/harness/parse-harness.js';
import type { Harness } from '../../src/harness/schema.js';
import { projectRoot } from '../support/run-cli.js';

const base = await loadHarnessFile(join(projectRoot, 'fixtures/livestream/harness.yaml'));

/** The fixture with `count` more tools (parameter `link_id` each), every one mentioned qualified in a skill. */
function withTools(count: number): Harness {
  const harness = structuredClone(base);
  const template = harness.tools.items.find((tool) =>
    Object.hasOwn((tool.parameters.properties ?? {}) as object, 'link_id'),
  );
  if (!template) throw new Error('the fixture has no tool with a link_id parameter');
  const names = Array.from({ length: count }, (_, index) => `extra_tool_${index}`);
  for (const name of names) harness.tools.items.push({ ...structuredClone(template), name });
  harness.skills.items[0]!.body += `\n${names.map((name) => `- Ask \`${name}.link_id\` first.`).join('\n')}`;
  return harness;
}

/** The renames, as an array that counts how many of its elements are read. */
function countingRenames(renames: ParameterRename[]) {
  const counter = { reads: 0 };
  const proxy = new Proxy(renames, {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) counter.reads++;
      return Reflect.get(target, key, receiver);
    },
  });
  return { proxy, counter };
}

describe('renameSymbols at scale', () => {
  for (const count of [500, 2000]) {
    it(`renames link_id in ${count} tools reading each rename a fixed number of times`, () => {
      const harness = withTools(count);
      const renames = Array.from({ length: count }, (_, index) => ({
        tool: `extra_tool_${index}`,
        path: ['link_id'],
        to: 'linkId',
      }));
      const { proxy, counter } = countingRenames(renames);
      const { harness: variant, relabel } = renameSymbols(harness, { parameters: proxy });
      // One pass to index them, one to order them by depth (and its copy): never once per mention.
      expect(counter.reads).toBeLessThanOrEqual(4 * count);
      const last = variant.tools.items.find((tool) => tool.name === `extra_tool_${count - 1}`);
      expect(Object.keys((last?.parameters.properties ?? {}) as object)).toContain('linkId');
      expect(variant.skills.items[0]!.body).toContain(`\`extra_tool_${count - 1}.linkId\``);
      expect(variant.skills.items[0]!.body).not.toContain('extra_tool_0.link_id');
      expect(relabel.steps.filter((step) => step.type === 'rename_arguments')).toHaveLength(count);
    });
  }
});
