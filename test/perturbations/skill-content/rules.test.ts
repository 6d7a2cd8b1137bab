import { describe, expect, it } from 'vitest';
import {
  countRules,
  isMostlyCjk,
  isOrderSensitive,
  parseBlocks,
  type RuleItem,
  renderBlocks,
} from '../../../perturbations/skill-content/rules.js';

const items = (body: string): RuleItem[] =>
  parseBlocks(body).flatMap((block) => (block.kind === 'list' ? block.items : []));

describe('skill body rules', () => {
  const body = [
    '# Stock',
    'Intro line.',
    '- First rule',
    '  continued',
    '  - nested',
    '- Second rule',
    'lazy continuation',
    '',
    '1. one',
    '2) two',
    '```',
    '- not a rule',
    '```',
    '',
  ].join('\n');

  it('parses top-level list items with their continuation lines and renders the body back byte for byte', () => {
    expect(renderBlocks(parseBlocks(body))).toBe(body);
    expect(items(body).map((item) => [item.head, item.rest])).toEqual([
      ['First rule', ['  continued', '  - nested']],
      ['Second rule', ['lazy continuation']],
      ['one', []],
      ['two', []],
    ]);
    expect(countRules(body)).toBe(4);
    expect(parseBlocks(body).filter((block) => block.kind === 'list')).toHaveLength(3);
  });

  it('finds order-sensitive rules by marker or opening word', () => {
    const flags = items(
      '- First check stock\n- **Then** quote\n- quote (order-sensitive)\n- quote <!-- pin -->\n- 然后报价\n- Quote first\n- Thenceforth x',
    ).map(isOrderSensitive);
    expect(flags).toEqual([true, true, true, true, true, false, false]);
  });

  it('tells mostly Chinese text from English', () => {
    expect(isMostlyCjk('以下规则适用于本技能。')).toBe(true);
    expect(isMostlyCjk('Say "3号链接" means link 3.')).toBe(false);
  });
});
