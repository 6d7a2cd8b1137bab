// The facts the content-preservation check compares, derived once per part content: each text of a part
// with the mentions of identifiers as placeholders, the protected items of each text (numbers, code, paths,
// URLs, quotes), their counts per group (a part, or one tool), and the ordered lists of each text.
//
// A part's facts depend on its texts (with their paths) and on the identifiers whose names occur in them
// (`symbolPositionsIn`), not on the whole harness: a per-example hook step makes a new harness whose tools,
// skills and prompt are the pool entry's, and their facts are found by (the part's texts, identifiers that
// occur), so the step costs only the hooks part, and nothing when it left the hooks' texts as they were.
// Caches are bounded by bytes (`BoundedCache`); a miss recomputes the same facts.

import { createHash } from 'node:crypto';
import { BoundedCache } from '../harness/bounded-cache.js';
import { contentHash, writtenPartHash } from '../harness/hash.js';
import { urlSpans } from '../harness/mention-boundary.js';
import type { Harness, HarnessPartName } from '../harness/schema.js';
import {
  findMentions,
  partSymbols,
  partTextLocations,
  type SymbolEntry,
  symbolParts,
  symbolPositionsIn,
  type TextLocation,
} from '../harness/symbol-table.js';
import { textNumbering } from '../harness/text-numbers.js';
import { type TextListMeaning, textListMeaning } from './meaning-preservation.js';
import type { NormalisedText } from './normalised-text.js';
import { type OrderedList, orderedLists } from './ordered-lists.js';
import { codeSpans, numberSpans, pathSpans, quoteSpans } from './protected-content.js';

/** The kinds of protected content. */
export type ProtectedContentKind = 'number' | 'code' | 'path' | 'url' | 'quote';

/** One protected item of a text. */
export interface ProtectedItem {
  kind: ProtectedContentKind;
  text: string;
}

export type { NormalisedText } from './normalised-text.js';

/**
 * Texts compared as one: a part (skills, hooks, prompt) or one tool's descriptions. `id` names this
 * object (facts that are evicted and derived again get a new one), for caches of comparisons.
 */
export interface TextGroup {
  readonly id: number;
  readonly texts: readonly NormalisedText[];
  /** Each protected item (`itemKey`) and how often the texts hold it, in order of first occurrence. */
  counts(): ReadonlyMap<string, number>;
  /**
   * Each protected item counted the more often of two readings: with mentions as placeholders, and as
   * written. A symbol a variant adds (a distractor tool, a new optional parameter) can make an unchanged
   * `` `email` `` read as a mention; the text is still the same.
   */
  variantCounts(): ReadonlyMap<string, number>;
  /** The ordered lists of each text (same order as `texts`), for the base's tool names. */
  orderedLists(toolNames: ReadonlySet<string>, namesKey: string): ReadonlyArray<readonly OrderedList[]>;
  /** The lists of each text with their meaning facts (same order as `texts`), for the base's tool names. */
  listMeaning(toolNames: ReadonlySet<string>, namesKey: string): ReadonlyArray<readonly TextListMeaning[]>;
}

/** The facts of one part of a harness: one group, or for tools one group per tool (in order) and their names. */
export interface PartFacts {
  readonly groups: readonly TextGroup[];
  /** Tools only: the tools' names, by index. */
  readonly toolNames: readonly string[];
}

const placeholder = (kind: string) => `\uE000${kind}\uE001`;

/** The key of a protected item in the counts: its kind and text. */
export const itemKey = (item: ProtectedItem) => `${item.kind}\u0000${item.text}`;

/** How many texts of each part were scanned for mentions (what the caches save; tests read it). */
export const textScans: Record<HarnessPartName, number> = { skills: 0, hooks: 0, prompt: 0, tools: 0 };

/**
 * The protected items of one text, by kind. Paths and URLs are read from the text as written, so that a
 * rename inside one is a change whatever the mention rule says (a path that is exactly an identifier's
 * mention aside); code, quotes and numbers from the text with mentions as placeholders.
 */
function findProtectedItems(location: NormalisedText): ProtectedItem[] {
  const { text, raw, mentions } = location;
  const items: ProtectedItem[] = [];
  for (const span of codeSpans(text)) items.push({ kind: 'code', text: span.text });
  const rawUrls = urlSpans(raw);
  for (const [from, to] of rawUrls) items.push({ kind: 'url', text: raw.slice(from, to) });
  for (const span of pathSpans(raw, rawUrls)) {
    if (mentions.some((mention) => mention.start === span.start && mention.end === span.end)) continue;
    items.push({ kind: 'path', text: span.text });
  }
  for (const span of quoteSpans(text)) items.push({ kind: 'quote', text: span.text });
  for (const span of numberSpans(text, { urls: text === raw ? rawUrls : urlSpans(text) }))
    items.push({ kind: 'number', text: span.text });
  return items;
}

// The items of a text as written depend on the text alone: found once per text content. The key is weighed
// at a byte a character (most texts are one-byte strings, and textEntries holds the same string objects).
// Pure function of content across runs: a text's protected items, by the text.
const writtenItemsCache = new BoundedCache<string, ProtectedItem[]>(
  8 << 20,
  (raw, items) => raw.length + items.reduce((sum, item) => sum + 2 * item.text.length + 64, 64),
  'content-facts.writtenItemsCache',
);
function writtenItems(raw: string): ProtectedItem[] {
  return (
    writtenItemsCache.get(raw) ??
    writtenItemsCache.set(raw, findProtectedItems({ path: [], text: raw, raw, mentions: [] }))
  );
}

function countInto(counts: Map<string, number>, items: readonly ProtectedItem[]) {
  for (const item of items) {
    const key = itemKey(item);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
}

/** What one text holds, wherever it stands: its normalised reading, protected items and ordered lists. */
interface TextFacts {
  text: string;
  raw: string;
  mentions: ReadonlyArray<{ start: number; end: number }>;
  items?: ProtectedItem[];
  lists?: { namesKey: string; lists: OrderedList[] };
  meaning?: { namesKey: string; lists: TextListMeaning[] };
}

/** The items of a normalised text: a text without mentions reads the same as written. */
function normalisedItems(facts: TextFacts): ProtectedItem[] {
  facts.items ??=
    facts.mentions.length === 0
      ? writtenItems(facts.raw)
      : findProtectedItems({ path: [], text: facts.text, raw: facts.raw, mentions: facts.mentions });
  return facts.items;
}

let nextGroupId = 0;

function textGroup(texts: NormalisedText[], facts: TextFacts[]): TextGroup {
  let counts: Map<string, number> | undefined;
  let variantCounts: Map<string, number> | undefined;
  const baseCounts = () => {
    if (!counts) {
      counts = new Map();
      for (const text of facts) countInto(counts, normalisedItems(text));
    }
    return counts;
  };
  return {
    id: nextGroupId++,
    texts,
    counts: baseCounts,
    variantCounts() {
      // Without mentions, both readings are the same text.
      if (!variantCounts && facts.every((text) => text.mentions.length === 0)) variantCounts = baseCounts();
      if (!variantCounts) {
        const merged = new Map(baseCounts());
        const written = new Map<string, number>();
        for (const text of facts) countInto(written, writtenItems(text.raw));
        for (const [key, count] of written) if (count > (merged.get(key) ?? 0)) merged.set(key, count);
        variantCounts = merged;
      }
      return variantCounts;
    },
    orderedLists(toolNames, namesKey) {
      return facts.map((text) => {
        if (text.lists?.namesKey !== namesKey)
          text.lists = { namesKey, lists: orderedLists(text.text, { toolNames }) };
        return text.lists.lists;
      });
    },
    listMeaning(toolNames, namesKey) {
      return facts.map((text) => {
        if (text.meaning?.namesKey !== namesKey)
          text.meaning = { namesKey, lists: textListMeaning(text.text, toolNames) };
        return text.meaning.lists;
      });
    },
  };
}

/** The text with its mentions (of these symbols) replaced by placeholders. */
function normalise(location: TextLocation, symbols: readonly SymbolEntry[]): TextFacts {
  const mentions = findMentions(location, symbols);
  let text = '';
  let from = 0;
  for (const mention of mentions) {
    if (mention.start < from) continue;
    text += location.text.slice(from, mention.start) + placeholder(mention.kind);
    from = mention.end;
  }
  return {
    text: text + location.text.slice(from),
    raw: location.text,
    mentions: mentions.map(({ start, end }) => ({ start, end })),
  };
}

/**
 * What of a symbol `findMentions` reads, as a key: kind, owning tool and name, split by control characters
 * (JSON where a name holds one, so keys never collide).
 */
function symbolKey(symbol: SymbolEntry): string {
  let key = symbolKeys.get(symbol);
  if (key === undefined) {
    const tool = symbol.tool ?? '';
    key =
      holdsSeparator(symbol.name) || holdsSeparator(tool)
        ? JSON.stringify([symbol.kind, symbol.tool ?? null, symbol.name])
        : `${symbol.kind}\u0000${symbol.tool === undefined ? '\u0002' : tool}\u0000${symbol.name}`;
    symbolKeys.set(symbol, key);
  }
  return key;
}
/** Whether a string holds one of the separators of `symbolKey` (U+0000 to U+0003). */
const holdsSeparator = (text: string) =>
  [...'\u0000\u0001\u0002\u0003'].some((separator) => text.includes(separator));
// Pure function of content across runs: a symbol entry's key.
const symbolKeys = new WeakMap<SymbolEntry, string>();
const symbolsKey = (symbols: readonly SymbolEntry[]) => symbols.map(symbolKey).join('\u0001');

/**
 * The identifiers one part defines, what `findMentions` reads of them as a key, and a number naming that
 * key: once per part object.
 */
interface Identifiers {
  symbols: SymbolEntry[];
  key: string;
  id: number;
}
// Pure function of content across runs: a part object's identifiers.
const partIdentifiers = new WeakMap<object, Identifiers>();
// Pure function of content across runs: a number for each identifier key seen (a key evicted and seen
// again gets a new number, so a number never names two keys).
const identifierKeyId = textNumbering(2 << 20, 'content-facts.identifierKeyIds');
function identifiersOf(harness: Harness, part: HarnessPartName): Identifiers {
  let known = partIdentifiers.get(harness[part]);
  if (!known) {
    const symbols = partSymbols(harness, part);
    const key = symbolsKey(symbols);
    const id = identifierKeyId(key);
    known = { symbols, key, id };
    partIdentifiers.set(harness[part], known);
  }
  return known;
}

/**
 * The identifiers a harness defines, as numbers (one per part, in `symbolParts` order): two harnesses with
 * the same signature hold the same identifiers, so a part's facts (`partFacts`) depend only on the part and
 * this signature.
 *
 * @example
 * identifiersSignature(variant) === identifiersSignature(base) // no identifier renamed, added or dropped
 */
export function identifiersSignature(harness: Harness): string {
  return symbolParts.map((from) => identifiersOf(harness, from).id).join(',');
}

/**
 * What is known of one text (by content): which identifiers of a defining part's list occur in it, whether
 * each name asked about occurs in it, and its facts by (template or not, the identifiers that occur in
 * it). A variant that merges two skills or drops a hook leaves the other texts' entries as they were.
 */
interface TextEntry {
  /** By the list's key (`Identifiers.key`): positions in the list (equal lists hold other symbol objects). */
  occurs: Map<string, number[]>;
  names: Map<string, boolean>;
  facts: Map<string, TextFacts>;
}
// Keyed by the text itself: mostly the same string object as the last time, whose hash the engine keeps.
// Pure function of content across runs: a text's reading, by the text.
const textEntries = new BoundedCache<string, TextEntry>(
  24 << 20,
  (raw, entry) => {
    let size = 2 * raw.length + 256 + 64 * (entry.names.size + entry.occurs.size);
    for (const [key, facts] of entry.facts)
      size += 2 * (key.length + facts.text.length) + 32 * facts.mentions.length + 256;
    return size;
  },
  'content-facts.textEntries',
);
/** Lists, names and readings kept per text: a text asked about more starts over (a bound, not a rule). */
const readingsPerText = 32;
const namesPerText = 1024;

/** The identifiers of `defined` whose names occur in the text (`symbolPositionsIn`), once per (text, list). */
function occursIn(entry: TextEntry, raw: string, defined: Identifiers): SymbolEntry[] {
  let positions = entry.occurs.get(defined.key);
  if (!positions) {
    if (entry.occurs.size >= readingsPerText) entry.occurs.clear();
    if (entry.names.size >= namesPerText) entry.names.clear();
    positions = symbolPositionsIn(raw, defined.symbols, entry.names);
    entry.occurs.set(defined.key, positions);
  }
  return positions.map((position) => defined.symbols[position] as SymbolEntry);
}

/** The identifiers of one part whose names occur in another part's texts, and a hash of them. */
interface Occurring {
  key: string;
  symbols: SymbolEntry[];
}

/** What is known of one part's content: which identifiers occur in its texts, by defining list. */
interface PartContent {
  /**
   * By the defining part's identifiers (`Identifiers.key`): their positions in that list, not the symbol
   * objects, which belong to one harness (held here, they kept every variant's symbols alive).
   */
  occurring: Map<string, { key: string; positions: number[] }>;
}
// Pure function of content across runs: a part's content, by its hash.
const partContents = new BoundedCache<string, PartContent>(
  4 << 20,
  (key, content) => {
    // The map's keys are the defining lists' keys (long), which other entries share: weighed at half.
    let size = 2 * key.length + 256;
    for (const [list, found] of content.occurring)
      size += list.length + 2 * found.key.length + 8 * found.positions.length + 160;
    return size;
  },
  'content-facts.partContents',
);

/** What is known of one part object: its texts, their entries and its content's record. */
interface PartRecord {
  /**
   * The part's name and a hash of what its facts read: its texts with their paths (`textsKey`), or for tools
   * the part as written (`writtenPartHash`, which covers the tool names its groups are split by).
   */
  key: string;
  locations: TextLocation[];
  entries?: TextEntry[];
  content: PartContent;
}
// Pure function of content across runs: a part object's record.
const partRecords = new WeakMap<object, PartRecord>();
function recordOf(harness: Harness, part: HarnessPartName): PartRecord {
  let known = partRecords.get(harness[part]);
  if (!known) {
    const locations = partTextLocations(harness, part);
    const key = `${part}\u0002${part === 'tools' ? writtenPartHash(harness.tools) : textsKey(locations)}`;
    const content = partContents.get(key) ?? partContents.set(key, { occurring: new Map() });
    known = { key, locations, content };
    partRecords.set(harness[part], known);
  }
  return known;
}
/**
 * A hash of a part's texts with their paths: what its facts are derived from. A per-example step that only
 * turns hooks off or changes their budgets leaves the texts as they were, and with them the facts and every
 * comparison made of them (the step's content check then costs lookups, not a new comparison).
 */
function textsKey(locations: readonly TextLocation[]): string {
  const hash = createHash('sha256');
  for (const { path, text, template } of locations)
    hash.update(`${JSON.stringify(path)}${template ? 't' : 'p'}${text.length}\u0000`).update(text);
  return hash.digest('base64');
}

/**
 * What a part's facts are derived from, as a key (its texts with their paths; for tools, the part as
 * written): parts with the same key and the same `identifiersSignature` have the same facts.
 *
 * @example
 * partContentKey(variant, 'hooks') === partContentKey(base, 'hooks') // the same hook texts
 */
export function partContentKey(harness: Harness, part: HarnessPartName): string {
  return recordOf(harness, part).key;
}

function entriesOf(record: PartRecord): TextEntry[] {
  record.entries ??= record.locations.map(
    ({ text }) =>
      textEntries.get(text) ??
      textEntries.set(text, { occurs: new Map(), names: new Map(), facts: new Map() }),
  );
  return record.entries;
}

/**
 * The identifiers of part `from` whose names occur in part `part`'s texts, once per (part content,
 * identifiers of `from`): from each text's own answers, so a part that shares most texts with one seen
 * before looks for names in its new texts only.
 */
function occurringIn(harness: Harness, part: HarnessPartName, from: HarnessPartName): Occurring {
  const defined = identifiersOf(harness, from);
  const record = recordOf(harness, part);
  const known = record.content.occurring.get(defined.key);
  if (known)
    return {
      key: known.key,
      symbols: known.positions.map((position) => defined.symbols[position] as SymbolEntry),
    };
  const seen = new Set<SymbolEntry>();
  const entries = entriesOf(record);
  record.locations.forEach(({ text }, index) => {
    for (const symbol of occursIn(entries[index] as TextEntry, text, defined)) seen.add(symbol);
  });
  const positions: number[] = [];
  defined.symbols.forEach((symbol, position) => {
    if (seen.has(symbol)) positions.push(position);
  });
  const symbols = positions.map((position) => defined.symbols[position] as SymbolEntry);
  const key = contentHash(symbolsKey(symbols));
  if (record.content.occurring.size >= readingsPerText) record.content.occurring.clear();
  record.content.occurring.set(defined.key, { key, positions });
  partContents.set(record.key, record.content); // its size grew
  return { key, symbols };
}

// Weighed by what an entry holds once its harness is gone (measured:
// docs/decisions/0006-caches-bounded-by-bytes.md): each text's reading and the text as written (mostly one
// byte a character), its path, its mentions, and what its group derives later (items, counts, lists).
// Pure function of content across runs: a part's facts, by its content key.
const factsCache = new BoundedCache<string, PartFacts>(
  8 << 20,
  (key, facts) => {
    let size = 2 * key.length + 256;
    for (const group of facts.groups) {
      size += 384;
      for (const text of group.texts)
        size += text.text.length + text.raw.length + 32 * (text.path.length + text.mentions.length) + 384;
    }
    return size;
  },
  'content-facts.factsCache',
);

// The facts of a part, by the part objects they were derived from (variants share part objects, so most
// lookups end here): skills, tools, prompt, hooks, then the part's name.
type PartSlot = Partial<Record<HarnessPartName, PartFacts>>;
// Pure function of content across runs: a part's facts, by the part objects that hold it.
const factsByObjects = new WeakMap<object, WeakMap<object, WeakMap<object, WeakMap<object, PartSlot>>>>();
function objectSlot({ skills, tools, prompt, hooks }: Harness): PartSlot {
  const child = <K extends object, V>(map: WeakMap<K, V>, key: K, make: () => V): V => {
    let found = map.get(key);
    if (found === undefined) {
      found = make();
      map.set(key, found);
    }
    return found;
  };
  const byTools = child(factsByObjects, skills, () => new WeakMap());
  const byPrompt = child(byTools, tools, () => new WeakMap());
  const byHooks = child(byPrompt, prompt, () => new WeakMap());
  return child(byHooks, hooks, () => ({}));
}

/**
 * The facts of one part of a harness, derived once per (part content, identifiers of the harness whose
 * names occur in the part's texts): the mentions of any other identifier cannot be in those texts.
 *
 * @example
 * partFacts(variant, 'skills').groups[0]?.counts()
 */
export function partFacts(harness: Harness, part: HarnessPartName): PartFacts {
  const slot = objectSlot(harness);
  const known = slot[part];
  if (known) return known;
  const occurs = symbolParts.map((from) => occurringIn(harness, part, from));
  const key = `${recordOf(harness, part).key}\u0002${occurs.map((found) => found.key).join('\u0003')}`;
  const facts =
    factsCache.get(key) ??
    factsCache.set(
      key,
      deriveFacts(
        harness,
        part,
        occurs.flatMap((found) => found.symbols),
      ),
    );
  slot[part] = facts;
  return facts;
}

/**
 * Derives a part's facts; `symbols` are the identifiers that occur in its texts (one list, so the name trie
 * of `findMentions` is built once for the part: a text's mentions are the same under any list that holds
 * the identifiers occurring in it).
 */
function deriveFacts(harness: Harness, part: HarnessPartName, symbols: readonly SymbolEntry[]): PartFacts {
  const record = recordOf(harness, part);
  const { locations } = record;
  const entries = entriesOf(record);
  const defined = symbolParts.map((from) => identifiersOf(harness, from));
  const facts = locations.map((location, index): TextFacts => {
    const entry = entries[index] as TextEntry;
    // The identifiers that occur in this text, in `harnessSymbols` order: its mentions are theirs.
    const occurs = defined.flatMap((identifiers) => occursIn(entry, location.text, identifiers));
    const key = `${location.template ? 't' : 'p'}${symbolsKey(occurs)}`;
    let found = entry.facts.get(key);
    if (!found) {
      if (entry.facts.size >= readingsPerText) entry.facts.clear();
      textScans[part]++;
      found = normalise(location, symbols);
      entry.facts.set(key, found);
      textEntries.set(location.text, entry); // again, so that its size counts the new reading
    }
    return found;
  });
  const texts = locations.map((location, index): NormalisedText => {
    const { text, raw, mentions } = facts[index] as TextFacts;
    return { path: location.path, text, raw, mentions };
  });
  if (part !== 'tools') return { groups: [textGroup(texts, facts)], toolNames: [] };
  // Each tool's texts are compared on their own (paths are `tools.items.<index>…`).
  const byTool = harness.tools.items.map(() => ({ texts: [] as NormalisedText[], facts: [] as TextFacts[] }));
  texts.forEach((text, index) => {
    const tool = byTool[text.path[2] as number];
    tool?.texts.push(text);
    tool?.facts.push(facts[index] as TextFacts);
  });
  return {
    groups: byTool.map((tool) => textGroup(tool.texts, tool.facts)),
    toolNames: harness.tools.items.map((tool) => tool.name),
  };
}
