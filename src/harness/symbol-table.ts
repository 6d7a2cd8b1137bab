// The symbol table: every identifier a harness defines and every place its free text mentions one. Renames
// go through it, never through a blind string replace, so that "size" the parameter and "size" the word
// stay apart.
import { BoundedCache } from './bounded-cache.js';
import { customParams, type HookCheckRegistry, noHookChecks } from './hook-checks.js';
import type { JsonPath } from './issues.js';
import { mentionStandsAlone, urlSpans } from './mention-boundary.js';
import type { Harness, HarnessPartName } from './schema.js';
import { templatePlaceholderSpans } from './template-placeholders.js';

/** The kinds of identifier a harness defines. */
export type SymbolKind = 'skill' | 'tool' | 'parameter' | 'section' | 'hook';

/** An identifier and where it is defined. Parameters are named `tool` + `path` (`[]` stands for array items). */
export interface SymbolEntry {
  kind: SymbolKind;
  /** The identifier as written: a skill id, a tool name, a parameter's own name, a section or hook id. */
  name: string;
  definedAt: JsonPath;
  /** Parameters only: the tool they belong to and their path below its arguments. */
  tool?: string;
  parameterPath?: string[];
  /** The skill loader is a tool the harness defines through `skills.loader`. */
  loader?: true;
}

/** One occurrence of an identifier inside a string of the harness. Offsets are UTF-16, `end` exclusive. */
export interface Mention {
  kind: SymbolKind;
  name: string;
  /** For parameters: the owning tool. */
  tool?: string;
  /** The string that holds the mention. */
  path: JsonPath;
  start: number;
  end: number;
  /**
   * `code` when wrapped in backticks, `qualified` for `tool.parameter`, `bare` for prose; `reference` when
   * the whole string is the identifier (a hook's `tools` entry, `skill_loaded.skill`, a name in a custom
   * check's params).
   */
  form: 'code' | 'qualified' | 'bare' | 'reference';
}

/** Every identifier a harness defines and every place it is mentioned (`buildSymbolTable`). */
export interface SymbolTable {
  symbols: SymbolEntry[];
  mentions: Mention[];
}

/** A string of the harness where identifiers may be mentioned. */
export interface TextLocation {
  path: JsonPath;
  text: string;
  /** Handlebars templates: text inside `{{ }}` is code, not prose, and is skipped. */
  template?: boolean;
}

/**
 * Whether an identifier is distinctive enough to be recognised outside code spans: it holds `_`, `-`, `.`,
 * a digit, an inner capital (camelCase) or a space (a phrase). A plain word such as `baggage` is only a
 * mention when written as code, since the same word in prose means the ordinary thing, or, for a skill or a
 * tool, when the word of its kind follows it (`namedByKindWord`: "the docx skill").
 *
 * @example
 * isDistinctiveIdentifier('item_qa') // true
 * isDistinctiveIdentifier('baggage') // false
 */
export function isDistinctiveIdentifier(name: string): boolean {
  return /[_\-.\d\s]/u.test(name) || /\p{Ll}\p{Lu}/u.test(name);
}
/** Whether the character at `index` continues an identifier (letter, digit, `_`, `-`), ASCII decided fast. */
const continuesIdentifier = (text: string, index: number) => {
  if (index < 0 || index >= text.length) return false;
  const code = text.charCodeAt(index);
  if (code < 128)
    return (
      (code >= 48 && code <= 57) ||
      (code >= 65 && code <= 90) ||
      (code >= 97 && code <= 122) ||
      code === 95 ||
      code === 45
    );
  return identifierCharacter.test(text[index] as string);
};
const identifierCharacter = /[\p{L}\p{N}_-]/u;

/**
 * The word of a kind right after a bare name ("the docx skill", "the docx skill's", "the python tool",
 * "用 docx 技能", "调用 python 工具"): it says the plain word names the skill or the tool, not the ordinary
 * thing. Singular only ("writing skills" is prose), and never glued to more ("skill-based", "toolkit",
 * 工具箱).
 */
const kindWords: Partial<Record<SymbolKind, RegExp>> = {
  skill: /^[ \t]+(?:skill(?![\p{L}\p{N}_-])|技能(?!集|组))/u,
  tool: /^[ \t]+(?:tool(?![\p{L}\p{N}_-])|工具(?!集|箱|包|链))/u,
};

/**
 * Whether a plain-word skill or tool name at `[start, end)` is followed by the word of its kind, which makes
 * it a mention outside code too (see `isDistinctiveIdentifier`).
 *
 * @example
 * namedByKindWord('Convert it with the docx skill.', 20, 24, 'skill') // true
 * namedByKindWord('Export it as docx first.', 13, 17, 'skill') // false
 */
export function namedByKindWord(text: string, start: number, end: number, kind: SymbolKind): boolean {
  const word = kindWords[kind];
  return word !== undefined && start < end && word.test(text.slice(end, end + 16));
}

function collectParameters(
  schema: unknown,
  tool: string,
  base: JsonPath,
  prefix: string[],
  out: SymbolEntry[],
  texts: TextLocation[],
) {
  if (typeof schema !== 'object' || schema === null) return;
  const node = schema as Record<string, unknown>;
  if (typeof node.description === 'string' && prefix.length > 0)
    texts.push({ path: [...base, 'description'], text: node.description });
  const properties = node.properties;
  if (typeof properties === 'object' && properties !== null) {
    for (const name of Object.keys(properties)) {
      const path = [...prefix, name];
      out.push({
        kind: 'parameter',
        name,
        tool,
        parameterPath: path,
        definedAt: [...base, 'properties', name],
      });
      collectParameters(
        (properties as Record<string, unknown>)[name],
        tool,
        [...base, 'properties', name],
        path,
        out,
        texts,
      );
    }
  }
  if (typeof node.items === 'object' && node.items !== null && !Array.isArray(node.items)) {
    collectParameters(node.items, tool, [...base, 'items'], [...prefix, '[]'], out, texts);
  }
}

/**
 * Lists every string of a harness that may mention an identifier, in document order.
 *
 * @example
 * harnessTextLocations(harness).map((location) => location.path)
 */
export function harnessTextLocations(harness: Harness): TextLocation[] {
  return (['skills', 'hooks', 'prompt', 'tools'] as const).flatMap((part) =>
    partTextLocations(harness, part),
  );
}

/**
 * The strings of one part of a harness that may mention an identifier, in document order: they depend on
 * that part only (paths start with the part's name), so a part's texts can be scanned once per content.
 *
 * @example
 * partTextLocations(harness, 'tools').map((location) => location.path)
 */
export function partTextLocations(harness: Harness, part: HarnessPartName): TextLocation[] {
  const texts: TextLocation[] = [];
  if (part === 'skills') {
    texts.push({ path: ['skills', 'loader', 'description'], text: harness.skills.loader.description });
    harness.skills.items.forEach((skill, index) => {
      texts.push({ path: ['skills', 'items', index, 'description'], text: skill.description });
      texts.push({ path: ['skills', 'items', index, 'body'], text: skill.body });
    });
  } else if (part === 'hooks') {
    harness.hooks.items.forEach((hook, index) => {
      const at = ['hooks', 'items', index];
      if (hook.description !== undefined)
        texts.push({ path: [...at, 'description'], text: hook.description });
      const { onFail } = hook;
      if (onFail.action === 'retry') {
        texts.push({ path: [...at, 'onFail', 'feedback'], text: onFail.feedback, template: true });
        if (onFail.fallback !== undefined)
          texts.push({ path: [...at, 'onFail', 'fallback'], text: onFail.fallback });
      } else if (onFail.action === 'block' && onFail.message !== undefined) {
        texts.push({ path: [...at, 'onFail', 'message'], text: onFail.message });
      } else if (onFail.action === 'fallback') {
        texts.push({ path: [...at, 'onFail', 'reply'], text: onFail.reply });
      }
    });
  } else if (part === 'prompt') {
    harness.prompt.sections.forEach((section, index) => {
      texts.push({ path: ['prompt', 'sections', index, 'title'], text: section.title });
      texts.push({ path: ['prompt', 'sections', index, 'template'], text: section.template, template: true });
    });
  } else {
    harness.tools.items.forEach((tool, index) => {
      texts.push({ path: ['tools', 'items', index, 'description'], text: tool.description });
      const parameters: SymbolEntry[] = [];
      collectParameters(
        tool.parameters,
        tool.name,
        ['tools', 'items', index, 'parameters'],
        [],
        parameters,
        texts,
      );
    });
  }
  return texts;
}

/**
 * Lists every identifier a harness defines, in document order: skill loader, skills, tools with their
 * parameters, sections, hooks.
 *
 * @example
 * harnessSymbols(harness).filter((symbol) => symbol.kind === 'tool').map((symbol) => symbol.name)
 */
export function harnessSymbols(harness: Harness): SymbolEntry[] {
  // Harnesses are read as immutable: one list per harness object, so that the operators asking for it once
  // per skill pay one walk (and `nameTrie`, cached by list, one trie), not one per skill: with 4,000 skills,
  // the walks and the tries' keys were most of an augment run.
  const known = symbolsByHarness.get(harness);
  if (known) return known;
  const symbols = Object.freeze(symbolParts.flatMap((part) => partSymbols(harness, part))) as SymbolEntry[];
  symbolsByHarness.set(harness, symbols);
  return symbols;
}
// Pure function of content across runs: a harness object's symbols.
const symbolsByHarness = new WeakMap<Harness, SymbolEntry[]>();

/** The parts in the order `harnessSymbols` lists their identifiers. */
export const symbolParts: readonly HarnessPartName[] = ['skills', 'tools', 'prompt', 'hooks'];

/**
 * The identifiers one part of a harness defines, in document order (the skill loader is the skills
 * part's): they depend on that part only.
 *
 * @example
 * partSymbols(harness, 'hooks').map((symbol) => symbol.name)
 */
export function partSymbols(harness: Harness, part: HarnessPartName): SymbolEntry[] {
  const symbols: SymbolEntry[] = [];
  if (part === 'skills') {
    symbols.push({
      kind: 'tool',
      name: harness.skills.loader.tool,
      definedAt: ['skills', 'loader', 'tool'],
      loader: true,
    });
    harness.skills.items.forEach((skill, index) => {
      symbols.push({ kind: 'skill', name: skill.id, definedAt: ['skills', 'items', index, 'id'] });
    });
  } else if (part === 'tools') {
    harness.tools.items.forEach((tool, index) => {
      symbols.push({ kind: 'tool', name: tool.name, definedAt: ['tools', 'items', index, 'name'] });
      collectParameters(tool.parameters, tool.name, ['tools', 'items', index, 'parameters'], [], symbols, []);
    });
  } else if (part === 'prompt') {
    harness.prompt.sections.forEach((section, index) => {
      symbols.push({ kind: 'section', name: section.id, definedAt: ['prompt', 'sections', index, 'id'] });
    });
  } else {
    harness.hooks.items.forEach((hook, index) => {
      symbols.push({ kind: 'hook', name: hook.id, definedAt: ['hooks', 'items', index, 'id'] });
    });
  }
  return symbols;
}

/**
 * Finds the mentions of the given symbols in one string, as whole tokens (`mentionStandsAlone`: never
 * inside a path, a URL, a file name or a longer identifier). A parameter matches only in code
 * form (`` `link_id` ``) or qualified by its tool (`get_price.link_id`), since parameter names are often
 * ordinary words; other identifiers match bare too when they are distinctive (see `isDistinctiveIdentifier`).
 * One scan of the text serves all symbols (a trie of their names); where several names start at the same
 * position, only the longest that qualifies is reported.
 *
 * @example
 * findMentions({ path: ['x'], text: 'Call `get_price` first.' }, harnessSymbols(harness))
 * // [{ kind: 'tool', name: 'get_price', start: 6, end: 15, form: 'code', path: ['x'] }]
 */
export function findMentions(location: TextLocation, symbols: readonly SymbolEntry[]): Mention[] {
  const { text, path } = location;
  const skipped = location.template ? templatePlaceholderSpans(text) : [];
  const inCode = (start: number) => skipped.some(([from, to]) => start >= from && start < to);
  const trie = nameTrie(symbols);
  const mentions: Mention[] = [];
  let urls: Array<[number, number]> | undefined;
  // One pass over the text: at each position where a token may start (a name glued to a letter, digit, `_`
  // or `-` before it never stands alone; a qualified parameter follows a `.`), the trie lists every name
  // that begins there; the longest one that stands alone (`mentionStandsAlone`, and code or qualified form
  // where the kind asks for it) is reported, never a shorter name at the same position.
  for (let start = 0; start < text.length; start++) {
    if (continuesIdentifier(text, start - 1) || inCode(start)) continue;
    let node: NameNode | undefined = nextNode(trie, text[start] as string);
    if (!node) continue;
    const candidates: NameNode[] = [];
    for (let index = start + 1; node; index++) {
      if (node.symbols !== undefined && !continuesIdentifier(text, index)) candidates.push(node);
      if (index >= text.length) break;
      node = nextNode(node, text[index] as string);
    }
    for (let at = candidates.length - 1; at >= 0; at--) {
      urls ??= urlSpans(text);
      const symbolsHere = (candidates[at] as NameNode).symbols as SymbolEntry[];
      const found = mentionsAt(text, start, symbolsHere, path, trie.memberSuffixes, urls);
      if (found.length === 0) continue;
      mentions.push(...found);
      break;
    }
  }
  return mentions;
}

/**
 * The positions in `symbols` (ascending) of the symbols whose name occurs in `text` (as a substring):
 * `findMentions` of any string inside `text` gives the same mentions with these as with all of `symbols`,
 * since a name that does not occur is never reached by the scan (and a tool's `.parameter` suffix needs the
 * parameter's name there). Callers key what they derive from a text's mentions by these, not by every
 * identifier of the harness; positions, not symbol objects, which belong to one harness.
 *
 * @example
 * symbolPositionsIn('Call `get_price`.', harnessSymbols(harness)) // [3]: get_price's place in the list
 */
export function symbolPositionsIn(
  text: string,
  symbols: readonly SymbolEntry[],
  /** Whether each name occurs in `text`, as far as known: read and filled in (the caller keeps one per text). */
  known?: Map<string, boolean>,
): number[] {
  // A few names: ask the text for each. Many names (a harness with thousands of skills): one pass over the
  // text with a trie of the names, instead of a scan of the text per name (quadratic in the harness).
  if (symbols.length < occurrenceTrieFrom) {
    const positions: number[] = [];
    for (let position = 0; position < symbols.length; position++) {
      const name = (symbols[position] as SymbolEntry).name;
      if (name === '') continue;
      let occurs = known?.get(name);
      if (occurs === undefined) {
        occurs = text.includes(name);
        known?.set(name, occurs);
      }
      if (occurs) positions.push(position);
    }
    return positions;
  }
  const root = occurrenceTrie(symbols);
  const found = new Set<number>();
  for (let start = 0; start < text.length; start++) {
    let node = root.next.get(text[start] as string);
    for (let index = start + 1; node; index++) {
      for (const position of node.positions) found.add(position);
      if (index >= text.length) break;
      node = node.next.get(text[index] as string);
    }
  }
  return [...found].sort((a, b) => a - b);
}

/** From this many symbols on, `symbolPositionsIn` scans a text once with a trie of their names. */
const occurrenceTrieFrom = 64;

/** A trie of names, each node listing the positions (in the symbols array) of the names that end there. */
interface OccurrenceNode {
  next: Map<string, OccurrenceNode>;
  positions: number[];
}

// A pure function of the symbols array (each harness's symbols are one array): kept while the array lives.
// Pure function of content across runs: the occurrence trie of a symbols array.
const occurrenceTries = new WeakMap<readonly SymbolEntry[], OccurrenceNode>();

function occurrenceTrie(symbols: readonly SymbolEntry[]): OccurrenceNode {
  const cached = occurrenceTries.get(symbols);
  if (cached) return cached;
  const root: OccurrenceNode = { next: new Map(), positions: [] };
  symbols.forEach((symbol, position) => {
    if (symbol.name === '') return;
    let node = root;
    for (const character of symbol.name.split('')) {
      let child = node.next.get(character);
      if (!child) {
        child = { next: new Map(), positions: [] };
        node.next.set(character, child);
      }
      node = child;
    }
    node.positions.push(position);
  });
  occurrenceTries.set(symbols, root);
  return root;
}

/**
 * A trie node: the symbols whose name ends here, and the next characters. Most nodes lie on one name only:
 * their one next character is held in the node (`char`, `child`), and a map is made only where names branch.
 */
interface NameNode {
  symbols: SymbolEntry[] | undefined;
  char: string | undefined;
  child: NameNode | undefined;
  next: Map<string, NameNode> | undefined;
}

/** The root of a name trie, with the `.parameter` suffixes each tool's mention may carry. */
interface NameTrie extends NameNode {
  memberSuffixes: Map<string, string[]>;
}

const nameNode = (): NameNode => ({ symbols: undefined, char: undefined, child: undefined, next: undefined });

/** The node after `node` on `character`, or undefined. */
function nextNode(node: NameNode, character: string): NameNode | undefined {
  if (node.next) return node.next.get(character);
  return node.char === character ? node.child : undefined;
}

/** The node after `node` on `character`, made if there is none (counted in `made`, with any map it needed). */
function addNode(node: NameNode, character: string, made: { nodes: number; maps: number }): NameNode {
  const found = nextNode(node, character);
  if (found) return found;
  const child = nameNode();
  made.nodes++;
  if (!node.next && node.char === undefined) {
    node.char = character;
    node.child = child;
    return child;
  }
  if (!node.next) {
    node.next = new Map([[node.char as string, node.child as NameNode]]);
    node.char = undefined;
    node.child = undefined;
    made.maps++;
  }
  node.next.set(character, child);
  return child;
}

/**
 * What `findMentions` reads of a symbol list, as text: each symbol's kind, tool and name, in order. Its name
 * trie and a part's mentions are kept by it. Once per list object.
 */
function symbolListContent(symbols: readonly SymbolEntry[]): string {
  let content = listContents.get(symbols);
  if (content === undefined) {
    content = symbols.map(symbolContent).join('\u0001');
    listContents.set(symbols, content);
  }
  return content;
}
// Pure function of content across runs: a symbol list object's content as `findMentions` reads it.
const listContents = new WeakMap<readonly SymbolEntry[], string>();
const symbolContent = (symbol: SymbolEntry) => `${symbol.kind}\u0000${symbol.tool ?? ''}\u0000${symbol.name}`;

// Callers often build a fresh symbol list per text (the same names each time): tries are cached by list
// object, then by the list's content in a small bounded map.
// Pure function of content across runs: the name trie of a symbol list object.
const tries = new WeakMap<readonly SymbolEntry[], NameTrie>();
// Weighed by bytes: a node is a small object (~64 bytes), a branch's map ~200 more (a node that held a Map
// and an array for every character took ~300 bytes: docs/decisions/0006-caches-bounded-by-bytes.md), and
// variant harnesses bring their own lists.
// Pure function of content across runs: the name trie of a symbol list, by its names.
const triesByContent = new BoundedCache<string, { trie: NameTrie; bytes: number }>(
  8 << 20,
  (content, entry) => 2 * content.length + entry.bytes,
  'symbol-table.triesByContent',
);

/** The trie of the symbols' names, built once per symbol list; a (kind, tool, name) appears once. */
function nameTrie(symbols: readonly SymbolEntry[]): NameTrie {
  const cached = tries.get(symbols);
  if (cached) return cached;
  const content = symbolListContent(symbols);
  const known = triesByContent.get(content);
  if (known) {
    tries.set(symbols, known.trie);
    return known.trie;
  }
  // The root, and its map of suffixes.
  const made = { nodes: 1, maps: 1 };
  const root: NameTrie = { ...nameNode(), memberSuffixes: new Map() };
  // `tool.parameter` is one qualified token: the tool's mention may be followed by `.parameter`.
  for (const symbol of symbols) {
    if (symbol.kind !== 'parameter' || symbol.tool === undefined) continue;
    const list = root.memberSuffixes.get(symbol.tool) ?? [];
    list.push(`.${symbol.name}`);
    root.memberSuffixes.set(symbol.tool, list);
  }
  const seen = new Set<string>();
  for (const symbol of symbols) {
    // The same parameter name may belong to several tools; each occurrence is reported once per owner.
    const key = symbolContent(symbol);
    if (seen.has(key) || symbol.name === '') continue;
    seen.add(key);
    let node: NameNode = root;
    for (let at = 0; at < symbol.name.length; at++) node = addNode(node, symbol.name[at] as string, made);
    node.symbols ??= [];
    node.symbols.push(symbol);
  }
  tries.set(symbols, root);
  triesByContent.set(content, { trie: root, bytes: 64 * made.nodes + 200 * made.maps });
  return root;
}

/** The mentions of same-named symbols at `start`, those that stand alone in the form their kind accepts. */
function mentionsAt(
  text: string,
  start: number,
  symbols: readonly SymbolEntry[],
  path: JsonPath,
  memberSuffixes: ReadonlyMap<string, string[]>,
  urls: ReadonlyArray<readonly [number, number]>,
): Mention[] {
  const found: Mention[] = [];
  for (const symbol of symbols) {
    const end = start + symbol.name.length;
    const code = text[start - 1] === '`' && text[end] === '`';
    const qualifier =
      symbol.kind === 'parameter' && symbol.tool !== undefined ? `${symbol.tool}.` : undefined;
    const qualified =
      qualifier !== undefined &&
      start >= qualifier.length &&
      text.startsWith(qualifier, start - qualifier.length);
    const context = {
      code,
      urls,
      ...(qualified ? { prefixes: [qualifier as string] } : {}),
      ...(symbol.kind === 'tool' ? { suffixes: memberSuffixes.get(symbol.name) ?? [] } : {}),
    };
    if (!mentionStandsAlone(text, start, end, context)) continue;
    if (
      !code &&
      !qualified &&
      (symbol.kind === 'parameter' ||
        (!isDistinctiveIdentifier(symbol.name) && !namedByKindWord(text, start, end, symbol.kind)))
    )
      continue;
    found.push({
      kind: symbol.kind,
      name: symbol.name,
      ...(symbol.tool !== undefined ? { tool: symbol.tool } : {}),
      path,
      start,
      end,
      form: qualified ? 'qualified' : code ? 'code' : 'bare',
    });
  }
  return found;
}

/**
 * The fields of hooks whose whole value names a tool or a skill: `tools` entries of tool-scoped hooks,
 * `skill_loaded.skill`, and the names a custom check's params hold (as its registration declares).
 *
 * @example
 * hookReferences(harness).filter((mention) => mention.kind === 'tool')
 */
export function hookReferences(harness: Harness, hookChecks: HookCheckRegistry = noHookChecks): Mention[] {
  const references: Mention[] = [];
  const reference = (kind: 'tool' | 'skill', name: unknown, path: JsonPath) => {
    if (typeof name === 'string' && name !== '')
      references.push({ kind, name, path, start: 0, end: name.length, form: 'reference' });
  };
  harness.hooks.items.forEach((hook, index) => {
    const at = ['hooks', 'items', index];
    hook.tools?.forEach((name, position) => {
      reference('tool', name, [...at, 'tools', position]);
    });
    const { check } = hook;
    if (check.type === 'skill_loaded') reference('skill', check.skill, [...at, 'check', 'skill']);
    if (check.type === 'custom') {
      const registered = hookChecks.get(check.name);
      if (!registered?.mentions) return;
      let params: unknown;
      try {
        params = customParams(registered, check.params);
      } catch {
        return; // The harness check reports bad params.
      }
      for (const mention of registered.mentions(params)) {
        const name = mention.path.reduce<unknown>(
          (node, key) =>
            typeof node === 'object' && node !== null && Object.hasOwn(node, key)
              ? (node as Record<string | number, unknown>)[key]
              : undefined,
          check.params,
        );
        reference(mention.kind, name, [...at, 'check', 'params', ...mention.path]);
      }
    }
  });
  return references;
}

/**
 * Builds the symbol table of a harness: its identifiers, every mention of them in its strings, and the
 * hook fields that name a tool or skill outright (see `hookReferences`). Custom checks declare the names
 * their params hold; pass their registry so those follow renames too.
 *
 * @example
 * const table = buildSymbolTable(harness);
 * table.mentions.filter((mention) => mention.kind === 'tool' && mention.name === 'get_shipping_info');
 */
export function buildSymbolTable(
  harness: Harness,
  hookChecks: HookCheckRegistry = noHookChecks,
): SymbolTable {
  // Operators, relabels and certificates ask for the table of the same harness object many times; harnesses
  // are treated as immutable, so it is built once per object and registry (callers must not mutate the result).
  let byHarness = tables.get(hookChecks);
  if (!byHarness) {
    byHarness = new WeakMap();
    tables.set(hookChecks, byHarness);
  }
  const cached = byHarness.get(harness);
  if (cached) return cached;
  const symbols = harnessSymbols(harness);
  const mentions = [
    ...textParts.flatMap((part) => partMentions(harness, part, symbols)),
    ...hookReferences(harness, hookChecks),
  ];
  const table = { symbols, mentions };
  byHarness.set(harness, table);
  return table;
}

// Pure function of content across runs: the table of (registry object, harness object), both immutable.
const tables = new WeakMap<HookCheckRegistry, WeakMap<Harness, SymbolTable>>();

/** The parts in the order `harnessTextLocations` lists their texts. */
const textParts = ['skills', 'hooks', 'prompt', 'tools'] as const;

/**
 * The mentions in one part's texts, once per (part object, identifiers as `findMentions` reads them): a
 * part's mentions read only its own texts and the identifiers, so a harness a step made from another (its
 * skills reworded, a hook turned off) scans only the parts that step changed, while its identifiers stay.
 */
function partMentions(harness: Harness, part: HarnessPartName, symbols: readonly SymbolEntry[]): Mention[] {
  let byIdentifiers = mentionsByPart.get(harness[part]);
  if (!byIdentifiers) {
    byIdentifiers = new Map();
    mentionsByPart.set(harness[part], byIdentifiers);
  }
  const key = symbolListContent(symbols);
  let mentions = byIdentifiers.get(key);
  if (!mentions) {
    const locations = partTextLocations(harness, part);
    tableScans.texts += locations.length;
    mentions = locations.flatMap((location) => findMentions(location, symbols));
    // A few identifier lists a part: one that meets more starts over (a bound, not a rule).
    if (byIdentifiers.size >= 8) byIdentifiers.clear();
    byIdentifiers.set(key, mentions);
  }
  return mentions;
}
const tableScans = { texts: 0 };
/**
 * How many texts `buildSymbolTable` has scanned for mentions in this process (tests count the work of a
 * table with it).
 *
 * @example
 * const before = symbolTableScans(); buildSymbolTable(harness); symbolTableScans() - before
 */
export function symbolTableScans(): number {
  return tableScans.texts;
}
// Pure function of content across runs: a part object's mentions, by the identifiers looked for.
const mentionsByPart = new WeakMap<object, Map<string, Mention[]>>();

/**
 * The mentions of one identifier.
 *
 * @example
 * mentionsOf(table, 'skill', 'item_qa').length
 */
export function mentionsOf(table: SymbolTable, kind: SymbolKind, name: string, tool?: string): Mention[] {
  return table.mentions.filter(
    (mention) =>
      mention.kind === kind && mention.name === name && (tool === undefined || mention.tool === tool),
  );
}
