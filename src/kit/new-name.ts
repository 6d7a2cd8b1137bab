// New identifiers in a style (snake, camel, kebab, opaque, phrase) from an original name and its
// description, with synonyms for common identifier words; the caller's predicate says which are free.
import type { Random } from '../augment/random.js';
import { type CaseStyle, caseStyleOf, formatWords, identifierWords } from './identifier-words.js';

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
/**
 * The styles a new identifier can be drawn in.
 *
 * @example
 * const style = rng.pick(nameStyles); // 'snake' | 'camel' | 'kebab' | 'opaque' | 'phrase'
 */
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
