// skill-content/list-style — rewrites the rule lists of skill bodies as bullets, a numbered list, prose or a table; every rule's text, its order, procedures' order markers and all ids stay.

import { z } from 'zod';
import {
  affectedCount,
  BoundedCache,
  defineOperator,
  identityRelabel,
  isFullSentence,
  listKeepsOrder,
  type Skill,
} from '../../src/kit/index.js';
import {
  type Block,
  hasNestedBlock,
  introductionOf,
  isMostlyCjk,
  meaningOf,
  parseBlocks,
  type RuleItem,
  renderBlocks,
  ruleText,
  skillToolNames,
} from './rules.js';

const styles = ['bullets', 'numbered', 'prose', 'table'] as const;
type RuleListStyle = (typeof styles)[number];
type ListBlock = Extract<Block, { kind: 'list' }>;

const styleOf = (block: ListBlock): RuleListStyle => (block.items[0]?.ordered ? 'numbered' : 'bullets');

/**
 * What a list's new style reads of it: whether it says it is a procedure (numbered, or announced by its
 * introduction: "Steps:", `<!-- hsa: ordered -->`), and whether every item is a full sentence.
 */
interface ListFacts {
  announced: boolean;
  sentences: boolean;
}

/**
 * The facts of list block `index` when it can be written in a style (it has two rules, is not in it yet, and
 * fits it), else undefined. A procedure goes only to another ordered style (numbered, or a table's numbered
 * rows); a list in a template of an output (a lead-in or heading naming a format, a structure or an example,
 * `templateOf`) keeps its style; a list whose rules lean on each other or enumerate alternatives stays a list (prose would close "…, or" with a full stop),
 * and so does a list of fragments after a lead-in ending with a colon ("look up customers using:" then
 * "Phone number", "Customer ID": any one of them). Prose joins items into running text, so it takes only a
 * list whose every item is a full sentence as written (`isFullSentence`).
 */
function convertible(
  blocks: readonly Block[],
  index: number,
  style: RuleListStyle,
  toolNames: ReadonlySet<string>,
): ListFacts | undefined {
  const block = blocks[index];
  if (block?.kind !== 'list' || block.items.length < 2 || styleOf(block) === style) return undefined;
  const meaning = meaningOf(blocks, index, toolNames);
  // A template of the output ("CRITICAL REVIEW OUTPUT FORMAT:", "… in this structure:") is what the agent
  // must write, marker for marker: no style is another way of saying it.
  if (meaning.template !== undefined) return undefined;
  if (meaning.procedure && style !== 'numbered' && style !== 'table') return undefined;
  const sentences = block.items.every((item) => isFullSentence(ruleText(item)));
  if (style === 'prose' && !sentences) return undefined;
  const enumerated = !sentences && /[:：]\s*$/u.test(introductionOf(blocks, index));
  const linked =
    enumerated || meaning.enumeration !== undefined || meaning.links.some((link) => link !== undefined);
  if (linked && style !== 'bullets' && style !== 'numbered') return undefined;
  // Prose and tables cannot carry a nested list or code block, nor a task list's boxes ("- [ ] Text is large
  // enough"): in a table cell the box is literal text, and its numbered rows suggest an order.
  if (style !== 'bullets' && style !== 'numbered' && block.items.some(hasNestedBlock)) return undefined;
  if (style !== 'bullets' && style !== 'numbered' && block.items.some((item) => taskBox.test(item.head)))
    return undefined;
  // A numbered list that a block interrupts and a later list goes on with ("2. Add the relationship:", a
  // code block, "3. Add the content type"): one procedure, which no restyle of either part may split.
  if (continuesLater(blocks, index) || Number(block.items[0]?.ordered ? block.items[0].marker : 1) > 1)
    return undefined;
  // A list between two items of a numbered list ("1. Style", "Check for:", its bullets, "2. Clarity") belongs
  // to the item above it: numbered, its items would read as the outer list's own.
  if (style === 'numbered' && withinNumberedList(blocks, index)) return undefined;
  const announced = listKeepsOrder({
    numbered: styleOf(block) === 'numbered',
    introduction: introductionOf(blocks, index),
  });
  return { announced, sentences };
}

/** A GitHub task list item's box, `[ ]` or `[x]`. */
const taskBox = /^\[[ xX]\]\s/u;

/** Whether a later list of the body numbers its items on from where list `index` stops (3. after 1. 2.). */
function continuesLater(blocks: readonly Block[], index: number): boolean {
  return continuesAfter(blocks, index, index);
}

/**
 * Whether list `index` belongs to an item of a numbered list: it follows the item with no blank line between
 * ("3. Security", "Watch for:", its bullets), or it stands between two parts of one numbered list.
 */
function withinNumberedList(blocks: readonly Block[], index: number): boolean {
  const before = blocks[index - 1];
  if (before?.kind === 'list' && before.items.at(-1)?.ordered) return true;
  return blocks.slice(0, index).some((_, earlier) => continuesAfter(blocks, earlier, index));
}

/** Whether numbered list `earlier` is continued by a list after block `index` (3. after 1. 2.). */
function continuesAfter(blocks: readonly Block[], earlier: number, index: number): boolean {
  const block = blocks[earlier];
  if (block?.kind !== 'list' || !block.items.at(-1)?.ordered) return false;
  const next = Number(block.items.at(-1)?.marker) + 1;
  return blocks
    .slice(index + 1)
    .some(
      (later) => later.kind === 'list' && later.items[0]?.ordered && Number(later.items[0].marker) === next,
    );
}

/**
 * The table's column: steps for a procedure that says it is one, rules for full sentences, items for anything
 * else. A bullet list read as a procedure only from its items' cues ("Run the tests before you commit.") keeps
 * its order in the table's numbered rows, but is not called steps: its rules may not be a sequence.
 */
function columnOf({ announced, sentences }: ListFacts, cjk: boolean): string {
  if (announced) return cjk ? '步骤' : 'step';
  if (sentences) return cjk ? '规则' : 'rule';
  return cjk ? '条目' : 'item';
}

function toStyle(block: ListBlock, style: RuleListStyle, cjk: boolean, facts: ListFacts): string[] {
  const relist = (marker: (index: number) => Pick<RuleItem, 'marker' | 'delimiter' | 'ordered'>) =>
    block.items.flatMap((item, index) => {
      const next = { ...item, ...marker(index), gap: ' ' };
      return [`${next.marker}${next.delimiter}${next.gap}${next.head}`, ...next.rest];
    });
  switch (style) {
    case 'bullets':
      return relist(() => ({ marker: '-', delimiter: '', ordered: false }));
    case 'numbered':
      return relist((index) => ({ marker: String(index + 1), delimiter: '.', ordered: true }));
    case 'prose': {
      const sentences = block.items.map(ruleText);
      return [
        sentences.reduce(
          (text, sentence) =>
            text === '' ? sentence : /[。！？]$/u.test(text) ? `${text}${sentence}` : `${text} ${sentence}`,
          '',
        ),
      ];
    }
    case 'table': {
      const cell = (text: string) => text.replaceAll('|', '\\|');
      return [
        `| # | ${columnOf(facts, cjk)} |`,
        '|---|---|',
        ...block.items.map((item, index) => `| ${index + 1} | ${cell(ruleText(item))} |`),
      ];
    }
  }
}

/** Rewrites every list of a body that fits the style; other lines stay as written. */
function restyle(body: string, style: RuleListStyle, toolNames: ReadonlySet<string>): string {
  const cjk = isMostlyCjk(body);
  const parsed = parseBlocks(body);
  const blocks = parsed.map((block, index): Block => {
    const facts = block.kind === 'list' ? convertible(parsed, index, style, toolNames) : undefined;
    return block.kind === 'list' && facts
      ? { kind: 'lines', lines: toStyle(block, style, cjk, facts) }
      : block;
  });
  return renderBlocks(blocks);
}

/** The styles a body can be written in (`convertible` for some list of it), and each style's rewrite once made. */
interface BodyStyles {
  fits: ReadonlySet<RuleListStyle>;
  restyled: Map<RuleListStyle, string>;
}

// Pure function of content across runs: a body's styles and rewrites, by the tool names and the body. Most
// pool entries reach the list step with the base's bodies as written, so each is read once, not per entry.
const stylesByBody = new BoundedCache<string, BodyStyles>(
  2 << 20,
  // The key, and room for a rewrite in each style (filled in after the entry is weighed).
  (key) => 2 * key.length * (1 + styles.length) + 256,
);

function bodyStyles(body: string, toolNames: ReadonlySet<string>): BodyStyles {
  const key = `${[...toolNames].join('\u0000')}\u0001${body}`;
  const known = stylesByBody.get(key);
  if (known) return known;
  const blocks = parseBlocks(body);
  const fitting = styles.filter((style) =>
    blocks.some((_, index) => convertible(blocks, index, style, toolNames)),
  );
  return stylesByBody.set(key, { fits: new Set(fitting), restyled: new Map() });
}

const fits = (skill: Skill, style: RuleListStyle, toolNames: ReadonlySet<string>) =>
  bodyStyles(skill.body, toolNames).fits.has(style);

function restyled(body: string, style: RuleListStyle, toolNames: ReadonlySet<string>): string {
  const entry = bodyStyles(body, toolNames);
  let text = entry.restyled.get(style);
  if (text === undefined) {
    text = restyle(body, style, toolNames);
    entry.restyled.set(style, text);
  }
  return text;
}

/**
 * Rewrites the rule lists (top-level Markdown lists of two or more items) of a share (= severity, at least
 * one) of the skill bodies in another style: bullets, a numbered list, prose (the rules as sentences of one
 * paragraph, only when every item is a full sentence as written) or a `| # | rule |` table (`step` for a
 * list numbered or announced as a procedure, `item` for items that are not full sentences). With `style`
 * unset, each body gets a random style other than its own. A procedure (a numbered list, an announced or
 * sequenced bullet list) becomes only another ordered style (numbered, or a table of numbered rows); a list
 * whose rules lean on each other or enumerate alternatives (`listMeaning`), or a list of fragments after a
 * lead-in ending with a colon, becomes only another list style. A list that shows the shape of an output (under
 * "OUTPUT FORMAT:", "Use the following format", "… in this structure:", "for example:", or a heading naming a
 * format, template or example, up to the end of that section: `templateLeadIn`), or whose every item is a
 * quotation of what to say, keeps its style. Rules with a nested list or code block stay
 * lists (prose and tables cannot carry them); bodies already in prose or tables are not parsed back. Ids do
 * not change: the relabel is the identity.
 *
 * @example
 * await applyOperator(listStyle, travelHarness(), { rng: 'seed', params: { style: 'table' } });
 * // baggage: "| # | rule |\n|---|---|\n| 1 | Use `get_baggage_policy` with the fare class. |\n…"
 */
export const listStyle = defineOperator({
  id: 'skill-content/list-style',
  // 2: procedures go only to ordered styles; lists whose rules lean on each other stay lists.
  // 3: prose only for full-sentence items; fragments after a colon lead-in stay lists; tables name their column.
  // 4: a reason with no subject ("Helps …") leans on the rule before it (`leansOnPrevious`).
  // 5: the list rules of reorder-rules 7 ("Follow that skill"; "Write …" before "Commit …").
  // 6: a table calls its rows steps only for a list numbered or announced as a procedure, not one read as
  // such from its items' cues ("before", "then").
  // 7: an example, a warning or a note stays with the rule before it, a build step before its test
  // (`leansOnPrevious`, `itemsAreSequenced`); a numbered list that a later list goes on with is not restyled.
  // 8: no numbered list between two items of a numbered list (OpenHands' code-review "Check for:" bullets);
  // no task list ("- [ ] …") as a table or prose.
  // 9: a list in a template of an output keeps its style (OpenHands' "CRITICAL REVIEW OUTPUT FORMAT:" and
  // onboarding "in this structure:" plan), and so does a list of quotations to say; a rule whose pronoun
  // stands for an earlier rule stays linked.
  version: 9,
  dimension: 'skill-content',
  mode: 'exact',
  description:
    'Rewrites rule lists as bullets, numbered lists, prose or tables; rule text, order and ids stay.',
  params: z.object({ style: z.enum(styles).optional() }),
  apply(harness, { rng, severity, params }) {
    const candidates = params.style === undefined ? styles : [params.style];
    const toolNames = skillToolNames(harness);
    const eligible = harness.skills.items.filter((skill) =>
      candidates.some((style) => fits(skill, style, toolNames)),
    );
    if (eligible.length === 0) {
      return { skip: `no skill body has a rule list that can become ${params.style ?? 'another style'}` };
    }
    const chosen = new Set(rng.fork('skills').sample(eligible, affectedCount(severity, eligible.length)));
    const draws = rng.fork('styles');
    const items = harness.skills.items.map((skill, index) => {
      if (!chosen.has(skill)) return skill;
      const style = draws
        .fork(index)
        .pick(candidates.filter((candidate) => fits(skill, candidate, toolNames)));
      return { ...skill, body: restyled(skill.body, style, toolNames) };
    });
    return { harness: { ...harness, skills: { ...harness.skills, items } }, relabel: identityRelabel };
  },
});
