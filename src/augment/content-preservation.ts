// The content-preservation check of the certificate: beyond structure, a variant keeps (or consistently
// renames) the protected content of every text it rewrites — numbers, code, paths, URLs, quoted strings —
// and the order of every ordered list. Mentions of identifiers are compared as placeholders, so a rename
// that went through the symbol table is consistent, while a rename inside a path or a URL is a change.
import { contentHash, hashHarness } from '../harness/hash.js';
import type { Issue, JsonPath } from '../harness/issues.js';
import { urlSpans } from '../harness/mention-boundary.js';
import type { Harness, HarnessPartName } from '../harness/schema.js';
import { findMentions, harnessSymbols, harnessTextLocations } from '../harness/symbol-table.js';
import type { Relabel } from '../trajectory/relabel.js';
import { BoundedCache } from './bounded-cache.js';
import { orderedLists } from './ordered-lists.js';

/** The kinds of protected content. */
export type ProtectedContentKind = 'number' | 'code' | 'path' | 'url' | 'quote';

/** What the check looked at and whether it held. */
export interface ContentPreservation {
  /** Every protected item of the base is in the variant and every ordered list keeps its order. */
  kept: boolean;
  /** How many protected items of each kind, and how many ordered lists, the base holds in the texts checked. */
  checked: Record<ProtectedContentKind, number> & { orderedLists: number };
  issues: Issue[];
}

/** A text of a harness, with the mentions of its identifiers replaced by placeholders of their kind. */
interface NormalisedText {
  path: JsonPath;
  text: string;
  /** The text as written, and the spans of its mentions: paths and URLs are compared as written. */
  raw: string;
  mentions: Array<{ start: number; end: number }>;
}

const codePatterns = [/```[\s\S]*?```/gu, /~~~[\s\S]*?~~~/gu, /`[^`\n]+`/gu];
const quotePatterns = [
  /(?<![\p{L}\p{N}])'[^'\n]{1,80}'(?![\p{L}\p{N}])/gu,
  /"[^"\n]{1,120}"/gu,
  /“[^”\n]{1,120}”/gu,
  /「[^」\n]{1,120}」/gu,
  /『[^』\n]{1,120}』/gu,
];
/**
 * A path: `./x`, `../x`, `/x/y`, `~/x`, a folder `name/`, two or more segments, or segments ending in a
 * file name with an extension (`scripts/init.py`, `reference/forms.md`); or a file name alone.
 */
const pathPattern =
  /(?<![\p{L}\p{N}_./~{-])(?:(?:\.{1,2}|~)?\/[\w.-]+(?:\/[\w.-]+)*\/?|[\w-][\w.-]*\/(?:[\w.-]+\/)+[\w.-]*|[\w-][\w.-]*\/[\w-]*\.[A-Za-z][A-Za-z0-9]{0,5}|[\w-][\w-]*\/(?=[\s)`'",;:]|$)|[\w-][\w.-]*\.(?:py|md|js|mjs|ts|json|ya?ml|sh|txt|csv|tsv|xlsx?|docx?|pptx?|pdf|html?|xml|toml|ini|cfg|sql|ipynb|png|jpe?g|svg))(?![\p{L}\p{N}_/-])/gu;
/** A number, not glued to a Latin letter, `_` or a placeholder before it. */
const numberPattern = /(?<![\p{Script=Latin}\p{N}_.,:\uE001])\d+(?:[.,:]\d+)*/gu;
/** The digits of a list marker at the start of a line: structure, renumbered freely. */
const listMarker = /^[ \t]*$/u;

const placeholder = (kind: string) => `\uE000${kind}\uE001`;

// The base of many variants is one object, and variants share the parts they leave alone; variants built
// for different examples often hold equal parts in different objects. A part's texts are normalised once per
// (part content, the harness's identifiers), since mentions depend on both, in a cache bounded by bytes.
const normalisedCache = new BoundedCache<string, NormalisedText[]>(
  16 << 20,
  (key, texts) => 2 * key.length + texts.reduce((sum, text) => sum + 4 * text.raw.length + 128, 0),
);
const symbolKeys = new WeakMap<Harness, string>();

/** A hash of the harness's identifiers (once per harness object). */
function symbolKey(harness: Harness): string {
  let key = symbolKeys.get(harness);
  if (key === undefined) {
    key = contentHash(harnessSymbols(harness).map((symbol) => [symbol.kind, symbol.tool ?? '', symbol.name]));
    symbolKeys.set(harness, key);
  }
  return key;
}

/** The texts of one part of a harness, mentions of identifiers replaced by placeholders. */
function normalisedTexts(harness: Harness, part: HarnessPartName): NormalisedText[] {
  const key = `${part}\u0002${hashHarness(harness)[part]}\u0002${symbolKey(harness)}`;
  return normalisedCache.get(key) ?? normalisedCache.set(key, normaliseTexts(harness, part));
}

function normaliseTexts(harness: Harness, part: HarnessPartName): NormalisedText[] {
  // Only this part's texts are scanned (the mentions of the whole symbol table, one part at a time).
  const symbols = harnessSymbols(harness);
  return harnessTextLocations(harness)
    .filter((location) => location.path[0] === part)
    .map((location) => {
      const mentions = findMentions(location, symbols);
      let text = '';
      let from = 0;
      for (const mention of mentions) {
        if (mention.start < from) continue;
        text += location.text.slice(from, mention.start) + placeholder(mention.kind);
        from = mention.end;
      }
      return {
        path: location.path,
        text: text + location.text.slice(from),
        raw: location.text,
        mentions: mentions.map(({ start, end }) => ({ start, end })),
      };
    });
}

function collect(text: string, pattern: RegExp): string[] {
  return [...text.matchAll(pattern)].map((match) => match[0]).filter((found) => found.length > 0);
}

const blankSpans = (text: string, spans: ReadonlyArray<readonly [number, number]>) =>
  spans.reduceRight(
    (current, [from, to]) => current.slice(0, from) + ' '.repeat(to - from) + current.slice(to),
    text,
  );

/**
 * The protected items of one text, by kind. Paths and URLs are read from the text as written, so that a
 * rename inside one is a change whatever the mention rule says (a path that is exactly an identifier's
 * mention aside); code, quotes and numbers from the text with mentions as placeholders.
 */
function protectedItems(location: NormalisedText): ProtectedItem[] {
  const known = itemsCache.get(location);
  if (known) return known;
  const items = findProtectedItems(location);
  itemsCache.set(location, items);
  return items;
}
type ProtectedItem = { kind: ProtectedContentKind; text: string };
// Normalised texts are shared by content (see `normalisedTexts`): their items are found once per object,
// and so are those of the text as written (`asWritten`).
const itemsCache = new WeakMap<NormalisedText, ProtectedItem[]>();
const writtenCache = new WeakMap<NormalisedText, NormalisedText>();
const asWritten = (location: NormalisedText): NormalisedText => {
  let written = writtenCache.get(location);
  if (!written) {
    written = { ...location, text: location.raw, mentions: [] };
    writtenCache.set(location, written);
  }
  return written;
};

function findProtectedItems(location: NormalisedText): Array<{ kind: ProtectedContentKind; text: string }> {
  const { text, raw } = location;
  const items: Array<{ kind: ProtectedContentKind; text: string }> = [];
  for (const pattern of codePatterns)
    for (const found of collect(text, pattern)) items.push({ kind: 'code', text: found });
  const isMention = (from: number, to: number) =>
    location.mentions.some((mention) => mention.start === from && mention.end === to);
  const rawUrls = urlSpans(raw);
  for (const [from, to] of rawUrls) items.push({ kind: 'url', text: raw.slice(from, to) });
  for (const match of blankSpans(raw, rawUrls).matchAll(pathPattern)) {
    if (match[0].length === 0 || isMention(match.index, match.index + match[0].length)) continue;
    items.push({ kind: 'path', text: match[0] });
  }
  const withoutUrls = blankSpans(text, urlSpans(text));
  for (const pattern of quotePatterns)
    for (const found of collect(text, pattern)) items.push({ kind: 'quote', text: found });
  for (const match of withoutUrls.matchAll(numberPattern)) {
    const end = match.index + match[0].length;
    const lineStart = withoutUrls.lastIndexOf('\n', match.index - 1) + 1;
    const atLineStart = listMarker.test(withoutUrls.slice(lineStart, match.index));
    if (atLineStart && /^\d+$/u.test(match[0]) && /^[.)](?:[ \t]|$)/u.test(withoutUrls.slice(end, end + 2)))
      continue;
    items.push({ kind: 'number', text: match[0] });
  }
  return items;
}

const itemKey = (item: { kind: string; text: string }) => `${item.kind}\u0000${item.text}`;

function countItems(texts: readonly NormalisedText[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const location of texts)
    for (const item of protectedItems(location))
      counts.set(itemKey(item), (counts.get(itemKey(item)) ?? 0) + 1);
  return counts;
}

/**
 * The protected items of the variant's texts, each counted the more often of two readings: with the
 * variant's mentions as placeholders, and as written. A symbol the variant adds (a distractor tool, a new
 * optional parameter) can make an unchanged `` `email` `` read as a mention; the text is still the same.
 */
function countVariantItems(texts: readonly NormalisedText[]): Map<string, number> {
  const counts = countItems(texts);
  const written = countItems(texts.map(asWritten));
  for (const [key, count] of written) if (count > (counts.get(key) ?? 0)) counts.set(key, count);
  return counts;
}

/** The base and variant texts to compare, grouped so that content may move inside a group but not leave it. */
function groups(
  base: Harness,
  variant: Harness,
  relabel: Relabel,
): Array<{ label: string; base: NormalisedText[]; variant: NormalisedText[] }> {
  const result: Array<{ label: string; base: NormalisedText[]; variant: NormalisedText[] }> = [];
  for (const part of ['skills', 'hooks', 'prompt'] as const) {
    if (base[part] === variant[part]) continue;
    result.push({ label: part, base: normalisedTexts(base, part), variant: normalisedTexts(variant, part) });
  }
  if (base.tools !== variant.tools) {
    // Tools may be dropped or added; each kept tool (followed through renames) keeps its own content.
    const renamed = (name: string) =>
      relabel.steps.reduce(
        (current, step) => (step.type === 'rename_tools' ? (step.map[current] ?? current) : current),
        name,
      );
    const baseTexts = normalisedTexts(base, 'tools');
    const variantTexts = normalisedTexts(variant, 'tools');
    base.tools.items.forEach((tool, index) => {
      const target = variant.tools.items.findIndex((candidate) => candidate.name === renamed(tool.name));
      if (target < 0) return;
      result.push({
        label: `tools.${tool.name}`,
        base: baseTexts.filter((text) => text.path[2] === index),
        variant: variantTexts.filter((text) => text.path[2] === target),
      });
    });
  }
  return result;
}

const describeText = (text: string) => JSON.stringify(text.replace(/[\uE000\uE001]/gu, '').slice(0, 80));

/** The base's tool names (the skill loader included): a bullet list naming them in turn is a procedure. */
const procedureToolNames = (base: Harness): ReadonlySet<string> =>
  new Set([base.skills.loader.tool, ...base.tools.items.map((tool) => tool.name)]);

/**
 * Checks that a variant keeps the protected content of the base: every number, code span or block, path,
 * URL and quoted string of the skills, hooks and prompt parts is still in the same part of the variant (as
 * often, identifiers compared by kind so consistent renames pass), each kept tool keeps those of its own
 * descriptions, and every ordered list (`orderedLists`: numbered lists, announced procedures, and bullet lists
 * whose items carry sequence cues or name the base's tools in turn) keeps the
 * order of the items that are still there word for word. Added content is allowed; lost or moved content
 * is an issue.
 *
 * @example
 * const { kept, issues } = checkContentPreservation(base, variant, row.relabel);
 */
export function checkContentPreservation(
  base: Harness,
  variant: Harness,
  relabel: Relabel,
): ContentPreservation {
  // The check reads the two harnesses' content, which parts the variant shares with the base (those are
  // left out) and the relabel's tool renames only: once per such key (a pool entry serves many examples; a
  // step's check is the certificate's when it is the last step).
  const renames = relabel.steps.filter((step) => step.type === 'rename_tools');
  const shared = (['skills', 'hooks', 'prompt', 'tools'] as const).map((part) =>
    base[part] === variant[part] ? 1 : 0,
  );
  const key = `${hashHarness(base).harness}\u0002${hashHarness(variant).harness}\u0002${shared.join('')}\u0002${renames.length > 0 ? JSON.stringify(renames) : ''}`;
  return checks.get(key) ?? checks.set(key, compareContent(base, variant, relabel));
}
const checks = new BoundedCache<string, ContentPreservation>(
  8 << 20,
  (key, result) =>
    2 * key.length + 256 + result.issues.reduce((sum, issue) => sum + 2 * issue.message.length + 128, 0),
);

function compareContent(base: Harness, variant: Harness, relabel: Relabel): ContentPreservation {
  const checked = { number: 0, code: 0, path: 0, url: 0, quote: 0, orderedLists: 0 };
  const toolNames = procedureToolNames(base);
  const issues: Issue[] = [];
  for (const group of groups(base, variant, relabel)) {
    const before = countItems(group.base);
    const after = countVariantItems(group.variant);
    for (const [key, count] of before) {
      const [kind, text] = key.split('\u0000') as [ProtectedContentKind, string];
      checked[kind] += count;
      const left = after.get(key) ?? 0;
      if (left < count) {
        issues.push({
          code: 'protected_content_changed',
          path: [group.label],
          message: `${group.label}: the ${kind} ${describeText(text)} occurs ${count} time(s) in the base, ${left} in the variant`,
        });
      }
    }
    for (const location of group.base) {
      for (const list of orderedLists(location.text, { toolNames })) {
        checked.orderedLists++;
        const moved = listOrderChange(list.items, group.variant);
        if (moved !== undefined) {
          issues.push({
            code: 'list_order_changed',
            path: location.path,
            message: `the ordered list of ${location.path.join('.')} changed order: ${describeText(moved)} moved before an item it followed`,
          });
        }
      }
    }
  }
  return { kept: issues.length === 0, checked, issues };
}

/**
 * The first item of an ordered list found in the variant before an item it followed, or undefined when
 * the items still there word for word keep their order in one text of the variant.
 */
function listOrderChange(items: readonly string[], texts: readonly NormalisedText[]): string | undefined {
  const present = [...new Set(items)].filter((item) => items.indexOf(item) === items.lastIndexOf(item));
  const found = present.filter((item) => texts.some(({ text }) => text.includes(item)));
  if (found.length < 2) return undefined;
  for (const { text } of texts) {
    const here = found.filter((item) => text.includes(item));
    if (here.length < 2) continue;
    let previous = -1;
    for (const item of items) {
      if (!here.includes(item)) continue;
      const position = text.indexOf(item, previous + 1);
      if (position < 0) return item;
      previous = position;
    }
  }
  return undefined;
}
