// perturbations/tools/drop-unused.ts — drops registry tools the trajectory never calls and no text mentions; the tools it calls, and everything else, stay.

import { z } from 'zod';
import {
  affectedCount,
  buildSymbolTable,
  defineOperator,
  findMentions,
  type Harness,
  identityRelabel,
  type RunContext,
  type SymbolEntry,
  trajectoryCalls,
  trajectoryFreeText,
} from '../../src/kit/index.js';

/**
 * Tools that some text names — a skill body, a prompt template, a hook message, another tool's
 * descriptions, or a reply or tool result of the trajectory — or that a hook scopes to or a custom check names. Dropping one would leave that mention dangling.
 */
function mentionedTools(harness: Harness, freeText: readonly string[], run: RunContext): Set<string> {
  const names = new Set<string>();
  for (const mention of buildSymbolTable(harness, run.hookChecks).mentions) {
    if (mention.kind !== 'tool') continue;
    const [part, , index] = mention.path;
    // A tool's own description naming the tool itself does not keep it.
    const own = part === 'tools' && harness.tools.items[index as number]?.name === mention.name;
    if (!own) names.add(mention.name);
  }
  const symbols: SymbolEntry[] = harness.tools.items.map((tool) => ({
    kind: 'tool',
    name: tool.name,
    definedAt: [],
  }));
  for (const text of freeText)
    for (const mention of findMentions({ path: [], text }, symbols)) names.add(mention.name);
  return names;
}

/**
 * Drops a share (= severity, at least one) of the registry tools that the trajectory never calls (rejected
 * attempts count as calls) and that no text mentions, keeping at least one tool. Without a trajectory it
 * cannot know what is unused and skips; it also skips when every tool is used or mentioned.
 *
 * @example
 * const applied = await applyOperator(dropUnused, harness, { rng: 'seed', severity: 1, trajectory });
 * // a baggage question keeps get_baggage_policy; find_flights and hold_seat, named in a skill body, stay too
 */
export const dropUnused = defineOperator({
  id: 'tools/drop-unused',
  version: 1,
  dimension: 'tools',
  mode: 'exact',
  description: 'Drops registry tools the trajectory never calls and no text mentions; used tools stay.',
  params: z.object({}),
  apply(harness, { rng, severity, trajectory, run }) {
    if (!trajectory) return { skip: 'without a trajectory, every tool counts as used' };
    const tools = harness.tools.items;
    const called = new Set(trajectoryCalls(trajectory).map((call) => call.name));
    const mentioned = mentionedTools(harness, trajectoryFreeText(trajectory), run);
    const unused = tools.filter((tool) => !called.has(tool.name) && !mentioned.has(tool.name));
    if (unused.length === 0) return { skip: 'every tool is called by the trajectory or mentioned in a text' };
    // At least one registry tool stays.
    const droppable = unused.length === tools.length ? unused.length - 1 : unused.length;
    if (droppable === 0) return { skip: 'the only tool is kept: a registry keeps at least one tool' };
    const count = affectedCount(severity, droppable);
    const dropped = new Set(
      rng
        .fork('choose')
        .sample(unused, count)
        .map((tool) => tool.name),
    );
    const items = tools.filter((tool) => !dropped.has(tool.name));
    return { harness: { ...harness, tools: { ...harness.tools, items } }, relabel: identityRelabel };
  },
});
