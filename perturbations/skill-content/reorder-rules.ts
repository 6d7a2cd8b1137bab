// skill-content/reorder-rules — reorders the independent rules of skill bodies; order-sensitive rules, every rule's text and all ids stay.
import { z } from 'zod';
import { defineOperator, unchanged } from '../../src/augment/operator.js';
import type { Random } from '../../src/augment/random.js';
import type { Skill } from '../../src/harness/schema.js';
import { identityRelabel } from '../../src/trajectory/relabel.js';
import {
  type Block,
  isOrderSensitive,
  parseBlocks,
  type RuleItem,
  renderBlocks,
  renumber,
  shareCount,
} from './rules.js';

/** What a rule says, whatever its marker. */
const content = (item: RuleItem) => [item.head, ...item.rest].join('\n');

/** The positions of a list's movable rules, when at least two of them differ. */
function movable(block: Extract<Block, { kind: 'list' }>): number[] {
  const positions = block.items.flatMap((item, index) => (isOrderSensitive(item) ? [] : [index]));
  const distinct = new Set(positions.map((index) => content(block.items[index] as RuleItem)));
  return distinct.size >= 2 ? positions : [];
}

function reorderBody(body: string, rng: Random): string {
  const blocks = parseBlocks(body).map((block, blockIndex): Block => {
    if (block.kind !== 'list') return block;
    const positions = movable(block);
    if (positions.length < 2) return block;
    const at = (position: number) => block.items[position] as RuleItem;
    let order = rng.fork(blockIndex).shuffle(positions);
    // A shuffle may give back the same text order; rotating by one then changes it (two rules differ).
    if (order.every((position, index) => content(at(position)) === content(at(positions[index] as number)))) {
      order = [...positions.slice(1), positions[0] as number];
    }
    const items = [...block.items];
    positions.forEach((position, index) => {
      items[position] = at(order[index] as number);
    });
    const first = at(0);
    return { kind: 'list', items: first.ordered ? renumber(items, Number(first.marker)) : items };
  });
  return renderBlocks(blocks);
}

const reorderable = (skill: Skill) =>
  parseBlocks(skill.body).some((block) => block.kind === 'list' && movable(block).length >= 2);

/**
 * Shuffles the independent rules (top-level Markdown list items) within each list of a share (= severity,
 * at least one) of the skill bodies. Rules pinned with `(order-sensitive)` or `<!-- pin -->`, or opening
 * with a sequencing word (First, Then, After, Finally, 先, 然后, 最后, …), keep their positions; numbered
 * lists are renumbered. Ids do not change, so the relabel is the identity. Skips when no body has two
 * movable rules.
 *
 * @example
 * await applyOperator(reorderRules, travelHarness(), { rng: 'seed', severity: 1 });
 * // rebooking: "- Never promise a seat …" may now come first
 */
export const reorderRules = defineOperator({
  id: 'skill-content/reorder-rules',
  version: 1,
  dimension: 'skill-content',
  mode: 'exact',
  description:
    'Reorders independent rules of skill bodies and renumbers numbered lists; pinned rules and ids stay.',
  params: z.object({}),
  apply(harness, { rng, severity }) {
    if (severity === 0) return unchanged(harness);
    const eligible = harness.skills.items.filter(reorderable);
    if (eligible.length === 0) return { skip: 'no skill body has two independent rules to reorder' };
    const chosen = new Set(rng.fork('skills').sample(eligible, shareCount(severity, eligible.length)));
    const bodies = rng.fork('bodies');
    const items = harness.skills.items.map((skill, index) =>
      chosen.has(skill) ? { ...skill, body: reorderBody(skill.body, bodies.fork(index)) } : skill,
    );
    return { harness: { ...harness, skills: { ...harness.skills, items } }, relabel: identityRelabel };
  },
});
