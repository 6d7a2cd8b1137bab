// The content-preservation check of the certificate: beyond structure, a variant keeps (or consistently
// renames) the protected content of every text it rewrites — numbers, code, paths, URLs, quoted strings —
// and the order of every ordered list. Mentions of identifiers are compared as placeholders, so a rename
// that went through the symbol table is consistent, while a rename inside a path or a URL is a change.

import { BoundedCache } from '../harness/bounded-cache.js';
import type { Issue } from '../harness/issues.js';
import { objectNumber } from '../harness/object-number.js';
import type { Harness, HarnessPartName } from '../harness/schema.js';
import { type TextIndex, textIndex } from '../harness/text-index.js';
import type { Relabel } from '../trajectory/relabel.js';
import {
  identifiersSignature,
  type ProtectedContentKind,
  partContentKey,
  partFacts,
  type TextGroup,
} from './content-facts.js';
import { compareListMeaning, type MeaningChecked } from './meaning-preservation.js';
import type { NormalisedText } from './normalised-text.js';

export type { ProtectedContentKind } from './content-facts.js';

/** What the check looked at and whether it held. */
export interface ContentPreservation {
  /** Every protected item of the base is in the variant and every ordered list keeps its order. */
  kept: boolean;
  /**
   * Every list keeps its meaning facts (`compareListMeaning`): dependent rules stay right after the rule they
   * lean on, enumerations keep their conjunctions where they were, numbered procedures stay marked as ordered.
   */
  meaningKept: boolean;
  /**
   * How many protected items of each kind, ordered lists, dependencies, procedures and enumerations the base
   * holds in the texts checked.
   */
  checked: ContentChecked;
  /** What failed: protected content first, then meaning (codes `dependency_separated`, `enumeration_broken`, `procedure_unmarked`, `template_changed`). */
  issues: Issue[];
}

/** The counts of a content check. */
export type ContentChecked = Record<ProtectedContentKind, number> & { orderedLists: number } & MeaningChecked;

const meaningCodes = new Set([
  'dependency_separated',
  'enumeration_broken',
  'procedure_unmarked',
  'template_changed',
]);
const emptyChecked = (): ContentChecked => ({
  number: 0,
  code: 0,
  path: 0,
  url: 0,
  quote: 0,
  orderedLists: 0,
  dependencies: 0,
  procedures: 0,
  enumerations: 0,
});

/** Texts of the base and of the variant compared as one: content may move inside a group but not leave it. */
interface GroupPair {
  label: string;
  base: TextGroup;
  variant: TextGroup;
}

/** The groups of one part to compare (a part the variant does not share with the base): each kept tool on its own. */
function partGroups(base: Harness, variant: Harness, relabel: Relabel, part: HarnessPartName): GroupPair[] {
  if (part !== 'tools') {
    const [baseGroup] = partFacts(base, part).groups;
    const [variantGroup] = partFacts(variant, part).groups;
    return baseGroup && variantGroup ? [{ label: part, base: baseGroup, variant: variantGroup }] : [];
  }
  // Tools may be dropped or added; each kept tool (followed through renames) keeps its own content.
  const renamed = (name: string) =>
    relabel.steps.reduce(
      (current, step) => (step.type === 'rename_tools' ? (step.map[current] ?? current) : current),
      name,
    );
  const baseTools = partFacts(base, 'tools');
  const variantTools = partFacts(variant, 'tools');
  const result: GroupPair[] = [];
  baseTools.toolNames.forEach((name, index) => {
    const target = variantTools.toolNames.indexOf(renamed(name));
    if (target < 0) return;
    result.push({
      label: `tools.${name}`,
      base: baseTools.groups[index] as TextGroup,
      variant: variantTools.groups[target] as TextGroup,
    });
  });
  return result;
}

const describeText = (text: string) => JSON.stringify(text.replace(/[\uE000\uE001]/gu, '').slice(0, 80));

/** The base's tool names (the skill loader included): a bullet list naming them in turn is a procedure. */
function procedureToolNames(base: Harness): { names: ReadonlySet<string>; key: string } {
  let known = toolNamesOf.get(base);
  if (!known) {
    const names = new Set([base.skills.loader.tool, ...base.tools.items.map((tool) => tool.name)]);
    known = { names, key: JSON.stringify([...names]) };
    toolNamesOf.set(base, known);
  }
  return known;
}
// Pure function of content across runs: a harness object's tool names.
const toolNamesOf = new WeakMap<Harness, { names: ReadonlySet<string>; key: string }>();

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
  // The check compares facts of parts, each derived once per content (`partFacts`) and each pair of groups
  // compared once (`comparisons`); a pair of harness objects is checked once per relabel's tool renames
  // (a step's check is the certificate's when it is the last step).
  const key = toolRenamesKey(relabel);
  let byVariant = checks.get(base);
  if (!byVariant) {
    byVariant = new WeakMap();
    checks.set(base, byVariant);
  }
  let byRenames = byVariant.get(variant);
  if (!byRenames) {
    byRenames = new Map();
    byVariant.set(variant, byRenames);
  }
  const known = byRenames.get(key);
  if (known) return known;
  const result = compareContent(base, variant, relabel, key);
  byRenames.set(key, result);
  return result;
}
// Pure function of content across runs: the verdict of (base, variant) objects and a relabel's content.
const checks = new WeakMap<Harness, WeakMap<Harness, Map<string, ContentPreservation>>>();

/** The parts the content check compares, in the order their issues are listed. */
export const contentCheckedParts = ['skills', 'hooks', 'prompt', 'tools'] as const;

function compareContent(
  base: Harness,
  variant: Harness,
  relabel: Relabel,
  renamesKey: string,
): ContentPreservation {
  const parts: PartContentCheck[] = [];
  for (const part of contentCheckedParts) {
    if (base[part] === variant[part]) continue;
    parts.push(comparePart(base, variant, relabel, part, renamesKey));
  }
  return combinePartChecks(parts);
}

/**
 * The content check of a whole variant from the checks of the parts it does not share with the base, in
 * `contentCheckedParts` order (what `checkContentPreservation` returns).
 *
 * @example
 * combinePartChecks(['skills', 'tools'].map((part) => checkPartContent(base, variant, relabel, part)))
 */
export function combinePartChecks(parts: readonly PartContentCheck[]): ContentPreservation {
  const checked = emptyChecked();
  const issues: Issue[] = [];
  for (const compared of parts) {
    for (const kind of Object.keys(checked) as Array<keyof typeof checked>)
      checked[kind] += compared.checked[kind];
    issues.push(...compared.issues);
  }
  const meaningKept = issues.every((issue) => !meaningCodes.has(issue.code));
  return { kept: issues.every((issue) => meaningCodes.has(issue.code)), meaningKept, checked, issues };
}

/**
 * The content check of one part the variant does not share with the base (see `checkContentPreservation`).
 *
 * @example
 * checkPartContent(base, variant, relabel, 'skills').issues
 */
export function checkPartContent(
  base: Harness,
  variant: Harness,
  relabel: Relabel,
  part: HarnessPartName,
): PartContentCheck {
  return comparePart(base, variant, relabel, part, toolRenamesKey(relabel));
}

/** A relabel's tool renames as text ('' when it renames no tool): what the tools' pairing reads of it. */
function toolRenamesKey(relabel: Relabel): string {
  let key = toolRenamesKeys.get(relabel);
  if (key === undefined) {
    const renames = relabel.steps.filter((step) => step.type === 'rename_tools');
    key = renames.length > 0 ? JSON.stringify(renames) : '';
    toolRenamesKeys.set(relabel, key);
  }
  return key;
}
// Pure function of content across runs: a relabel object's tool renames as text.
const toolRenamesKeys = new WeakMap<Relabel, string>();

/** What the content check found in one part: its counts and issues. */
export type PartContentCheck = Omit<ContentPreservation, 'kept' | 'meaningKept'>;

/**
 * One part of the check: its groups compared and summed. A part's comparison reads the base, the variant's
 * part, the identifiers the variant defines (its mentions) and, for tools, the relabel's tool renames, and
 * is kept by those: a variant that holds a part as one checked before (a pool entry's skills, tools and
 * prompt under each example's own hook steps) gets that part's verdict again without deriving anything.
 */
function comparePart(
  base: Harness,
  variant: Harness,
  relabel: Relabel,
  part: HarnessPartName,
  renamesKey: string,
): PartContentCheck {
  const key = `${objectNumber(base)}\u0002${partContentKey(variant, part)}\u0002${identifiersSignature(variant)}\u0002${part === 'tools' ? renamesKey : ''}`;
  const known = partComparisons.get(key);
  if (known) return known;
  const toolNames = procedureToolNames(base);
  const checked = emptyChecked();
  const issues: Issue[] = [];
  for (const pair of partGroups(base, variant, relabel, part)) {
    const pairKey = `${pair.base.id}\u0002${pair.variant.id}\u0002${pair.label}\u0002${toolNames.key}`;
    const compared =
      comparisons.get(pairKey) ??
      comparisons.set(pairKey, compareGroup(pair, toolNames.names, toolNames.key));
    for (const kind of Object.keys(checked) as Array<keyof typeof checked>)
      checked[kind] += compared.checked[kind];
    issues.push(...compared.issues);
  }
  return partComparisons.set(key, { checked, issues });
}
// Pure function of content across runs: a part's comparison, by the base object, what the variant's part
// holds (`partContentKey`) and what else it reads (the variant's identifiers, the relabel's tool renames).
const partComparisons = new BoundedCache<string, PartContentCheck>(
  4 << 20,
  (key, result) =>
    2 * key.length + 256 + result.issues.reduce((sum, issue) => sum + 2 * issue.message.length + 128, 0),
  'content-preservation.partComparisons',
);

// A pair of groups compares the same way whatever harnesses hold them (a pool entry's tools under many
// examples' hooks): once per pair of group objects.
// Pure function of content across runs: the comparison of two groups, by their content keys.
const comparisons = new BoundedCache<string, Omit<ContentPreservation, 'kept' | 'meaningKept'>>(
  8 << 20,
  (key, result) =>
    2 * key.length + 256 + result.issues.reduce((sum, issue) => sum + 2 * issue.message.length + 128, 0),
  'content-preservation.comparisons',
);

/** The counts and issues of one pair of groups: lost items, then lists whose order changed. */
function compareGroup(
  { label, base, variant }: GroupPair,
  toolNames: ReadonlySet<string>,
  namesKey: string,
): Omit<ContentPreservation, 'kept' | 'meaningKept'> {
  const checked = emptyChecked();
  const issues: Issue[] = [];
  const after = variant.variantCounts();
  for (const [key, count] of base.counts()) {
    const [kind, text] = key.split('\u0000') as [ProtectedContentKind, string];
    checked[kind] += count;
    const left = after.get(key) ?? 0;
    if (left < count) {
      issues.push({
        code: 'protected_content_changed',
        path: [label],
        message: `${label}: the ${kind} ${describeText(text)} occurs ${count} time(s) in the base, ${left} in the variant`,
      });
    }
  }
  const lists = base.orderedLists(toolNames, namesKey);
  // A list is looked for in the variant's text at the same path first: scanning every text of a part for
  // every item made the check quadratic in the skills of a harness.
  let byPath: Map<string, NormalisedText> | undefined;
  // Elsewhere (skills reordered or merged), the texts holding each item come from an index of the group.
  let index: TextIndex | undefined;
  const variantTexts = () => {
    index ??= textIndex(variant.texts.map(({ text }) => text));
    return index;
  };
  // A text the variant holds word for word keeps every list it has (a skill moved, renamed or left alone).
  let verbatim: Set<string> | undefined;
  base.texts.forEach((location, position) => {
    for (const list of lists[position] ?? []) {
      checked.orderedLists++;
      verbatim ??= new Set(variant.texts.map(({ text }) => text));
      if (verbatim.has(location.text)) continue;
      byPath ??= new Map(variant.texts.map((text) => [JSON.stringify(text.path), text]));
      const same = byPath.get(JSON.stringify(location.path));
      const moved =
        same && list.items.every((item) => same.text.includes(item))
          ? listOrderChange(list.items, [same.text], () => [0])
          : listOrderChange(
              list.items,
              variant.texts.map(({ text }) => text),
              (item) => variantTexts().containing(item),
            );
      if (moved !== undefined) {
        issues.push({
          code: 'list_order_changed',
          path: location.path,
          message: `the ordered list of ${location.path.join('.')} changed order: ${describeText(moved)} moved before an item it followed`,
        });
      }
    }
  });
  const meaning = compareListMeaning(base.texts, base.listMeaning(toolNames, namesKey), variant.texts);
  checked.dependencies += meaning.checked.dependencies;
  checked.procedures += meaning.checked.procedures;
  checked.enumerations += meaning.checked.enumerations;
  issues.push(...meaning.issues);
  return { checked, issues };
}

/**
 * The first item of an ordered list found in the variant before an item it followed, or undefined when
 * the items still there word for word keep their order in one text of the variant.
 */
function listOrderChange(
  items: readonly string[],
  texts: readonly string[],
  holding: (item: string) => readonly number[],
): string | undefined {
  const present = [...new Set(items)].filter((item) => items.indexOf(item) === items.lastIndexOf(item));
  // For each text, the items it holds (in list order): only texts holding two can show a moved item.
  const byText = new Map<number, Set<string>>();
  for (const item of present) {
    for (const at of holding(item)) byText.set(at, (byText.get(at) ?? new Set()).add(item));
  }
  // Texts with the same words answer the same: each is read once.
  const read = new Set<string>();
  for (const at of [...byText.keys()].sort((a, b) => a - b)) {
    if (read.has(texts[at] as string)) continue;
    read.add(texts[at] as string);
    const here = byText.get(at) as Set<string>;
    if (here.size < 2) continue;
    const text = texts[at] as string;
    let previous = -1;
    for (const item of items) {
      if (!here.has(item)) continue;
      const position = text.indexOf(item, previous + 1);
      if (position < 0) return item;
      previous = position;
    }
  }
  return undefined;
}
