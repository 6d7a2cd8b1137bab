// tools/prefix — a third-party operator written only against `harness-augment/kit`, the surface the
// built-in operators use: it puts a namespace prefix in front of a share (= severity) of the tool names
// (`acme_get_price`), as registries that merge several servers do. Calls, results and every mention follow
// through the symbol table; the inverse is exact.
//
// Load it with `hsa augment --operators examples/third-party-operator/operator.ts …` (a .ts module needs
// Node's tsx loader: `node --import tsx $(which hsa) …`, or compile it to .js first).
import {
  affectedCount,
  certifies,
  defineOperator,
  mentionedInFreeText,
  nameChecker,
  renameSymbols,
} from 'harness-augment/kit';
import { z } from 'zod';

export const prefixTools = defineOperator({
  id: 'tools/prefix',
  version: 1,
  dimension: 'tools',
  mode: 'exact',
  description:
    'Puts a namespace prefix before a share of the tool names; calls, results and mentions follow.',
  params: z.object({
    prefix: z
      .string()
      .regex(/^[a-z][a-z0-9]{0,15}$/, 'a short lower-case word')
      .default('acme'),
  }),
  apply(harness, { rng, severity, params, trajectory, run }) {
    const loader = harness.skills.loader.tool;
    const tools = harness.tools.items.map((tool) => tool.name).filter((name) => name !== loader);
    // A tool named in a reply or tool result keeps its name: renaming it would rewrite text hooks judge.
    const mentioned = mentionedInFreeText(trajectory, harness, tools, 'tool');
    const eligible = tools.filter((name) => !mentioned.has(name));
    if (eligible.length === 0) return { skip: 'no tool can take a prefix here' };
    const chosen = rng.sample(eligible, affectedCount(severity, eligible.length));
    const isFree = nameChecker(harness, trajectory);
    const map: Record<string, string> = {};
    for (const name of chosen) {
      const renamed = `${params.prefix}_${name}`;
      if (renamed.length <= 64 && isFree(renamed)) map[name] = renamed;
    }
    if (Object.keys(map).length === 0) return { skip: `every prefixed name is taken (${params.prefix}_…)` };
    // The run's hook checks, so that the mentions they read follow the rename.
    const output = renameSymbols(harness, { tools: map }, { hookChecks: run.hookChecks });
    // The kit's one certify rule: the moved trajectory validates, hooks decide as before, the inverse is exact.
    if (!certifies({ base: harness, variant: output.harness, relabel: output.relabel, trajectory, run }))
      return { skip: 'the prefixed names would change a hook decision' };
    return output;
  },
});

/** What `--operators` reads: an operator made with `defineOperator`, or an array of them. */
export const operators = [prefixTools];
