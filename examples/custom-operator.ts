// Write your own operator and prove it obeys the operator laws, then use it in a plan next to built-ins.
// Run: npx tsx examples/custom-operator.ts

import {
  applyOperator,
  defineOperator,
  loadHarnessFile,
  oneOf,
  op,
  pipe,
  skillIdOperators,
  unchanged,
} from 'harness-augment';
import { renameSymbols } from 'harness-augment/kit';
import { checkOperatorLaws } from 'harness-augment/testing';
import { z } from 'zod';

// tools/suffix — renames one tool with a suffix; calls, results and mentions follow; exact inverse.
const suffixTools = defineOperator({
  id: 'tools/suffix',
  version: 1,
  dimension: 'tools',
  mode: 'exact',
  description: 'Renames one tool with a suffix; calls, results and mentions follow.',
  params: z.object({
    suffix: z
      .string()
      .regex(/^[\w-]+$/)
      .default('_v2'),
  }),
  apply(harness, { rng, params }) {
    if (harness.tools.items.length === 0) return unchanged(harness);
    const tool = rng.pick(harness.tools.items);
    const taken = new Set(harness.tools.items.map((candidate) => candidate.name));
    const name = `${tool.name}${params.suffix}`;
    if (taken.has(name) || name === harness.skills.loader.tool) return { skip: `"${name}" is taken` };
    return renameSymbols(harness, { tools: { [tool.name]: name } });
  },
});

// The laws run on random harnesses from other domains (and on your own cases, if you pass them).
const report = await checkOperatorLaws(suffixTools, { runs: 25 });
console.log(`laws hold: ${report.applied} of ${report.runs} runs applied the operator`);

const harness = await loadHarnessFile('fixtures/livestream/harness.yaml');
const applied = await applyOperator(suffixTools, harness, {
  rng: 'demo',
  severity: 1,
  params: { suffix: '_next' },
});
if (!('skip' in applied)) console.log('renamed:', JSON.stringify(applied.relabel.steps[0]));

// Plans compose custom and built-in operators.
const plan = pipe(op(suffixTools), oneOf(skillIdOperators.map((operator) => [1, op(operator)] as const)));
console.log('plan may apply:', plan.operators.map((operator) => operator.id).join(', '));
