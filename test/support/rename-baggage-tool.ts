// An example-free operator with a relabel, on the travel harness: a later step's example must be moved
// under it (tests of how often a plan's steps walk or move the example).
import { z } from 'zod';
import { defineOperator } from '../../src/augment/operator.js';
import { renameSymbols } from '../../src/augment/rename-symbols.js';

export const renameBaggageTool = defineOperator({
  id: 'tools/rename-baggage',
  version: 1,
  dimension: 'tools',
  mode: 'exact',
  description: 'Renames get_baggage_policy; calls follow.',
  params: z.object({}),
  apply: (harness) => renameSymbols(harness, { tools: { get_baggage_policy: 'lookup_baggage_policy' } }),
});
