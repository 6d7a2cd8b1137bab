// The one rule for new identifiers: a new tool, skill or parameter name is either OPAQUE (a code
// such as `SK-07`, `tool_7f3a`) or FAITHFUL (it says what the old one said, nothing else). Every renaming
// operator draws its names through `nameJudge`, and the certificate checks a variant with `checkNewNames`,
// so the operators and the proof can never disagree on what a misleading name is.
//
// A faithful name is made of
//   - words of its own name (kept, re-cased or reordered), a namespace qualifier (a skill's `reply.` or one
//     word before the whole old name, `acme_get_price`), a number or a version (`v2`);
//   - content words of what its own description(s) say it IS (for a skill also its kind): the first clause,
//     up to a comma, a bracket, a dash or a clause of use or condition ("required when …", "only if …"), and
//     nothing of a clause that offers alternatives or names a value, or that a comma ends before alternatives
//     (`definingWords`: "Create a new or update an existing issue" gives no word, since `issue_write_create`
//     says one alternative only, nor does "E-mail address, employee id or username"); or a listed
//     synonym of a word of its name or of those words (`nameSynonyms`, `look_up` included), but of no verb
//     a particle follows in its name (`check_in`, a hotel's check-in date, is never `verify_in`) and of no
//     verb the name holds as a noun, after its first verb or in a parameter's name (`get_book` is never
//     `get_reserve`, BFCL's `show_type` never `display_type`: `verbsNotActing`);
//   - a noun of its kind (`kindNouns`: `guide` for a skill, `tool` for a tool, `value` for a parameter);
//   - for labels in another script, translations (name-lexicon.ts) of those words, and a label in another
//     script for a name written in Latin letters translates EVERY content word of that name (function words
//     and nouns of its kind aside): `cancel-pending-order` is never `取消订单`, "cancel order", which names
//     every cancellation, nor `outage-check` `確認`, "check" (a word the lexicon lacks leaves a code);
// and it holds
//   - no function word (`functionWords`: whether, too, take, the, of …) that its own name lacks;
//   - no word more often than its own name does (`gb_amount` → `gb-amount-amount`);
//   - no DISTINGUISHING word of another identifier: a word of another tool, skill or parameter name of the
//     harness that its own name lacks (`get_details_by_id` → `lookup-data-by-key` while `refuel_data` exists).
//     An operator reads the harness it renames; the certificate reads the variant's identifiers that came
//     from the base (those a step added, distractors and optional parameters, are not the harness's own).
//   - no synonym standing for a DOMAIN TERM its own name holds. A word is a domain term of a harness when the
//     harness's prose uses it at least twice: every text the symbol table reads (skill descriptions and bodies,
//     the loader's description, tool and parameter descriptions, prompt titles and templates, hook messages),
//     outside `{{ }}`, code spans and identifier-shaped tokens (holding `_`, `-`, a digit or an inner capital),
//     a plural counted as its singular (`details` in "order details", "the details of an order" →
//     `get_order_info` is refused).
// An opaque code's prefix is held to the last two points only. When in doubt, the word is kept.

import { BoundedCache } from '../harness/bounded-cache.js';
import type { Issue, JsonPath } from '../harness/issues.js';
import type { Harness } from '../harness/schema.js';
import { harnessTextLocations } from '../harness/symbol-table.js';
import { blankTemplatePlaceholders } from '../harness/template-placeholders.js';
import type { Relabel } from '../trajectory/relabel.js';
import { identifierWords } from './identifier-words.js';
import { scripts, skillWord, translateWord } from './name-lexicon.js';

/** The kinds of identifiers the rule judges. */
export type NamedKind = 'tool' | 'skill' | 'parameter';

/**
 * Words that carry no content of their own in an identifier: articles, prepositions, conjunctions, pronouns,
 * auxiliaries, quantifiers, degree adverbs and light verbs. A new name holds one only when its old name did.
 *
 * @example
 * functionWords.has('whether') // true
 */
export const functionWords: ReadonlySet<string> = new Set(
  [
    'a an the and or nor but of to for with without within on in at by from about into onto over under',
    'up down out off as per via than then that this these those there here which who whom whose what when',
    'where why how whether if unless while because so too very also just only even not no yes is are was',
    'were be been being am do does did done have has had having will would shall should can could may might',
    'must it its he she they them their his her our your you we me my us one each every all any some such',
    'both either neither other another more most less least much many few own same take takes taking took',
    'make makes made let lets go goes going put puts e g eg etc ie through across along around during',
    'until since against between among upon given',
  ]
    .join(' ')
    .split(' '),
);

/**
 * A table looked up by words of any text: without a prototype, so that `constructor` or `toString` finds
 * nothing rather than Object.prototype's members.
 */
function wordTable<T>(entries: Record<string, T>): Readonly<Record<string, T>> {
  return Object.freeze(Object.assign(Object.create(null) as Record<string, T>, entries));
}

/**
 * Listed synonyms of common identifier words (alternatives in snake case; `look_up` is one phrasal unit).
 * A synonym may stand for a word only when that word is not a domain term of the harness. A pair that names
 * another action or thing in a common domain is not listed: add/insert/create (`git_add` stages; GitHub's
 * `add_label` is not `create_label`), status/state, count/total (`max_count` is a number of commits, not a
 * sum), user/member, destination/arrival, max/most, hold/block, hold/reserve (a hold is provisional, a
 * reservation is made), send/post (to post money is to book it to a ledger), variant/version, name/full_name
 * (a GitHub repository's `full_name` is `owner/repo`), cancel/void (a travel booking is voided only within
 * its void window, without fees), cancel/revoke (access and tokens are revoked), message/note (a note
 * annotates a record; a message is sent), delete/remove (removing a sub-issue or a label detaches it,
 * deleting destroys it), compare/diff (a diff is a line-by-line comparison of texts), user/account (a user may
 * hold several accounts), order/purchase (a sell order, GitHub's sort `order`), stock/inventory/availability
 * (shares of a company), class/tier/category (a travel class, a Python class), fare/ticket (a price, not a
 * document), type/kind/category (Kubernetes' `kind` beside `type`, OAuth's `grant_type`, an aviation flight
 * category), issue/problem/concern (a GitHub issue), query/text/keywords/terms (a search syntax with
 * qualifiers, a SQL statement), name/label (a GitHub label, a volume label), message/text (a commit message; a
 * message holds text), date/day (a card's expiration date has no day), price/cost/pricing (a price per share
 * is no cost), id/key/ref (an API key, a git ref), count/number (an issue number), seat/place (a place is a
 * location), origin/source/departure (a departure is a time), limit/cap/maximum (a sell limit price is a
 * floor), quantity/amount (an amount is money), data/info/details (mobile data), payment/charge (a charge is a
 * fee), report/summary (to report abuse), summary/overview, document/file (a database's document),
 * account/profile (a trading account holds money), product/item/goods (an item is one variant of a product),
 * item/entry (a ledger entry), category/group/section (a user group), customer/client/buyer (OAuth's
 * `client_id`; a seller is a customer too), shipping/delivery/shipment (shipped is not delivered),
 * policy/rules/terms (an insurance policy), coupon/discount/voucher (a bond's coupon), variant/option (a
 * product's options make its variants), weight/mass (a font weight, model weights), fit/cut (to fit a model),
 * topic/subject/theme (a Kafka topic, a UI theme), email/mail (a mail address is postal), color/shade,
 * stops/connections/layovers (a direct flight may stop), flights/itineraries (an itinerary holds several
 * flights), province/region (Italy's regions hold provinces), aspects/dimensions (an image's dimensions),
 * filters/criteria/constraints (a mail filter holds criteria), sizes/sizing, catalog/listing (a listing is one
 * offer), promotion/deal (a sales deal), calculate/estimate (an estimate is approximate), explain/describe
 * (SQL's two commands), show/view (a SQL view), fetch/pull (git fetches without merging).
 *
 * @example
 * nameSynonyms.get // ['fetch', 'retrieve', 'lookup', 'read', 'look_up']
 */
export const nameSynonyms: Readonly<Record<string, readonly string[]>> = wordTable({
  get: ['fetch', 'retrieve', 'lookup', 'read', 'look_up'],
  fetch: ['get', 'retrieve', 'load', 'look_up'],
  retrieve: ['get', 'fetch'],
  find: ['search', 'locate', 'lookup', 'search_for', 'look_for'],
  search: ['find', 'query', 'lookup', 'search_through', 'look_through'],
  lookup: ['find', 'get'],
  load: ['get', 'fetch', 'read'],
  check: ['verify', 'inspect', 'query', 'check_on', 'look_at'],
  verify: ['check', 'validate'],
  list: ['enumerate', 'browse'],
  create: ['make', 'new', 'set_up', 'create_new'],
  update: ['modify', 'edit', 'change'],
  edit: ['update', 'modify'],
  delete: ['drop'],
  remove: ['drop'],
  send: ['dispatch', 'send_out'],
  hold: ['put_on_hold'],
  book: ['reserve'],
  reserve: ['book'],
  recommend: ['suggest', 'advise'],
  suggest: ['recommend', 'propose'],
  compare: ['contrast'],
  cancel: ['call_off'],
  calculate: ['compute'],
  compute: ['calculate'],
  show: ['display'],
  info: ['details'],
  information: ['details', 'info'],
  details: ['info'],
  catalog: ['catalogue'],
  promotion: ['promo'],
  baggage: ['luggage'],
  luggage: ['baggage'],
  passengers: ['travellers', 'travelers'],
  passenger: ['traveller', 'traveler'],
  destination: ['target'],
  max: ['maximum'],
  min: ['minimum'],
  quantity: ['count', 'qty'],
  id: ['identifier'],
  ids: ['identifiers'],
  color: ['colour'],
  invoice: ['bill'],
  document: ['doc'],
});

/**
 * Synonyms that name the skill loader's act (loading a skill's rules: using, activating, consulting it) and
 * hold for the loader tool only: a `load_data` tool is no `use_data` nor `activate_data`.
 *
 * @example
 * loaderSynonyms.load // ['use', 'get', 'fetch', 'open', 'read', 'activate', 'consult', 'lookup', 'loader']
 */
const loaderSynonyms: Readonly<Record<string, readonly string[]>> = wordTable({
  load: ['use', 'get', 'fetch', 'open', 'read', 'activate', 'consult', 'lookup', 'loader'],
});

/**
 * Spellings of one word (an abbreviation and its expansion, two spellings): never a replacement of a domain
 * term, since the term itself is still there (`customer_id` → `customer_identifier`).
 *
 * @example
 * sameWord('id', 'identifier') // true
 */
export function sameWord(a: string, b: string): boolean {
  const key = (word: string) => spellings[fold(word)] ?? fold(word);
  return key(a) === key(b);
}

const spellings: Readonly<Record<string, string>> = wordTable({
  identifier: 'id',
  information: 'info',
  quantity: 'qty',
  maximum: 'max',
  minimum: 'min',
  document: 'doc',
  colour: 'color',
  catalogue: 'catalog',
  loader: 'load',
  parameter: 'param',
  function: 'fn',
  func: 'fn',
});

/**
 * Nouns that name the kind of an identifier, which any new name of that kind may add (`refund_guide`).
 *
 * @example
 * kindNouns.skill.includes('playbook') // true
 */
export const kindNouns: Readonly<Record<NamedKind, readonly string[]>> = {
  skill: ['skill', 'rules', 'guide', 'playbook', 'notes', 'handbook'],
  tool: ['tool', 'fn', 'op'],
  parameter: ['value', 'field', 'input', 'param'],
};

/** An identifier as the harness defines it. */
export interface NamedIdentifier {
  kind: NamedKind;
  /** The identifier's current name in the harness. */
  name: string;
}

/** What the rule says of new names for one identifier of a harness. */
export interface NameJudge {
  /**
   * Why `candidate` would mislead as the identifier's new name (every reason, joined by `; `), or undefined
   * when it is opaque or faithful.
   */
  reason(candidate: string): string | undefined;
  /** Whether `candidate` is an opaque or faithful new name. */
  accepts(candidate: string): boolean;
  /**
   * The listed synonyms that may stand for a word of the old name: none that is a function word or a word of
   * another identifier, for a domain term only its other spellings (`id` → `identifier`), and none for a verb
   * a particle follows in the old name (`check` in `check_in`) nor for a verb the old name holds as a noun
   * (`book` in `get_book`, `list` in `get_user_list`, any verb of a parameter's name).
   */
  replacements(word: string): readonly string[];
  /**
   * Whether a description word may be added: no function word, and a word of its own name or one of what its
   * description says it is (`definingWords`) that no other name holds.
   */
  mayAdd(word: string): boolean;
}

/** A plural counts as its singular. */
const fold = (word: string) =>
  word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;

/** Letters of scripts written without spaces, whose words the splitter cannot separate. */
const unspaced = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
/** A word holding a letter of a script other than Latin (digits aside): a label in another script. */
const otherScript = /[^\p{Script=Latin}\p{N}]/u;

/** A code: a prefix, an optional separator, and hex digits holding at least one digit. */
const codePattern = /^(\p{L}{1,10})[-_]?([0-9A-Fa-f]{1,6})$/u;

/**
 * The prefixes of opaque codes: up to three letters (`SK`, `fn`, `api`), a kind noun (`tool`, `param`), `func`,
 * or the word for "skill" in a script of the lexicon (`技能`).
 */
const isCodePrefix = (prefix: string) =>
  /^[a-z]{1,3}$/.test(prefix) ||
  prefix === 'func' ||
  Object.values(kindNouns).some((nouns) => nouns.includes(prefix)) ||
  Object.values(skillWord).includes(prefix);

/** The words the harness's prose uses, counted (see the file comment). */
function proseCounts(harness: Harness): Map<string, number> {
  const counts = new Map<string, number>();
  for (const location of harnessTextLocations(harness))
    for (const [word, count] of textProseCounts(location.text, location.template === true))
      counts.set(word, (counts.get(word) ?? 0) + count);
  return counts;
}

/**
 * The prose words of one text, counted, in order of first occurrence: once per text content (every step
 * of a variant is a new harness whose texts are mostly its input's).
 */
function textProseCounts(raw: string, template: boolean): ReadonlyMap<string, number> {
  const cache = template ? templateProseCounts : plainProseCounts;
  const known = cache.get(raw);
  if (known) return known;
  const counts = new Map<string, number>();
  let text = raw.replace(/`[^`\n]*`/g, ' ');
  if (template) text = blankTemplatePlaceholders(text);
  for (const token of text.match(/[\p{L}\p{M}\p{N}_-]+/gu) ?? []) {
    if (/[_\-\p{N}]/u.test(token) || /\p{Ll}\p{Lu}/u.test(token)) continue;
    const word = fold(token.toLowerCase());
    counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  return cache.set(raw, counts);
}
const proseCountsBytes = (raw: string, counts: ReadonlyMap<string, number>) => {
  let size = raw.length + 64;
  for (const word of counts.keys()) size += 2 * word.length + 48;
  return size;
};
// Pure function of content across runs: a text's prose words, by the text (templates apart: their
// placeholders are blanked first).
const plainProseCounts = new BoundedCache<string, ReadonlyMap<string, number>>(
  4 << 20,
  proseCountsBytes,
  'name-meaning.plainProseCounts',
);
// Pure function of content across runs: a template text's prose words, by the text.
const templateProseCounts = new BoundedCache<string, ReadonlyMap<string, number>>(
  2 << 20,
  proseCountsBytes,
  'name-meaning.templateProseCounts',
);

/** The descriptions of every definition of a parameter name, by name. */
function parameterDescriptions(schema: unknown, out: Map<string, string[]>): void {
  if (typeof schema !== 'object' || schema === null) return;
  const node = schema as Record<string, unknown>;
  if (typeof node.properties === 'object' && node.properties !== null) {
    for (const [name, child] of Object.entries(node.properties as Record<string, unknown>)) {
      const description = (child as Record<string, unknown> | null)?.description;
      const list = out.get(name) ?? [];
      if (typeof description === 'string') list.push(description);
      out.set(name, list);
      parameterDescriptions(child, out);
    }
  }
  if (typeof node.items === 'object' && node.items !== null) parameterDescriptions(node.items, out);
}

/** What the rule reads of one harness, once per harness object (a pure function of its content). */
interface NameFacts {
  /** Words of each tool, skill and parameter name → the names holding it (folded words). */
  owners: Map<string, Set<string>>;
  /** `kind\0name` → its descriptions (and a skill's kind). */
  descriptions: Map<string, string[]>;
  /** The domain terms, read from the prose on first use (a variant's are never needed). */
  readonly terms: ReadonlySet<string>;
}

// Pure function of content across runs: a harness object's name facts.
const factsCache = new WeakMap<Harness, NameFacts>();

function nameFacts(harness: Harness): NameFacts {
  const known = factsCache.get(harness);
  if (known) return known;
  const owners = new Map<string, Set<string>>();
  const descriptions = new Map<string, string[]>();
  const own = (kind: NamedKind, name: string, texts: string[]) => {
    for (const word of identifierWords(name)) {
      const folded = fold(word);
      owners.set(folded, (owners.get(folded) ?? new Set()).add(name));
    }
    const key = `${kind}\u0000${name}`;
    descriptions.set(key, [...(descriptions.get(key) ?? []), ...texts]);
  };
  const loader = harness.skills.loader;
  own('tool', loader.tool, [loader.description]);
  own('parameter', loader.argument, [loader.description]);
  for (const skill of harness.skills.items) own('skill', skill.id, [skill.description, skill.kind]);
  const parameters = new Map<string, string[]>();
  for (const tool of harness.tools.items) {
    own('tool', tool.name, [tool.description]);
    parameterDescriptions(tool.parameters, parameters);
  }
  for (const [name, texts] of parameters) own('parameter', name, texts);
  let terms: Set<string> | undefined;
  const facts: NameFacts = {
    owners,
    descriptions,
    get terms() {
      terms ??= new Set(
        [...proseCounts(harness)]
          .filter(([word, count]) => count >= 2 && !functionWords.has(word))
          .map(([word]) => word),
      );
      return terms;
    },
  };
  factsCache.set(harness, facts);
  return facts;
}

/**
 * The domain terms of a harness: words its prose uses at least twice (see the file comment), singular.
 *
 * @example
 * domainTerms(telecomHarness).has('data') // true
 */
export function domainTerms(harness: Harness): ReadonlySet<string> {
  return nameFacts(harness).terms;
}

/**
 * The words of a description that say what the identifier is, lower case, without function words: its first
 * clause (up to a comma, a bracket, a dash or a clause of use or condition), and none when that clause offers
 * alternatives or names a value (`sev1 customer-facing outage, …` describes a value), or that a comma ends
 * before alternatives (the first item of "E-mail address, employee id or username"). A name
 * that takes a word from a condition (`duplicate_of_required`, from "Required when state_reason is
 * 'duplicate'") or from one side of an alternative (`issue_write_create`, from "Create a new or update an
 * existing issue") claims what the description does not.
 *
 * @example
 * definingWords(["Create a new or update an existing issue."]) // []
 * definingWords(["Issue number that this issue is a duplicate of. Required when …"]) // ['issue', 'number', 'issue', 'duplicate']
 */
export function definingWords(texts: readonly string[]): string[] {
  return texts.flatMap((text) => {
    const sentence = text.split(sentenceEnd)[0] ?? '';
    const end = sentence.search(clauseEnd);
    const part = end >= 0 ? sentence.slice(0, end) : sentence;
    if (alternatives.test(part) || namesAValue.test(part)) return [];
    // A clause a comma ends before alternatives ("E-mail address, employee id or username") is the first
    // of an enumeration, not what the identifier is.
    if (end >= 0 && listComma.test(sentence[end] as string) && alternatives.test(sentence.slice(end + 1)))
      return [];
    return (part.match(/[\p{L}\p{M}\p{N}]+/gu) ?? [])
      .map((word) => word.toLowerCase())
      .filter((word) => !functionWords.has(word));
  });
}
/** The end of a description's first sentence (a full stop before a space or the end, `;`, `:` or a line break). */
const sentenceEnd = /[.!?](?=\s|$)|[;:\n。！？；：]/u;
/**
 * Where the first clause ends: a comma, a bracket or a dash (a list or an aside follows), or a word that
 * begins a clause of use or condition ("required when", "only if", "used for", "e.g.").
 */
const clauseEnd =
  /[,(\u2013\u2014，（、]| - |(?<![\p{L}\p{N}_])(?:required|optional|only|if|when|whenever|unless|except|ignored|deprecated|must|should|used|use|e\.g|i\.e|default|defaults)(?![\p{L}\p{N}_])|如果|仅|必须|除非/iu;
/** The commas that end a first clause (of Latin, CJK and ideographic lists). */
const listComma = /[,，、]/u;
/** A clause that names a value (`sev1`, a quoted or code value) describes that value, not the identifier. */
const namesAValue = /\p{L}\p{N}|\p{N}\p{L}|["'`\u2018\u201c]/u;
/** Alternatives in a clause: "or", "either", "nor", "and/or", a slash between words. */
const alternatives = /(?<![\p{L}\p{N}_])(?:or|either|nor)(?![\p{L}\p{N}_])|[\p{L}\p{N}]\/[\p{L}\p{N}]|或/iu;

/** Whether `word` splits into labels from `labels` (longest first). */
function segments(word: string, labels: ReadonlySet<string>): boolean {
  if (word.length === 0) return true;
  for (let end = word.length; end > 0; end--)
    if (labels.has(word.slice(0, end)) && segments(word.slice(end), labels)) return true;
  return false;
}

/** The particles that make one unit with a verb before them in a name (`check_in`, `send_out`). */
const phrasalParticles: ReadonlySet<string> = new Set('in out up down off on over back away'.split(' '));

/**
 * The words of a name that a particle follows there (`check` in `check_in`, `find` in `find_out`): each heads
 * a phrasal verb, one unit with its particle, which a synonym of the verb alone does not keep (a hotel's
 * `check_in` date is no `verify_in`, `check_out` no `inspect_out`).
 */
const phrasalHeads = (words: readonly string[]) =>
  new Set(words.filter((_, index) => phrasalParticles.has(words[index + 1] ?? '')));

/**
 * The words of `nameSynonyms` that are verbs: a synonym of one names the same action only where the word is
 * the name's verb (`verbsNotActing`). A verb added to the table goes here too.
 */
const tableVerbs: ReadonlySet<string> = new Set(
  'get fetch retrieve find search lookup load check verify list create update edit delete remove send hold book reserve recommend suggest compare cancel calculate compute show'.split(
    ' ',
  ),
);

/**
 * Verbs a tool's or a skill's name may open with that `nameSynonyms` does not list: after one, the table's
 * verbs in the name are its objects (`deposit_check`, `buy_show_tickets`).
 */
const otherLeadingVerbs: ReadonlySet<string> = new Set(
  'add apply approve assign buy change close convert copy deposit download enable disable export generate import install invite mark move notify open order pay place post print publish purchase put register reject rename reply report request reset run save schedule sell set share sort start stop submit subscribe summarize sync track transfer translate unsubscribe upload validate withdraw write'.split(
    ' ',
  ),
);

/**
 * The verbs of `nameSynonyms` that a name does not hold as its verb. A tool's or a skill's name says its action
 * with its first verb, wherever it stands (`get_book`, `reminders_delete`, `Services_1_BookAppointment`);
 * a verb of the table after it is a noun (`get_user_list`, `get_server_load`, `deposit_check`); a name
 * with no verb takes its description's opening verb ("Check the stock status …" of `stock_status`); and a
 * parameter's name names a thing (BFCL's `show_type`, `show_date`, `book_id`), whose verb synonyms would name an
 * action (`display_type`, `reserve_id`).
 */
function verbsNotActing(
  kind: NamedKind,
  words: readonly string[],
  described: readonly string[],
): Set<string> {
  const isVerb = (word: string | undefined) =>
    word !== undefined && (tableVerbs.has(word) || otherLeadingVerbs.has(word));
  // A name without a verb (`stock_status`) takes its action from its description's opening verb ("Check …").
  const first =
    kind === 'parameter'
      ? undefined
      : (words.find(isVerb) ?? (isVerb(described[0]) ? described[0] : undefined));
  return new Set([...tableVerbs].filter((verb) => verb !== first));
}

/** A listed phrasal synonym (`look_up`) holds its particle as a part of one unit. */
const phrasalParticle = (synonym: string) => synonym.includes('_');

/** The separators that put a namespace before a skill id (`reply.item_qa`, `strategy/x`, `param::x`). */
const namespaceSeparator = /::|[./]/;

/**
 * The rule for new names of one identifier of a harness (see the file comment); cheap after the first call
 * per harness.
 *
 * @example
 * const judge = nameJudge(harness, { kind: 'tool', name: 'send_payment_request' });
 * judge.reason('dispatch_payment_request') // 'replaces the domain term "send" by "dispatch"'
 */
export function nameJudge(harness: Harness, identifier: NamedIdentifier): NameJudge {
  return judgeIn(harness, identifier, nameFacts(harness).owners, new Set());
}

/**
 * The rule with the other identifiers read from `owners` (the variant's, for the certificate), leaving out
 * the names in `skip` (new names of the same relabel, which an operator could not see).
 */
function judgeIn(
  harness: Harness,
  identifier: NamedIdentifier,
  owners: ReadonlyMap<string, ReadonlySet<string>>,
  skip: ReadonlySet<string>,
): NameJudge {
  const facts = nameFacts(harness);
  const ownWords = identifierWords(identifier.name);
  const own = new Set(ownWords.map(fold));
  const texts = facts.descriptions.get(`${identifier.kind}\u0000${identifier.name}`) ?? [];
  const described = definingWords(texts);
  const describedSet = new Set(described.map(fold));
  // A word that heads a phrasal verb of its name (`check_in`), or a verb of the table the name holds as
  // something else than its verb (`book` in `get_book`), takes no synonym, from the name or the description.
  const heads = phrasalHeads(ownWords);
  const nouns = verbsNotActing(identifier.kind, ownWords, described);
  // The loader's act has synonyms of its own (`use_skill`, `activate_skill`), which no other tool takes.
  const isLoader = identifier.kind === 'tool' && identifier.name === harness.skills.loader.tool;
  const synonymsOf = (word: string): readonly string[] =>
    (isLoader ? loaderSynonyms[word] : undefined) ?? nameSynonyms[word] ?? [];
  const sources = [...new Set([...ownWords, ...described])].filter(
    (word) => !heads.has(word) && !nouns.has(word),
  );
  const single = new Set<string>();
  const phrases: string[][] = [];
  for (const source of sources)
    for (const alternative of synonymsOf(source)) {
      const words = alternative.split('_');
      if (words.length === 1) single.add(words[0] as string);
      else phrases.push(words);
    }
  phrases.sort((a, b) => b.length - a.length);
  const labels = new Set(
    sources.flatMap((source) => scripts.flatMap((script) => translateWord(source, script) ?? [])),
  );
  const kindNoun = new Set(kindNouns[identifier.kind]);
  const otherOwner = (word: string) =>
    [...(owners.get(fold(word)) ?? [])].find((name) => name !== identifier.name && !skip.has(name));
  const distinguishing = (word: string) => {
    const other = otherOwner(word);
    return other === undefined || own.has(fold(word))
      ? undefined
      : `holds "${word}", a word of ${other} but not of its own name`;
  };
  const ownCount = (word: string) => ownWords.filter((existing) => existing === word).length;
  // What a label in another script must translate, when the name itself is written in Latin letters.
  const mustTranslate = ownWords.every((word) => !otherScript.test(word))
    ? ownWords.filter((word) => !functionWords.has(word) && !kindNoun.has(word) && !/^v?\p{N}+$/u.test(word))
    : [];

  /** Every way `candidate` misleads, in the order of the rule; empty when it is opaque or faithful. */
  const reasons = (candidate: string): string[] => {
    if (candidate === identifier.name) return [];
    const found: string[] = [];
    const code = codePattern.exec(candidate);
    const prefix = (code?.[1] ?? '').toLowerCase();
    if (code && /\d/.test(code[2] as string) && isCodePrefix(prefix)) {
      if (functionWords.has(prefix)) found.push(`opens with the function word "${prefix}"`);
      const taken = distinguishing(prefix);
      if (taken) found.push(taken);
      return found;
    }
    const words = identifierWords(candidate);
    if (words.length === 0) return ['holds no word'];
    const qualifiers = new Set<string>();
    const parts = candidate.split(namespaceSeparator);
    if (
      identifier.kind === 'skill' &&
      parts.length > 1 &&
      identifier.name.split(namespaceSeparator).length === 1
    )
      for (const word of identifierWords(parts.slice(0, -1).join(' '))) qualifiers.add(word);
    // One word before the whole old name is a namespace (`acme_get_price`, an MCP server's prefix): it says
    // where the identifier lives, not what it does. Function words and other identifiers' words still count.
    if (words.length === ownWords.length + 1 && ownWords.every((word, index) => words[index + 1] === word))
      qualifiers.add(words[0] as string);
    for (const word of new Set(words))
      if (
        !/^\p{N}+$/u.test(word) &&
        words.filter((other) => other === word).length > Math.max(1, ownCount(word))
      )
        found.push(`repeats the word "${word}"`);
    const present = new Set(words.map(fold));
    for (const word of ownWords) {
      if (!facts.terms.has(fold(word)) || present.has(fold(word))) continue;
      const alternative = synonymsOf(word).find((synonym) => {
        const parts = synonym.split('_');
        return (
          !sameWord(synonym, word) &&
          words.some((_, index) => parts.every((part, offset) => words[index + offset] === part))
        );
      });
      if (alternative !== undefined)
        found.push(`replaces the domain term "${word}" by "${alternative.replaceAll('_', ' ')}"`);
    }
    for (let index = 0; index < words.length; ) {
      const phrase = phrases.find((parts) => parts.every((part, offset) => words[index + offset] === part));
      if (phrase) {
        index += phrase.length;
        for (const part of phrase) {
          const taken = distinguishing(part);
          if (taken) found.push(taken);
        }
        continue;
      }
      const word = words[index] as string;
      index++;
      // A number or a version marker (`v2`) says nothing about the task.
      if (/^v?\p{N}+$/u.test(word) || own.has(fold(word))) continue;
      if (functionWords.has(word)) {
        found.push(`holds the function word "${word}"`);
        continue;
      }
      const taken = distinguishing(word);
      if (taken) {
        found.push(taken);
        continue;
      }
      if (describedSet.has(fold(word)) || single.has(word) || kindNoun.has(word) || qualifiers.has(word))
        continue;
      if (otherScript.test(word)) {
        if (segments(word, labels)) continue;
        if (unspaced.test(word) && texts.some((text) => text.includes(word))) continue;
      }
      found.push(
        `holds "${word}", neither a word of its name or of what its description says it is (its first clause, without conditions or alternatives) nor a listed synonym of one`,
      );
    }
    if (words.some((word) => otherScript.test(word))) {
      const untranslated = mustTranslate.filter(
        (word) =>
          !present.has(fold(word)) &&
          !scripts.some((script) => {
            const label = translateWord(word, script);
            return label !== undefined && candidate.includes(label);
          }),
      );
      if (untranslated.length > 0)
        found.push(
          `translates its name in part: ${untranslated.map((word) => `"${word}"`).join(', ')} ${untranslated.length === 1 ? 'is' : 'are'} not in it`,
        );
    }
    return found;
  };
  const reason = (candidate: string) => {
    const found = reasons(candidate);
    return found.length === 0 ? undefined : found.join('; ');
  };
  return {
    reason,
    accepts: (candidate) => reason(candidate) === undefined,
    replacements: (word) =>
      (heads.has(word) || nouns.has(word) ? [] : synonymsOf(word)).filter(
        (synonym) =>
          (!facts.terms.has(fold(word)) || sameWord(synonym, word)) &&
          synonym.split('_').every((part) => !functionWords.has(part) || phrasalParticle(synonym)) &&
          synonym.split('_').every((part) => own.has(fold(part)) || otherOwner(part) === undefined),
      ),
    mayAdd: (word) =>
      !functionWords.has(word) &&
      (own.has(fold(word)) || (describedSet.has(fold(word)) && otherOwner(word) === undefined)),
  };
}

/** Where an identifier's new name sits in the variant, and what it was. */
interface FinalRename {
  kind: NamedKind;
  from: string;
  to: string;
  path: JsonPath;
}

/** The final name of every tool, skill and parameter a relabel renames, followed through its steps. */
function finalRenames(base: Harness, variant: Harness, relabel: Relabel): FinalRename[] {
  const tools = new Map<string, string>(); // current → base name
  const skills = new Map<string, string>();
  const parameters = new Map<string, string>(); // base tool \0 current → base name
  const toolFinal = new Map<string, string>();
  const skillFinal = new Map<string, string>();
  const parameterFinal = new Map<string, { tool: string; path: string[]; to: string }>();
  for (const step of relabel.steps) {
    if (step.type === 'rename_tools' || step.type === 'rename_skills') {
      const current = step.type === 'rename_tools' ? tools : skills;
      const final = step.type === 'rename_tools' ? toolFinal : skillFinal;
      const renamed = Object.entries(step.map).map(([from, to]) => [current.get(from) ?? from, to] as const);
      for (const [from] of Object.entries(step.map)) current.delete(from);
      for (const [original, to] of renamed) {
        current.set(to, original);
        final.set(original, to);
      }
    } else if (step.type === 'rename_arguments') {
      const tool = tools.get(step.tool) ?? step.tool;
      for (const rename of step.renames) {
        const original = parameters.get(`${tool}\u0000${rename.from}`) ?? rename.from;
        parameters.set(`${tool}\u0000${rename.to}`, original);
        parameterFinal.set(`${tool}\u0000${original}`, { tool, path: rename.path, to: rename.to });
      }
    }
  }
  const loader = base.skills.loader;
  const toolIndex = (name: string) => variant.tools.items.findIndex((tool) => tool.name === name);
  const out: FinalRename[] = [];
  for (const [from, to] of toolFinal) {
    if (from === to) continue;
    const path =
      from === loader.tool ? ['skills', 'loader', 'tool'] : ['tools', 'items', toolIndex(to), 'name'];
    out.push({ kind: 'tool', from, to, path });
  }
  for (const [from, to] of skillFinal) {
    if (from === to) continue;
    const index = variant.skills.items.findIndex((skill) => skill.id === to);
    out.push({ kind: 'skill', from, to, path: ['skills', 'items', index, 'id'] });
  }
  for (const [key, { tool, path, to }] of parameterFinal) {
    const from = key.slice(key.indexOf('\u0000') + 1);
    if (from === to) continue;
    const toolName = toolFinal.get(tool) ?? tool;
    const where: JsonPath =
      tool === loader.tool
        ? ['skills', 'loader', 'argument']
        : [
            'tools',
            'items',
            toolIndex(toolName),
            'parameters',
            ...path.flatMap((key) => (key === '[]' ? ['items'] : ['properties', key])),
            'properties',
            to,
          ];
    out.push({ kind: 'parameter', from, to, path: where });
  }
  return out;
}

// Pure function of content across runs: the new-name verdict, by the base object, the variant's skills and
// tools objects (all the check reads of the variant) and the relabel's renames as text.
const checked = new WeakMap<Harness, WeakMap<object, WeakMap<object, Map<string, Issue[]>>>>();
// Pure function of content across runs: a relabel object's renames as text ('' when it renames nothing).
const renamesKeys = new WeakMap<Relabel, string>();
/**
 * What a relabel renames (its tool, skill and argument renames) as text, '' when it renames nothing: two
 * relabels with the same text give the same new names.
 *
 * @example
 * renamesKey(identityRelabel) // ''
 */
export function renamesKey(relabel: Relabel): string {
  let key = renamesKeys.get(relabel);
  if (key === undefined) {
    const renames = relabel.steps.filter(
      (step) =>
        step.type === 'rename_tools' || step.type === 'rename_skills' || step.type === 'rename_arguments',
    );
    key = renames.length > 0 ? JSON.stringify(renames) : '';
    renamesKeys.set(relabel, key);
  }
  return key;
}

/**
 * The certificate's check of new names: every tool, skill and parameter (the skill loader and its argument
 * included) that `relabel` renames from `base` into `variant` must get an opaque or faithful name under the
 * rule of this file; each that does not is a `misleading_name` issue at the new name. The verdict reads
 * only the variant's skills and tools and the relabel's renames, and is kept by those: a variant that took
 * per-example hook steps on top of a pool entry gets the entry's verdict without a second look.
 *
 * @example
 * checkNewNames(base, variant, relabel)
 * // [{ code: 'misleading_name', path: ['tools', 'items', 7, 'name'],
 * //    message: 'tool send_payment_request renamed dispatch_payment_request: replaces the domain term "send" by "dispatch"' }]
 */
export function checkNewNames(base: Harness, variant: Harness, relabel: Relabel): Issue[] {
  const key = renamesKey(relabel);
  // Nothing renamed, no new name to judge.
  if (key === '') return [];
  const bySkills = checked.get(base) ?? new WeakMap<object, WeakMap<object, Map<string, Issue[]>>>();
  checked.set(base, bySkills);
  const byTools = bySkills.get(variant.skills) ?? new WeakMap<object, Map<string, Issue[]>>();
  bySkills.set(variant.skills, byTools);
  const byRenames = byTools.get(variant.tools) ?? new Map<string, Issue[]>();
  byTools.set(variant.tools, byRenames);
  const known = byRenames.get(key);
  if (known) return known;
  const issues: Issue[] = [];
  const renames = finalRenames(base, variant, relabel);
  // Another identifier is one the variant holds (what the model reads) that came from the base, under its
  // name or renamed: identifiers a step of the chain added (a distractor tool, an optional parameter) are
  // the variant's own inventions, and a word they share says nothing of what the renamed one does.
  const skip = new Set(renames.map((rename) => rename.to));
  const fromBase = new Set([...nameFacts(base).owners.values()].flatMap((names) => [...names]));
  const owners = new Map<string, Set<string>>();
  for (const [word, names] of nameFacts(variant).owners) {
    const kept = [...names].filter((name) => fromBase.has(name) || skip.has(name));
    if (kept.length > 0) owners.set(word, new Set(kept));
  }
  for (const rename of renames) {
    // A name that is not the base's (a merged skill's joined id, a distractor) has no words or description
    // of the base to be faithful to: the operator that made it judged it, not this check.
    if (!fromBase.has(rename.from)) continue;
    const judge = judgeIn(base, { kind: rename.kind, name: rename.from }, owners, skip);
    const why = judge.reason(rename.to);
    if (why !== undefined)
      issues.push({
        code: 'misleading_name',
        path: rename.path,
        message: `${rename.kind} ${rename.from} renamed ${rename.to}: ${why}`,
      });
  }
  byRenames.set(key, issues);
  return issues;
}
