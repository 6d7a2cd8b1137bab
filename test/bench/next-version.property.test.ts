// Property: over generated histories of the helpdesk harness (renames of skills, tools and parameters through
// the symbol table, reordered tools, removed and added tools, one to three edits in a row), every item the
// next-version bench carries has a key that validates under the next version and a gold that validates
// there; the answer right under v, moved by the edit's relabel, scores right under v+1; every item that calls
// a removed tool is marked for regeneration; and every item read is carried or marked, none lost.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renameSymbols } from '../../src/augment/rename-symbols.js';
import { itemsFromTrajectory } from '../../src/bench/derive-items.js';
import { checkExpectations } from '../../src/bench/generate.js';
import { describeNextVersion, nextVersionBench } from '../../src/bench/next-version.js';
import type { BenchItem, Prediction } from '../../src/bench/schema.js';
import { expectationsAsPredictions, scoreRow } from '../../src/bench/score.js';
import { loadHarnessFile } from '../../src/harness/parse-harness.js';
import type { Harness, Tool } from '../../src/harness/schema.js';
import { relabelMessages } from '../../src/trajectory/relabel.js';
import { TrajectorySchema } from '../../src/trajectory/schema.js';
import { validateTrajectory } from '../../src/trajectory/validate-trajectory.js';
import { projectRoot } from '../support/run-cli.js';

const helpdesk = await loadHarnessFile(`${projectRoot}/fixtures/helpdesk/harness.yaml`);
const items: BenchItem[] = readFileSync(`${projectRoot}/fixtures/helpdesk/trajectories.jsonl`, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .slice(0, 6)
  .flatMap((line) => itemsFromTrajectory(helpdesk, TrajectorySchema.parse(JSON.parse(line))).items);

/** One edit of a history, drawn by fast-check and applied to whatever version it meets. */
type Edit =
  | { kind: 'rename-skill'; at: number; name: string }
  | { kind: 'rename-tool'; at: number; name: string }
  | { kind: 'rename-parameter'; at: number; parameter: number; name: string }
  | { kind: 'reorder-tools'; shift: number }
  | { kind: 'remove-tool'; at: number }
  | { kind: 'add-tool'; name: string };

const newName = fc.constantFrom('handle_case', 'route_request', 'fetch_record', 'apply_change', 'open_case');
const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant('rename-skill' as const), at: fc.nat(20), name: newName }),
  fc.record({ kind: fc.constant('rename-tool' as const), at: fc.nat(20), name: newName }),
  fc.record({
    kind: fc.constant('rename-parameter' as const),
    at: fc.nat(20),
    parameter: fc.nat(5),
    name: newName,
  }),
  fc.record({ kind: fc.constant('reorder-tools' as const), shift: fc.integer({ min: 1, max: 5 }) }),
  fc.record({ kind: fc.constant('remove-tool' as const), at: fc.nat(20) }),
  fc.record({ kind: fc.constant('add-tool' as const), name: newName }),
);

const taken = (harness: Harness) =>
  new Set([
    harness.skills.loader.tool,
    ...harness.tools.items.map((tool) => tool.name),
    ...harness.skills.items.map((skill) => skill.id),
  ]);

/** The edit applied to `harness`, or undefined when it cannot apply (a name taken, nothing to rename). */
function apply(harness: Harness, step: Edit): { harness: Harness; removed?: string } | undefined {
  const tools = harness.tools.items;
  switch (step.kind) {
    case 'rename-skill': {
      const skill = harness.skills.items[step.at % harness.skills.items.length];
      if (!skill || taken(harness).has(step.name)) return undefined;
      return { harness: renameSymbols(harness, { skills: { [skill.id]: step.name } }).harness };
    }
    case 'rename-tool': {
      const tool = tools[step.at % tools.length];
      if (!tool || taken(harness).has(step.name)) return undefined;
      return { harness: renameSymbols(harness, { tools: { [tool.name]: step.name } }).harness };
    }
    case 'rename-parameter': {
      const tool = tools[step.at % tools.length];
      const properties = Object.keys(
        (tool?.parameters as { properties?: Record<string, unknown> } | undefined)?.properties ?? {},
      );
      const parameter = properties[step.parameter % Math.max(1, properties.length)];
      if (!tool || !parameter || properties.includes(step.name)) return undefined;
      return {
        harness: renameSymbols(harness, {
          parameters: [{ tool: tool.name, path: [parameter], to: step.name }],
        }).harness,
      };
    }
    case 'reorder-tools': {
      const shift = step.shift % tools.length;
      return {
        harness: {
          ...harness,
          tools: { ...harness.tools, items: [...tools.slice(shift), ...tools.slice(0, shift)] },
        },
      };
    }
    case 'remove-tool': {
      const tool = tools[step.at % tools.length];
      // A hook that names the tool keeps it in the harness.
      if (!tool || harness.hooks.items.some((hook) => hook.tools?.includes(tool.name))) return undefined;
      return {
        harness: { ...harness, tools: { ...harness.tools, items: tools.filter((other) => other !== tool) } },
        removed: tool.name,
      };
    }
    case 'add-tool': {
      if (taken(harness).has(step.name)) return undefined;
      const added: Tool = {
        name: step.name,
        description: 'Reads one record of the service desk by its id.',
        parameters: {
          type: 'object',
          properties: { record_id: { type: 'string' } },
          required: ['record_id'],
        },
      };
      return { harness: { ...harness, tools: { ...harness.tools, items: [...tools, added] } } };
    }
  }
}

const calls = (item: BenchItem, name: string) =>
  item.gold.messages.some(
    (message) =>
      message.role === 'assistant' && message.tool_calls?.some((call) => call.function.name === name),
  );

describe('nextVersionBench over generated histories', () => {
  it('carried keys validate under the next version, moved answers score right, removals regenerate', async () => {
    // Across all runs: the property met carried items with moved keys and removals that regenerated.
    const seen = { carried: 0, keyMoved: 0, regenerated: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 3 }), async (steps) => {
        let before = helpdesk;
        let current = items;
        for (const step of steps) {
          const applied = apply(before, step);
          if (!applied) continue;
          const after = applied.harness;
          const relabel = describeNextVersion(before, after).relabel;
          let read = 0;
          const next: BenchItem[] = [];
          let marked = 0;
          for await (const outcome of nextVersionBench(before, after, current, {
            onItem: () => read++,
            onReject: (reject) => {
              throw new Error(`rejected ${reject.itemId}: ${reject.reason}`);
            },
          })) {
            if (outcome.decision === 'regenerate') {
              marked++;
              seen.regenerated++;
              expect(outcome.reasons.length).toBeGreaterThan(0);
              continue;
            }
            if (applied.removed) expect(calls(outcome.item, applied.removed)).toBe(false);
            const [underV, underNext] = outcome.rows;
            expect(checkExpectations(outcome.item.expect, after)).toEqual([]);
            expect(validateTrajectory(outcome.item.gold, after).valid).toBe(true);
            const answer = expectationsAsPredictions([underV])[0] as Prediction;
            const moved = { id: underNext.id, output: relabelMessages(answer.output, relabel, 'forward') };
            expect(scoreRow(underNext, moved).overall).toBe(true);
            next.push(outcome.item);
            seen.carried++;
            if (outcome.keyMoved) seen.keyMoved++;
          }
          expect(next.length + marked).toBe(read);
          expect(read).toBe(current.length);
          before = after;
          current = next;
        }
      }),
      { numRuns: 25 },
    );
    expect(seen.carried).toBeGreaterThan(0);
    expect(seen.keyMoved).toBeGreaterThan(0);
    expect(seen.regenerated).toBeGreaterThan(0);
  }, 600_000);
});
