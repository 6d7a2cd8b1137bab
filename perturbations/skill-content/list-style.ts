// skill-content/list-style — rewrites the rule lists of skill bodies as bullets, a numbered list, prose or a table; every rule's text, its order, procedures' order markers and all ids stay.

import { z } from 'zod';
import { affectedCount, defineOperator, identityRelabel, type Skill } from '../../src/kit/index.js';
import {
  type Block,
  hasNestedBlock,
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
 * Whether list block `index` can be written in a style: it has two rules, is not in it yet, and fits it. A
 * procedure goes only to another ordered style (numbered, or a table's numbered rows); a list whose rules
 * lean on each other or enumerate alternatives stays a list (prose would close "…, or" with a full stop).
 */
function convertible(
  blocks: readonly Block[],
  index: number,
  style: RuleListStyle,
  toolNames: ReadonlySet<string>,
): boolean {
  const block = blocks[index];
  if (block?.kind !== 'list' || block.items.length < 2 || styleOf(block) === style) return false;
  const meaning = meaningOf(blocks, index, toolNames);
  if (meaning.procedure && style !== 'numbered' && style !== 'table') return false;
  const linked = meaning.enumeration !== undefined || meaning.links.some((link) => link !== undefined);
  if (linked && style !== 'bullets' && style !== 'numbered') return false;
  return style === 'bullets' || style === 'numbered' || !block.items.some(hasNestedBlock);
}

/** A sentence ends with punctuation; add a full stop (Chinese or Latin) where a rule has none. */
function asSentence(text: string): string {
  if (/[.!?。！？…:;：；)）"”」』]$/u.test(text)) return text;
  return isMostlyCjk(text) ? `${text}。` : `${text}.`;
}

function toStyle(block: ListBlock, style: RuleListStyle, cjk: boolean): string[] {
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
      const sentences = block.items.map((item) => asSentence(ruleText(item)));
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
        cjk ? '| # | 规则 |' : '| # | rule |',
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
  const blocks = parsed.map(
    (block, index): Block =>
      block.kind === 'list' && convertible(parsed, index, style, toolNames)
        ? { kind: 'lines', lines: toStyle(block, style, cjk) }
        : block,
  );
  return renderBlocks(blocks);
}

const fits = (skill: Skill, style: RuleListStyle, toolNames: ReadonlySet<string>) => {
  const blocks = parseBlocks(skill.body);
  return blocks.some((_, index) => convertible(blocks, index, style, toolNames));
};

/**
 * Rewrites the rule lists (top-level Markdown lists of two or more items) of a share (= severity, at least
 * one) of the skill bodies in another style: bullets, a numbered list, prose (the rules as sentences of
 * one paragraph) or a `| # | rule |` table. With `style` unset, each body gets a random style other than
 * its own. A procedure (a numbered list, an announced or sequenced bullet list) becomes only another ordered
 * style (numbered, or a table of numbered rows); a list whose rules lean on each other or enumerate
 * alternatives (`listMeaning`) becomes only another list style. Rules with a nested list or code block stay lists (prose and tables cannot carry them); bodies
 * already in prose or tables are not parsed back. Ids do not change: the relabel is the identity.
 *
 * @example
 * await applyOperator(listStyle, travelHarness(), { rng: 'seed', params: { style: 'table' } });
 * // baggage: "| # | rule |\n|---|---|\n| 1 | Use `get_baggage_policy` with the fare class. |\n…"
 */
export const listStyle = defineOperator({
  id: 'skill-content/list-style',
  // 2: procedures go only to ordered styles; lists whose rules lean on each other stay lists.
  version: 2,
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
      return { ...skill, body: restyle(skill.body, style, toolNames) };
    });
    return { harness: { ...harness, skills: { ...harness.skills, items } }, relabel: identityRelabel };
  },
});
