// Helpers of the skill-content operators (not an operator): the rules of a skill body are its top-level
// Markdown list items. Parsing keeps every line as written, so rendering an untouched body gives it back
// byte for byte.
import {
  type Harness,
  type ListMeaning,
  listKeepsOrder,
  listMeaning,
  templateLeadIn,
} from '../../src/kit/index.js';

/** One top-level list item with its continuation lines, as written. */
export interface RuleItem {
  /** `-`, `*`, `+`, or the digits of a numbered item. */
  marker: string;
  ordered: boolean;
  /** `.` or `)` for numbered items, '' for bullets. */
  delimiter: string;
  /** The spacing between the marker and the text. */
  gap: string;
  /** The text after the marker on the first line. */
  head: string;
  /** Continuation lines, raw. */
  rest: string[];
}

/** A body as runs of plain lines and of list items. */
export type Block = { kind: 'lines'; lines: string[] } | { kind: 'list'; items: RuleItem[] };

const bulletItem = /^([-*+])([ \t]+)(\S.*)$/u;
const numberedItem = /^(\d{1,9})([.)])([ \t]+)(\S.*)$/u;
const fence = /^(```|~~~)/u;
/** Lines that start a block of their own and so end a list item. */
const blockStart = /^(#{1,6}\s|```|~~~|\||>|<!--)/u;

function parseItem(line: string): RuleItem | undefined {
  const bullet = bulletItem.exec(line);
  if (bullet) {
    return {
      marker: bullet[1] as string,
      ordered: false,
      delimiter: '',
      gap: bullet[2] as string,
      head: bullet[3] as string,
      rest: [],
    };
  }
  const numbered = numberedItem.exec(line);
  if (numbered) {
    return {
      marker: numbered[1] as string,
      ordered: true,
      delimiter: numbered[2] as string,
      gap: numbered[3] as string,
      head: numbered[4] as string,
      rest: [],
    };
  }
  return undefined;
}

const sameList = (a: RuleItem, b: RuleItem) =>
  a.ordered === b.ordered && (a.ordered ? a.delimiter === b.delimiter : a.marker === b.marker);

/**
 * Splits a body into plain-line runs and top-level lists. A list item runs until a blank line, another
 * top-level item or a block of another kind (heading, fence, table, quote); lines inside code fences are
 * never items.
 *
 * @example
 * parseBlocks('# Stock\n- a\n- b\n').map((block) => block.kind) // ['lines', 'list', 'lines']
 */
export function parseBlocks(body: string): Block[] {
  const blocks: Block[] = [];
  let inFence = false;
  let current: Block | undefined;
  const push = (block: Block) => {
    blocks.push(block);
    current = block;
  };
  for (const line of body.split('\n')) {
    if (inFence) {
      if (fence.test(line)) inFence = false;
      if (current?.kind === 'lines') current.lines.push(line);
      else push({ kind: 'lines', lines: [line] });
      continue;
    }
    const item = parseItem(line);
    if (item) {
      const last = current?.kind === 'list' ? current.items.at(-1) : undefined;
      if (current?.kind === 'list' && last && sameList(last, item)) current.items.push(item);
      else push({ kind: 'list', items: [item] });
      continue;
    }
    if (current?.kind === 'list' && line.trim() !== '' && (/^\s/u.test(line) || !blockStart.test(line))) {
      (current.items.at(-1) as RuleItem).rest.push(line);
      continue;
    }
    if (fence.test(line)) inFence = true;
    if (current?.kind === 'lines') current.lines.push(line);
    else push({ kind: 'lines', lines: [line] });
  }
  return blocks;
}

/**
 * The first line of an item as written.
 *
 * @example
 * itemLine(parseBlocks('1. Quote the price.')[0].items[0]) // '1. Quote the price.'
 */
export const itemLine = (item: RuleItem) => `${item.marker}${item.delimiter}${item.gap}${item.head}`;

/**
 * Joins blocks back into a body; the inverse of `parseBlocks`.
 *
 * @example
 * renderBlocks(parseBlocks(body)) === body // true
 */
export function renderBlocks(blocks: readonly Block[]): string {
  return blocks
    .flatMap((block) =>
      block.kind === 'lines' ? block.lines : block.items.flatMap((item) => [itemLine(item), ...item.rest]),
    )
    .join('\n');
}

/**
 * The number of rules (top-level list items) of a body.
 *
 * @example
 * countRules('- a\n- b\n\nText.') // 2
 */
export function countRules(body: string): number {
  return parseBlocks(body).reduce(
    (count, block) => count + (block.kind === 'list' ? block.items.length : 0),
    0,
  );
}

/**
 * The text of a rule on one line: its head and continuation lines, trimmed and joined by spaces.
 *
 * @example
 * ruleText(parseBlocks('- Quote the\n  final price.')[0].items[0]) // 'Quote the final price.'
 */
export function ruleText(item: RuleItem): string {
  return [item.head, ...item.rest]
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join(' ');
}

/**
 * Whether a rule holds a nested list or a code block, which a table or prose cannot carry.
 *
 * @example
 * hasNestedBlock(parseBlocks('- Steps:\n  - one')[0].items[0]) // true
 */
export function hasNestedBlock(item: RuleItem): boolean {
  return item.rest.some((line) => parseItem(line.trim()) !== undefined || fence.test(line.trim()));
}

const englishOrderWords =
  /^(first|firstly|then|after|afterwards|finally|next|before|lastly|second|secondly|third|thirdly|step\s*\d+)\b/iu;
const chineseOrderWords = /^(先|首先|然后|接着|之后|随后|最后|其次|再)/u;
const pinMarkers = /\(order-sensitive\)|<!--\s*pin\s*-->|\(顺序敏感\)|（顺序敏感）/iu;
/** A rule that says when the skill itself applies ("Load this skill when …"): it heads its list. */
const skillTrigger = /^(?:load|use|read|apply|invoke|call|open)\s+this\s+skill\b/iu;

/**
 * Whether a rule must keep its position: it carries a pin marker (`(order-sensitive)`, `<!-- pin -->`),
 * opens with a sequencing word (First, Then, After, Finally, 先, 然后, 最后, …) or says when the skill
 * applies ("Load this skill when …").
 *
 * @example
 * isOrderSensitive(parseBlocks('- Then quote the price.')[0].items[0]) // true
 */
export function isOrderSensitive(item: RuleItem): boolean {
  const text = ruleText(item);
  if (pinMarkers.test(text)) return true;
  const opening = text.replace(/^[*_~`"'“‘「(\s]+/u, '');
  return englishOrderWords.test(opening) || chineseOrderWords.test(opening) || skillTrigger.test(opening);
}

/**
 * The last non-blank line before block `index`, when the block before it is plain lines: a list's lead-in.
 *
 * @example
 * introductionOf(parseBlocks('Rules:\n- a\n- b'), 1) // 'Rules:'
 */
export function introductionOf(blocks: readonly Block[], index: number): string {
  const before = blocks[index - 1];
  if (before?.kind !== 'lines') return '';
  return before.lines.findLast((line) => line.trim() !== '') ?? '';
}

/**
 * The lead-in of the template of an output that list block `index` stands in (`templateLeadIn`): a heading
 * or a line before it that names a format, a structure or an example, whose section the list has not left.
 *
 * @example
 * templateOf(parseBlocks('Use the following format:\n- [file, Line X] **Issue**: …\n- [file, Line Y] …'), 1)
 * // 'Use the following format:'
 */
export function templateOf(blocks: readonly Block[], index: number): string | undefined {
  return templateLeadIn(renderBlocks(blocks.slice(0, index)));
}

/**
 * Whether the items of list block `index` may change places (pinned and sequencing items aside): the
 * operator must be able to show that they are independent. A numbered list is a procedure and keeps its
 * order unless the line before it is `<!-- hsa: independent -->`; a bullet list keeps its order when the
 * line before it is `<!-- hsa: ordered -->` or announces a sequence ("Steps:", "Procedure", "in this
 * order", 步骤, 顺序, …), or when its items read as steps or are not all full sentences; a list in a
 * template of an output (`templateOf`) keeps its order too; otherwise a bullet list is a set of independent
 * rules. The rule itself is `listKeepsOrder`, which the certificate checks too.
 *
 * @example
 * const blocks = parseBlocks('Rules:\n- a\n- b');
 * listIsIndependent(blocks, 1) // true
 * listIsIndependent(parseBlocks('1. Load\n2. Save'), 0) // false
 */
export function listIsIndependent(
  blocks: readonly Block[],
  index: number,
  toolNames?: ReadonlySet<string>,
): boolean {
  const block = blocks[index];
  if (block?.kind !== 'list') return false;
  return !listKeepsOrder({
    numbered: block.items[0]?.ordered === true,
    introduction: introductionOf(blocks, index),
    items: block.items.map((item) => item.head),
    ...(toolNames ? { toolNames } : {}),
    template: templateOf(blocks, index),
  });
}

/**
 * The meaning facts of list block `index` (`listMeaning`): which items lean on the one before, whether it
 * enumerates alternatives or conditions, whether it is a procedure.
 *
 * @example
 * meaningOf(parseBlocks('- Check roaming.\n- If it is off, turn it on.'), 0).links // ['it opens with "If it", referring back']
 */
export function meaningOf(
  blocks: readonly Block[],
  index: number,
  toolNames?: ReadonlySet<string>,
): ListMeaning {
  const block = blocks[index];
  const items = block?.kind === 'list' ? block.items : [];
  return listMeaning({
    numbered: items[0]?.ordered === true,
    introduction: introductionOf(blocks, index),
    items: items.map(ruleText),
    ...(toolNames ? { toolNames } : {}),
    template: templateOf(blocks, index),
  });
}

/**
 * Gives the items of a numbered list the numbers 1, 2, … from the list's first number, in their new order.
 *
 * @example
 * renumber(items).map(itemLine)
 */
export function renumber(items: readonly RuleItem[], start: number): RuleItem[] {
  return items.map((item, index) => (item.ordered ? { ...item, marker: String(start + index) } : item));
}

/**
 * Whether a text is mostly Chinese or Japanese: more Han/Kana characters than Latin letters.
 *
 * @example
 * isMostlyCjk('以下规则适用于本技能。') // true
 */
export function isMostlyCjk(text: string): boolean {
  const cjk = (text.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu) ?? []).length;
  const latin = (text.match(/\p{Script=Latin}/gu) ?? []).length;
  return cjk > latin;
}

/**
 * The names a skill body may use for the harness's tools (the skill loader included): bullet items that
 * name them in turn are steps.
 *
 * @example
 * skillToolNames(harness).has('load_skill') // true
 */
export const skillToolNames = (harness: Harness): ReadonlySet<string> =>
  new Set([harness.skills.loader.tool, ...harness.tools.items.map((tool) => tool.name)]);
