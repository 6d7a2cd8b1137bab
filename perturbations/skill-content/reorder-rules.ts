// skill-content/reorder-rules — reorders the rules of independent lists in skill bodies; procedures (numbered, announced, or with items that carry sequence cues or name tools in turn), enumerations, templates of an output, rules that lean on their neighbour, pinned rules, every rule's text and all ids stay.

import { z } from 'zod';
import {
  affectedCount,
  defineOperator,
  identityRelabel,
  pinnedItems,
  type Random,
  type Skill,
} from '../../src/kit/index.js';
import {
  type Block,
  isOrderSensitive,
  listIsIndependent,
  meaningOf,
  parseBlocks,
  type RuleItem,
  renderBlocks,
  renumber,
  skillToolNames,
} from './rules.js';

/** What a rule says, whatever its marker. */
const content = (item: RuleItem) => [item.head, ...item.rest].join('\n');

/**
 * The positions of the movable rules of list block `index`, when the list is independent and two of them
 * differ: an enumeration moves nothing, and a rule that leans on its neighbour keeps its place, as does the
 * neighbour (`pinnedItems`).
 */
function movable(blocks: readonly Block[], index: number, toolNames: ReadonlySet<string>): number[] {
  const block = blocks[index];
  if (block?.kind !== 'list' || !listIsIndependent(blocks, index, toolNames)) return [];
  const meaning = meaningOf(blocks, index, toolNames);
  if (meaning.enumeration) return [];
  const pinned = pinnedItems(meaning);
  const positions = block.items.flatMap((item, index) =>
    isOrderSensitive(item) || pinned.has(index) ? [] : [index],
  );
  const distinct = new Set(positions.map((index) => content(block.items[index] as RuleItem)));
  return distinct.size >= 2 ? positions : [];
}

function reorderBody(body: string, rng: Random, toolNames: ReadonlySet<string>): string {
  const parsed = parseBlocks(body);
  const blocks = parsed.map((block, blockIndex): Block => {
    if (block.kind !== 'list') return block;
    const positions = movable(parsed, blockIndex, toolNames);
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

const reorderable = (skill: Skill, toolNames: ReadonlySet<string>) => {
  const blocks = parseBlocks(skill.body);
  return blocks.some((_, index) => movable(blocks, index, toolNames).length >= 2);
};

/**
 * Shuffles the rules (top-level Markdown list items) of the independent lists of a share (= severity, at
 * least one) of the skill bodies. A list is independent only when the operator can show it
 * (`listIsIndependent`): numbered lists are procedures and keep their order unless the line before them is
 * `<!-- hsa: independent -->`; bullet lists keep theirs after `<!-- hsa: ordered -->`, an introduction
 * that announces a sequence ("Steps:", "in this order", 步骤) or a lead-in ("Consider this approach:"),
 * when an item carries a sequence cue (first, then, next, after, before, finally, "step") or two items name
 * different tools of the harness (`itemsAreSequenced`), and when an item is not a full sentence
 * (`isFullSentence`): only rules, each a sentence of its own, can be shown independent, while fragments may be
 * a pipeline, a template's parts, a scale or a prerequisite first ("Load with pandas"). An enumeration of alternatives or conditions
 * (items joined by "or"/"and", a lead-in such as "… because:") keeps every item in place, and a rule that
 * leans on the rule before it ("If it does not…", "Otherwise…", a rule before it ending on "or" or a comma)
 * keeps its place beside it (`listMeaning`), as do the rules before one whose pronoun stands for what an earlier
 * rule named ("How to run them locally", `pronounReferringBack`). A list in a template of an output (a
 * lead-in or heading naming a format, a structure or an example: `templateLeadIn`) keeps its order. Inside an independent list, rules pinned
 * with `(order-sensitive)` or `<!-- pin -->`, or opening with a sequencing word (First, Then, After,
 * Finally, 先, 然后, 最后, …), keep their positions; numbered lists are renumbered. Ids do not change, so
 * the relabel is the identity. Skips when no body has two movable rules.
 *
 * @example
 * await applyOperator(reorderRules, travelHarness(), { rng: 'seed', severity: 1 });
 * // rebooking: "- Never promise a seat …" may now come first
 */
export const reorderRules = defineOperator({
  id: 'skill-content/reorder-rules',
  // 2: numbered lists and announced procedures keep their order. 3: so do bullet lists whose items carry
  // sequence cues or name tools in turn, and lists after a lead-in such as "Consider this approach:".
  // 4: rules that lean on their neighbour keep their place, enumerations keep every item (`listMeaning`).
  // 5: a rule opening with a verb whose object is in the rule before it ("Reframe to …") keeps its place,
  // and so does a rule saying when the skill applies ("Load this skill when …").
  // 6: a reason with no subject ("Helps clients understand …") stays after the rule it explains.
  // 7: a rule that names what the one before names ("Follow that skill", "these") stays after it; a list
  // where an item hands on what an earlier one makes ("Write the design …", "Commit the design document")
  // keeps its order.
  // 8: an example, a warning, a note or "the rest …" stays with the rule before it; a build or syntax check
  // before a test is a procedure (`leansOnPrevious`, `itemsAreSequenced`).
  // 9: only a list of full sentences moves (`isFullSentence` in `listKeepsOrder`): fragments may be a
  // pipeline, a template, a scale or a prerequisite first.
  // 10: a rule whose pronoun stands for what an earlier rule named ("How to run them") keeps the rules before
  // it in place; a list in a template of an output (`templateLeadIn`) keeps its order.
  version: 10,
  dimension: 'skill-content',
  mode: 'exact',
  description:
    'Reorders the rules of independent (unnumbered, unannounced) lists of skill bodies; procedures, pinned rules and ids stay.',
  params: z.object({}),
  apply(harness, { rng, severity }) {
    const toolNames = skillToolNames(harness);
    const eligible = harness.skills.items.filter((skill) => reorderable(skill, toolNames));
    if (eligible.length === 0) return { skip: 'no skill body has two independent rules to reorder' };
    const chosen = new Set(rng.fork('skills').sample(eligible, affectedCount(severity, eligible.length)));
    const bodies = rng.fork('bodies');
    const items = harness.skills.items.map((skill, index) =>
      chosen.has(skill) ? { ...skill, body: reorderBody(skill.body, bodies.fork(index), toolNames) } : skill,
    );
    return { harness: { ...harness, skills: { ...harness.skills, items } }, relabel: identityRelabel };
  },
});
