// skill-content/list-style — rewrites the rule lists of skill bodies as bullets, a numbered list, prose or a table; every rule's text, its order and all ids stay.

import { z } from 'zod';
import {
  affectedCount,
  defineOperator,
  identityRelabel,
  type Skill,
  unchanged,
} from '../../src/kit/index.js';
import {
  type Block,
  hasNestedBlock,
  isMostlyCjk,
  parseBlocks,
  type RuleItem,
  renderBlocks,
  ruleText,
} from './rules.js';

const styles = ['bullets', 'numbered', 'prose', 'table'] as const;
type RuleListStyle = (typeof styles)[number];
type ListBlock = Extract<Block, { kind: 'list' }>;

const styleOf = (block: ListBlock): RuleListStyle => (block.items[0]?.ordered ? 'numbered' : 'bullets');

/** Whether a list can be written in a style: it has two rules, is not in it yet, and fits it. */
function convertible(block: ListBlock, style: RuleListStyle): boolean {
  if (block.items.length < 2 || styleOf(block) === style) return false;
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
function restyle(body: string, style: RuleListStyle): string {
  const cjk = isMostlyCjk(body);
  const blocks = parseBlocks(body).map(
    (block): Block =>
      block.kind === 'list' && convertible(block, style)
        ? { kind: 'lines', lines: toStyle(block, style, cjk) }
        : block,
  );
  return renderBlocks(blocks);
}

const fits = (skill: Skill, style: RuleListStyle) =>
  parseBlocks(skill.body).some((block) => block.kind === 'list' && convertible(block, style));

/**
 * Rewrites the rule lists (top-level Markdown lists of two or more items) of a share (= severity, at least
 * one) of the skill bodies in another style: bullets, a numbered list, prose (the rules as sentences of
 * one paragraph) or a `| # | rule |` table. With `style` unset, each body gets a random style other than
 * its own. Rules with a nested list or code block stay lists (prose and tables cannot carry them); bodies
 * already in prose or tables are not parsed back. Ids do not change: the relabel is the identity.
 *
 * @example
 * await applyOperator(listStyle, travelHarness(), { rng: 'seed', params: { style: 'table' } });
 * // baggage: "| # | rule |\n|---|---|\n| 1 | Use `get_baggage_policy` with the fare class. |\n…"
 */
export const listStyle = defineOperator({
  id: 'skill-content/list-style',
  version: 1,
  dimension: 'skill-content',
  mode: 'exact',
  description:
    'Rewrites rule lists as bullets, numbered lists, prose or tables; rule text, order and ids stay.',
  params: z.object({ style: z.enum(styles).optional() }),
  apply(harness, { rng, severity, params }) {
    if (severity === 0) return unchanged(harness);
    const candidates = params.style === undefined ? styles : [params.style];
    const eligible = harness.skills.items.filter((skill) => candidates.some((style) => fits(skill, style)));
    if (eligible.length === 0) {
      return { skip: `no skill body has a rule list that can become ${params.style ?? 'another style'}` };
    }
    const chosen = new Set(rng.fork('skills').sample(eligible, affectedCount(severity, eligible.length)));
    const draws = rng.fork('styles');
    const items = harness.skills.items.map((skill, index) => {
      if (!chosen.has(skill)) return skill;
      const style = draws.fork(index).pick(candidates.filter((candidate) => fits(skill, candidate)));
      return { ...skill, body: restyle(skill.body, style) };
    });
    return { harness: { ...harness, skills: { ...harness.skills, items } }, relabel: identityRelabel };
  },
});
