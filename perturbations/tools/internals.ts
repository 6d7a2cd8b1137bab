// Private machinery of the tools operators (not an operator): walking parameter schemas, reading what a
// trajectory calls and says, splitting and styling identifiers, and choosing names that collide with nothing.
import { certify } from '../../src/augment/certificate.js';
import type { Random } from '../../src/augment/random.js';
import type { HookCheckRegistry } from '../../src/harness/hook-checks.js';
import type { Harness } from '../../src/harness/schema.js';
import { buildSymbolTable, harnessSymbols, harnessTextLocations } from '../../src/harness/symbol-table.js';
import { membersAt, parseRawJson } from '../../src/trajectory/raw-json.js';
import { forwardTrajectory, type Relabel } from '../../src/trajectory/relabel.js';
import type { Trajectory } from '../../src/trajectory/schema.js';

export type SchemaNode = Record<string, unknown>;

/** Tool names and parameter keys this library may produce: OpenAI function-name characters. */
export const namePattern = /^[A-Za-z0-9_-]{1,64}$/;

export const isRecord = (value: unknown): value is SchemaNode =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * How many of `total` items an operator changes at a severity: none at 0, at least one above 0, all at 1.
 *
 * @example
 * affectedCount(0.5, 5) // 3
 */
export function affectedCount(severity: number, total: number): number {
  if (severity <= 0 || total <= 0) return 0;
  return Math.min(total, Math.max(1, Math.round(severity * total)));
}

/**
 * Visits every schema node of a tool's parameters that the symbol table knows (the root, `properties`
 * values, object-valued `items`), in document order, with its parameter path (`[]` = array items).
 *
 * @example
 * walkSchema(tool.parameters, (node, path) => console.log(path.join('.')));
 */
export function walkSchema(
  schema: unknown,
  visit: (node: SchemaNode, path: string[]) => void,
  path: string[] = [],
): void {
  if (!isRecord(schema)) return;
  visit(schema, path);
  if (isRecord(schema.properties)) {
    for (const [name, child] of Object.entries(schema.properties)) walkSchema(child, visit, [...path, name]);
  }
  if (isRecord(schema.items)) walkSchema(schema.items, visit, [...path, '[]']);
}

/** The JSON path of a parameter path's schema node below `parameters`. */
const schemaPathOf = (path: readonly string[]): string[] =>
  path.flatMap((segment) => (segment === '[]' ? ['items'] : ['properties', segment]));

/** The schema node at a parameter path, if any. */
export function nodeAt(schema: unknown, path: readonly string[]): SchemaNode | undefined {
  let node: unknown = schema;
  for (const key of schemaPathOf(path)) node = isRecord(node) ? node[key] : undefined;
  return isRecord(node) ? node : undefined;
}

/** Keywords whose meaning depends on property names, or that reach subschemas the symbol table does not see. */
const nameSensitiveKeywords = [
  'patternProperties',
  'propertyNames',
  'dependentRequired',
  'dependentSchemas',
  'dependencies',
  'unevaluatedProperties',
  '$ref',
  '$dynamicRef',
  '$recursiveRef',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
] as const;

/**
 * Whether renaming or moving the properties of this tool's schema keeps validation the same: no keyword
 * that names properties outside `properties`/`required`, no object-valued `enum`, `const` or `default`.
 */
export function hasPlainProperties(schema: unknown): boolean {
  let plain = true;
  walkSchema(schema, (node) => {
    if (nameSensitiveKeywords.some((keyword) => Object.hasOwn(node, keyword))) plain = false;
    const values = [
      ...(Array.isArray(node.enum) ? node.enum : []),
      ...(Object.hasOwn(node, 'const') ? [node.const] : []),
      ...(Object.hasOwn(node, 'default') ? [node.default] : []),
      ...(Array.isArray(node.examples) ? node.examples : []),
    ];
    if (values.some((value) => typeof value === 'object' && value !== null)) plain = false;
  });
  return plain;
}

/** One tool call of a trajectory. */
export interface CallFact {
  name: string;
  arguments: string;
}

/**
 * Every tool call of a trajectory, in order, rejected attempts included.
 *
 * @example
 * trajectoryCalls(trajectory).map((call) => call.name)
 */
export function trajectoryCalls(trajectory: Trajectory | undefined): CallFact[] {
  if (!trajectory) return [];
  return trajectory.messages.flatMap((message) =>
    message.role === 'assistant' && message.tool_calls
      ? message.tool_calls.map((call) => ({ name: call.function.name, arguments: call.function.arguments }))
      : [],
  );
}

/**
 * The free text of a trajectory that relabels rewrite: replies and tool results (hook turns excluded).
 *
 * @example
 * trajectoryFreeText(trajectory).join('\n')
 */
export function trajectoryFreeText(trajectory: Trajectory | undefined): string[] {
  if (!trajectory) return [];
  return trajectory.messages.flatMap((message) => {
    if (message.role === 'assistant' && message.content !== null && !message.hsa) return [message.content];
    if (message.role === 'tool' && !message.hsa) return [message.content];
    return [];
  });
}

/**
 * The keys that the arguments of a tool's calls hold at a parameter path (`[]` = array items).
 *
 * @example
 * argumentKeysAt(trajectory, 'find_flights', ['filters']) // Set { 'max_stops' }
 */
export function argumentKeysAt(
  trajectory: Trajectory | undefined,
  tool: string,
  path: readonly string[],
): Set<string> {
  const keys = new Set<string>();
  for (const call of trajectoryCalls(trajectory)) {
    if (call.name !== tool) continue;
    const root = parseRawJson(call.arguments);
    if (root) for (const member of membersAt(root, path)) keys.add(member.key);
  }
  return keys;
}

/** Every identifier a harness defines, of every kind, the skill loader and its argument included. */
export function takenNames(harness: Harness): Set<string> {
  const names = new Set(harnessSymbols(harness).map((symbol) => symbol.name));
  names.add(harness.skills.loader.argument);
  return names;
}

const wordCharacter = /[\p{L}\p{N}_]/u;

/**
 * Whether `word` occurs as a whole word in a text, with the word boundaries the symbol table uses.
 *
 * @example
 * occursAsWord('call get_price now', 'get_price') // true
 */
export function occursAsWord(text: string, word: string): boolean {
  let from = 0;
  for (;;) {
    const start = text.indexOf(word, from);
    if (start < 0) return false;
    from = start + 1;
    const before = text[start - 1] ?? '';
    const after = text[start + word.length] ?? '';
    if (!wordCharacter.test(before) && !wordCharacter.test(after)) return true;
  }
}

/**
 * A predicate saying whether a new identifier is free: not defined by the harness (in any letter case), not
 * written as a word in any of its strings, nor in the trajectory's text or arguments, and not handed out
 * before. A name it accepts is reserved: the next call with the same name says no.
 *
 * @example
 * const isFree = nameChecker(harness, trajectory); isFree('lookup_weather') // true
 */
export function nameChecker(harness: Harness, trajectory?: Trajectory): (name: string) => boolean {
  const taken = takenNames(harness);
  const texts = harnessTextLocations(harness).map((location) => location.text);
  if (trajectory) {
    for (const message of trajectory.messages) {
      if (message.content) texts.push(message.content);
      if (message.role === 'assistant')
        for (const call of message.tool_calls ?? []) texts.push(call.function.name, call.function.arguments);
    }
  }
  const given = new Set<string>();
  return (name: string) => {
    if (!namePattern.test(name) || taken.has(name) || given.has(name)) return false;
    const lower = name.toLowerCase();
    if ([...taken].some((existing) => existing.toLowerCase() === lower)) return false;
    if (texts.some((text) => occursAsWord(text, name))) return false;
    given.add(name);
    return true;
  };
}

/**
 * Parameter names written inside backticks somewhere in the harness (e.g. `` `body.height_cm` ``) where
 * the symbol table sees no mention: renaming such a parameter would leave that reference dangling.
 *
 * @example
 * unresolvedCodeNames(harness).has('height_cm') // true for the live-stream harness
 */
export function unresolvedCodeNames(harness: Harness, hookChecks?: HookCheckRegistry): Set<string> {
  const table = buildSymbolTable(harness, hookChecks);
  const recognised = new Set(
    table.mentions.map((mention) => `${JSON.stringify(mention.path)}\u0000${mention.start}`),
  );
  const parameterNames = [
    ...new Set(table.symbols.filter((symbol) => symbol.kind === 'parameter').map((symbol) => symbol.name)),
  ];
  const unresolved = new Set<string>();
  for (const location of harnessTextLocations(harness)) {
    const text = location.template
      ? location.text.replace(/\{\{[\s\S]*?\}\}\}?/g, (m) => ' '.repeat(m.length))
      : location.text;
    for (const span of text.matchAll(/`[^`\n]+`/g)) {
      const from = span.index;
      const to = from + span[0].length;
      for (const name of parameterNames) {
        let index = text.indexOf(name, from);
        while (index >= 0 && index + name.length <= to) {
          const before = text[index - 1] ?? '';
          const after = text[index + name.length] ?? '';
          const bounded = !wordCharacter.test(before) && !wordCharacter.test(after);
          if (bounded && !recognised.has(`${JSON.stringify(location.path)}\u0000${index}`))
            unresolved.add(name);
          index = text.indexOf(name, index + 1);
        }
      }
    }
  }
  return unresolved;
}

/**
 * Whether a relabelled trajectory still certifies under the variant (always true without a trajectory).
 * Operators whose relabel rewrites free text use it to drop a change that would flip a hook decision.
 *
 * @example
 * if (!certifies(harness, output, trajectory)) return { skip: 'the rename would change a hook decision' };
 */
export function certifies(
  base: Harness,
  output: { harness: Harness; relabel: Relabel },
  trajectory: Trajectory | undefined,
  hookChecks?: HookCheckRegistry,
): boolean {
  if (!trajectory) return true;
  const checks = hookChecks ? { hookChecks } : {};
  const rewritten = forwardTrajectory(trajectory, output.relabel, output.harness, checks).trajectory;
  const { relabel } = output;
  return certify({ base, variant: output.harness, original: trajectory, rewritten, relabel, ...checks })
    .certified;
}

// ── Identifier words and styles ─────────────────────────────────────────────────────────────────────────

/**
 * Splits an identifier into lower-case ASCII words (`getProductInfo`, `get-product_info` → get, product, info).
 *
 * @example
 * identifierWords('HTTPServerStatus') // ['http', 'server', 'status']
 */
export function identifierWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word.length > 0)
    .map((word) => word.toLowerCase());
}

export type CaseStyle = 'snake' | 'camel' | 'kebab';

/**
 * Joins words in a case style.
 *
 * @example
 * formatWords(['look', 'up', 'flights'], 'camel') // 'lookUpFlights'
 */
export function formatWords(words: readonly string[], style: CaseStyle): string {
  if (style === 'snake') return words.join('_');
  if (style === 'kebab') return words.join('-');
  return words
    .map((word, index) => (index === 0 ? word : `${word.slice(0, 1).toUpperCase()}${word.slice(1)}`))
    .join('');
}

/** The case style an identifier is written in. */
function caseStyleOf(name: string): CaseStyle {
  if (name.includes('-')) return 'kebab';
  if (!name.includes('_') && /[a-z][A-Z]/.test(name)) return 'camel';
  return 'snake';
}

/** Equivalent words for identifier parts; verbs and nouns common to tool and parameter names. */
const wordSynonyms: Record<string, readonly string[]> = {
  get: ['fetch', 'retrieve', 'lookup', 'read'],
  fetch: ['get', 'retrieve', 'load'],
  retrieve: ['get', 'fetch'],
  find: ['search', 'locate', 'lookup'],
  search: ['find', 'query', 'lookup'],
  lookup: ['find', 'get'],
  check: ['verify', 'inspect', 'query'],
  verify: ['check', 'validate'],
  list: ['enumerate', 'browse'],
  create: ['make', 'add', 'new'],
  add: ['create', 'insert'],
  update: ['modify', 'edit', 'change'],
  edit: ['update', 'modify'],
  delete: ['remove', 'drop'],
  remove: ['delete', 'drop'],
  send: ['dispatch', 'post'],
  hold: ['reserve', 'block'],
  book: ['reserve'],
  reserve: ['book', 'hold'],
  recommend: ['suggest', 'advise'],
  suggest: ['recommend', 'propose'],
  compare: ['contrast', 'diff'],
  cancel: ['revoke', 'void'],
  calculate: ['compute', 'estimate'],
  compute: ['calculate'],
  explain: ['describe'],
  show: ['display', 'view'],
  info: ['details', 'data'],
  information: ['details', 'info'],
  details: ['info', 'data'],
  data: ['info', 'details'],
  product: ['item', 'goods'],
  products: ['items', 'goods'],
  item: ['product', 'entry'],
  items: ['products', 'entries'],
  policy: ['rules', 'terms'],
  rules: ['policy', 'terms'],
  price: ['cost', 'pricing'],
  prices: ['costs', 'pricing'],
  order: ['purchase'],
  orders: ['purchases'],
  user: ['account', 'member'],
  customer: ['client', 'buyer'],
  shipping: ['delivery', 'shipment'],
  delivery: ['shipping'],
  stock: ['inventory', 'availability'],
  inventory: ['stock'],
  sizes: ['sizing'],
  catalog: ['catalogue', 'listing'],
  promotion: ['promo', 'deal'],
  coupons: ['vouchers', 'discounts'],
  coupon: ['voucher', 'discount'],
  state: ['status'],
  status: ['state'],
  baggage: ['luggage'],
  luggage: ['baggage'],
  flights: ['itineraries'],
  seat: ['place'],
  passengers: ['travellers', 'travelers'],
  passenger: ['traveller', 'traveler'],
  fare: ['ticket'],
  class: ['tier', 'category'],
  category: ['group', 'section'],
  origin: ['source', 'departure'],
  destination: ['target', 'arrival'],
  date: ['day'],
  query: ['keywords', 'terms', 'text'],
  limit: ['cap', 'maximum'],
  max: ['maximum', 'most'],
  min: ['minimum', 'least'],
  quantity: ['count', 'qty', 'amount'],
  count: ['number', 'total'],
  id: ['identifier', 'ref', 'key'],
  ids: ['identifiers', 'refs', 'keys'],
  link: ['listing', 'slot'],
  topic: ['subject', 'theme'],
  include: ['fields', 'sections'],
  aspects: ['criteria', 'dimensions'],
  issue: ['problem', 'concern'],
  type: ['kind', 'category'],
  province: ['region', 'state'],
  filters: ['criteria', 'constraints'],
  stops: ['connections', 'layovers'],
  cabin: ['seat_class'],
  color: ['colour', 'shade'],
  weight: ['mass'],
  height: ['stature'],
  fit: ['cut'],
  name: ['full_name', 'label'],
  body: ['measurements', 'figure'],
  variant: ['option', 'version'],
  message: ['text', 'note'],
  email: ['mail'],
  account: ['profile'],
  profile: ['account'],
  payment: ['charge'],
  invoice: ['bill'],
  document: ['doc', 'file'],
  file: ['document'],
  report: ['summary'],
  summary: ['overview'],
  room: ['channel', 'session'],
  live: ['current'],
  after: ['post'],
  sales: ['purchase'],
};

/** Longer verb phrases for descriptive ("phrase") names. */
const verbPhrases: Record<string, readonly string[]> = {
  get: ['look_up', 'fetch_the', 'retrieve_the'],
  fetch: ['look_up', 'pull_up'],
  find: ['search_for', 'look_for'],
  search: ['search_through', 'look_through'],
  check: ['check_on', 'look_at'],
  list: ['list_all', 'show_all'],
  create: ['create_new', 'set_up'],
  update: ['make_changes_to'],
  delete: ['get_rid_of'],
  send: ['send_out'],
  hold: ['put_on_hold'],
  recommend: ['work_out', 'suggest_a'],
  compare: ['compare_side_by_side'],
  cancel: ['call_off'],
};

const stopWords = new Set(
  'a an and are as at be by can e.g for from given has have how if in into is it its of on one or the this that to up use used when which with within without you your what who whose per each all any there their they them then than also only not no'.split(
    ' ',
  ),
);

/** Content words of a description, in order, lower-case ASCII, stop words left out. */
function descriptionWords(description: string | undefined): string[] {
  if (!description) return [];
  const words = (description.match(/[A-Za-z]+/g) ?? [])
    .map((word) => word.toLowerCase())
    .filter((word) => word.length >= 3 && !stopWords.has(word));
  return [...new Set(words)];
}

/**
 * The first words of a description's first clause, as a phrase: "Number of pieces the user wants" gives
 * number, of, pieces (stop words kept inside, dropped at the edges).
 */
function leadingPhrase(description: string | undefined): string[] {
  const clause = (description ?? '').split(/[.,;:()\u2014\u2013]| - /)[0] ?? '';
  const words = (clause.match(/[A-Za-z]+/g) ?? [])
    .map((word) => word.toLowerCase())
    .filter((word) => word.length > 1);
  while (words.length > 0 && stopWords.has(words[0] as string)) words.shift();
  const kept = words.slice(0, 4);
  while (kept.length > 0 && stopWords.has(kept.at(-1) as string)) kept.pop();
  return kept;
}

/** Each word may be replaced by a synonym (with probability `p`); `force` makes at least one change. */
function swapWords(words: readonly string[], rng: Random, p: number, force: boolean): string[] {
  const swappable = words
    .map((word, index) => (wordSynonyms[word] ? index : -1))
    .filter((index) => index >= 0);
  const chosen = new Set(swappable.filter(() => rng.chance(p)));
  if (force && chosen.size === 0 && swappable.length > 0) chosen.add(rng.pick(swappable));
  return words.flatMap((word, index) =>
    chosen.has(index) ? rng.pick(wordSynonyms[word] as readonly string[]).split('_') : [word],
  );
}

export type NameStyle = CaseStyle | 'opaque' | 'phrase';
export const nameStyles = ['snake', 'camel', 'kebab', 'opaque', 'phrase'] as const;

/** A masked name (Hammer-style function masking): `tool_7f3a`, `fn_12`, `f_a91c02`. */
function opaqueName(prefixes: readonly string[], rng: Random): string {
  const prefix = rng.pick(prefixes);
  return rng.chance(0.5)
    ? `${prefix}_${rng.int(0, 0xffff).toString(16).padStart(4, '0')}`
    : `${prefix}_${rng.int(1, 99)}`;
}

/** Keeps at most 64 characters by dropping trailing words. */
function withinLength(words: string[], style: CaseStyle): string {
  const kept = [...words];
  while (kept.length > 1 && formatWords(kept, style).length > 64) kept.pop();
  return formatWords(kept, style).slice(0, 64);
}

export interface NameRequest {
  /** The identifier being renamed. */
  original: string;
  /** Its description, for phrase names. */
  description?: string;
  style: NameStyle;
  /** Prefixes of opaque names (`tool`, `fn` for tools; `arg`, `p` for parameters). */
  opaquePrefixes: readonly string[];
  /** Words appended when a name needs one more word to be new or distinctive. */
  suffixes: readonly string[];
  /** Verb phrases make sense for tools, not for parameters. */
  verbs: boolean;
  /**
   * Require a distinctive name (one holding `_`, `-`, a digit or a hump): tool names must be, so that the
   * symbol table finds their bare mentions; parameter mentions are code or qualified only.
   */
  distinctive: boolean;
}

/** One candidate name in a style; may equal the original or be taken. */
function candidateName(request: NameRequest, rng: Random, attempt: number): string {
  const words = identifierWords(request.original);
  switch (request.style) {
    case 'opaque':
      return opaqueName(request.opaquePrefixes, rng);
    case 'phrase': {
      const described = request.verbs ? [] : leadingPhrase(request.description);
      if (described.length >= 2) {
        const built = attempt > 0 ? swapWords(described, rng, 0.5, true) : described;
        return withinLength(attempt > 2 ? [...built, rng.pick(request.suffixes)] : built, 'snake');
      }
      const first = words[0] ?? '';
      const phrase = request.verbs && verbPhrases[first] ? rng.pick(verbPhrases[first]).split('_') : [];
      const rest = swapWords(phrase.length > 0 ? words.slice(1) : words, rng, 0.5, false);
      const built = [...phrase, ...rest];
      const related = (a: string, b: string) => a.startsWith(b) || b.startsWith(a);
      const extra = descriptionWords(request.description).filter(
        (word) => ![...words, ...built].some((existing) => related(existing, word)),
      );
      const wanted = Math.max(3, Math.min(5, built.length));
      for (const word of extra) {
        if (built.length >= wanted) break;
        built.push(word);
      }
      if (attempt > 1) built.push(rng.pick(request.suffixes));
      return withinLength(built, 'snake');
    }
    default: {
      const style = request.style;
      const sameStyle = caseStyleOf(request.original) === style || words.length < 2;
      let swapped = swapWords(words, rng, 0.5, sameStyle || attempt > 0);
      // Tool names need two words to be distinctive; a parameter may stay one word unless it is unchanged.
      const short = request.distinctive ? swapped.length < 2 : swapped.join('_') === words.join('_');
      if (short) swapped = [...swapped, ...descriptionWords(request.description).slice(0, 1)];
      const still = request.distinctive ? swapped.length < 2 : swapped.join('_') === words.join('_');
      if (still || attempt > 2) swapped.push(rng.pick(request.suffixes));
      return withinLength(swapped, style);
    }
  }
}

/**
 * Generates a new identifier for `original` in a style that the predicate accepts (falling back to an
 * opaque name), always different from the original and distinctive (it holds `_`, `-`, a digit or a hump).
 *
 * @example
 * newName({ original: 'get_shipping_info', style: 'phrase', opaquePrefixes: ['tool'], verbs: true }, rng, isFree)
 * // 'look_up_shipping_details'
 */
export function newName(request: NameRequest, rng: Random, isFree: (name: string) => boolean): string {
  const distinctive = (name: string) =>
    !request.distinctive || /[_\-\d]/.test(name) || /[a-z][A-Z]/.test(name);
  for (let attempt = 0; attempt < 8; attempt++) {
    const name = candidateName(request, rng.fork(attempt), attempt);
    if (name !== request.original && distinctive(name) && isFree(name)) return name;
  }
  for (let attempt = 0; ; attempt++) {
    const name = opaqueName(request.opaquePrefixes, rng.fork(`opaque-${attempt}`));
    if (name !== request.original && isFree(name)) return name;
  }
}
