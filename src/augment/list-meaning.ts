// The meaning rule for Markdown lists, shared by the operators that move or restyle rules and by the
// certificate that checks them. Items of a list are independent only when that is shown: an item that leans
// on the item before it (it opens by referring back, or the item before ends on a conjunction or a comma)
// stays right after it, a list that enumerates alternatives or conditions keeps every item in place, and a
// list that shows the shape of an output (a template) keeps its lines as written.
// When the rule cannot tell, it links: a link only keeps text where it was.

import { listKeepsOrder, templateLeadIn, withoutClosingDecoration } from './ordered-lists.js';

export { templateLeadIn, withoutClosingDecoration };

/** A list as its operators and the certificate read it: its items' text, its marker kind, its lead-in. */
export interface ListShape {
  /** Whether the items are numbered (`1.`, `2)`). */
  numbered: boolean;
  /** The last non-blank line before the list ('' when none). */
  introduction: string;
  /** Each item's text on one line (first line and continuation lines joined by spaces). */
  items: readonly string[];
  /** The harness's tool names: bullet items that name tools in turn are steps (`listKeepsOrder`). */
  toolNames?: ReadonlySet<string>;
  /** The lead-in of the template of an output the list stands in (`templateLeadIn`), if any. */
  template?: string | undefined;
}

/** What a list means beyond its items' words: which items lean on the one before, and what kind of list it is. */
export interface ListMeaning {
  /** `links[i]`: why item `i + 1` must stay right after item `i`, or undefined when nothing shows it must. */
  links: ReadonlyArray<string | undefined>;
  /** Why the list is an enumeration of alternatives or conditions (every item keeps its place), if it is. */
  enumeration: string | undefined;
  /** Whether the list is a procedure: its order is part of what it says (`listKeepsOrder`). */
  procedure: boolean;
  /**
   * Why the list is part of a template of an output (every line keeps its place and its marker), if it is:
   * the lead-in that names the format, structure or example it stands in, or items that are each a
   * quotation of what to say.
   */
  template: string | undefined;
}

/** Emphasis, quotes and brackets an item may open with before its first word. */
const openingDecoration = /^[\s*_~`"'“‘「(（[]+/u;
/** Words an item opens with when it refers back to the item before it. */
const referringBack = new RegExp(
  [
    String.raw`^(?:if|when|where|unless|once|after|until)\s+(?:so|not|yes|no|it|they|this|that|these|those|he|she|none|both|either|neither|confirmed|approved|successful|unsuccessful|done|needed|required|available|unavailable|applicable|present|absent|missing|possible|enabled|disabled)\b`,
    String.raw`^(?:if|when|once)\s+(?:the\s+)?(?:user|customer|client|caller|buyer|they|he|she)\s+(?:agrees|agreed|confirms|confirmed|accepts|accepted|declines|declined|refuses|refused|says\s+(?:yes|no)|does(?:n't|\s+not)?|did(?:n't|\s+not)?|has(?:n't|\s+not)?|provides|provided|approves|approved)\b`,
    String.raw`^(?:otherwise|else|then|also|additionally|furthermore|moreover|similarly|likewise|however|but|and|or|nor|instead|alternatively|afterwards|thereafter|meanwhile|hence|thus|therefore|accordingly|consequently|next)\b`,
    String.raw`^(?:in\s+(?:that|this|either|which|such|both|each|any|the\s+latter|the\s+former)\s+(?:case|cases|event|situation)|in\s+addition|as\s+well|only\s+(?:after|then|once|when\s+(?:that|this|it))|after\s+(?:that|this|which|doing\s+so|confirmation)|if\s+(?:this|that|it)\s+(?:fails|succeeds|works|is|does|returns)|for\s+(?:that|this|these|those|it|them)|with\s+(?:that|this|it|them)|the\s+(?:same|latter|former|above|previous|result|answer|outcome))\b`,
    String.raw`^(?:this|that|these|those|it|they|them|such|same|its|their)\b`,
    // An example, a warning or a note on the rule before it ("Example: Use =B5*(1+$B$6)", "**Warning**: If
    // opened with data_only=True …", "Note: fonts should be installed"), or what is left once the items
    // before it are named ("the rest of the skill", "everything else").
    String.raw`^(?:e\.g\.|i\.e\.|for\s+(?:example|instance)|such\s+as)(?=[\s,:：]|$)`,
    String.raw`^(?:examples?|warning|caution|note|nb|important|tip|hint|exception)(?:[*_]{1,2})?\s*[:：]`,
    String.raw`^(?:the\s+(?:rest|remainder|remaining)|everything\s+else|anything\s+else|all\s+(?:the\s+)?others?|any\s+others?|(?:and\s+)?so\s+on)\b`,
    '^(?:例如|比如|譬如|注意|注|警告|提示|其余|其他的?都)',
    // A reason with no subject of its own: what "Helps clients understand the output" helps with is the rule
    // before it.
    String.raw`^(?:helps|ensures|allows|makes|prevents|keeps|lets|gives|avoids|reduces|improves|enables|saves|means|guarantees|protects|stops)\s`,
    '^(?:否则|不然|若否|若不|如果不|如不|若是|如是|如果是|那么|然后|此时|这时|这种情况下|在这种情况下|同时|另外|此外|之后|随后|接着|确认后|完成后|其中|它|他们|这些|那些|该)',
    '^(?:如果|若|如|当|一旦)(?:他们|她们|它们|他|她|它|其|是|否|不|需要|可以|成功|失败|确认|同意|接受|拒绝|用户(?:同意|确认|接受|拒绝))',
  ].join('|'),
  'iu',
);
/**
 * An item that opens with a verb whose object is missing, right before "to", "into" or "towards" ("Reframe to
 * verifiable facts", after "Never confirm a superlative"): what it acts on is in the item before it. Verbs
 * that take "to" without an object ("Reply to", "Try to", "Remember to") aside.
 */
const objectlessVerb =
  /^(?!(?:reply|respond|talk|speak|listen|go|come|get|escalate|switch|transfer|proceed|return|turn|move|fall|default|wait|refer|stick|adhere|belong|need|try|remember|have|want|be|are|is|used|able|continue|begin|start|refuse|decline|agree|prefer|plan|aim|hesitate|forget|learn|choose|expect|hope|wish|seem|tend|make|ensure|sure|how|what|where|who|due|up|next|close|prior|according|thanks|add|welcome|subject|similar|equal|limited|applies|apply)\b)\p{L}{2,}\s+(?:to|into|towards?)\b/iu;
/** A reference to an earlier rule anywhere in the item. */
const referenceToEarlier =
  /\b(?:the\s+above|as\s+above|above\s+(?:step|rule|check|condition)s?|(?:the\s+)?previous\s+(?:step|rule|check|item|point|condition|answer|one)|(?:that|this)\s+step|(?:that|those)\s+(?:skill|tool|file|folder|command|document|plan|branch|option|value|output|result|section|list|message|check|rule|change|commit|test|one)s?|the\s+step\s+before|as\s+before|as\s+(?:described|stated|noted)\s+(?:above|before))\b|上述|上一步|前一步|以上/iu;
/** "these" or "those" before a word: a pointer to things named earlier. */
const pointingBack = /\b(?:these|those)\s+\p{L}{3,}/iu;
/** A plural personal pronoun: what it stands for is named before it. */
const pluralPronoun = /\b(?:they|them|their|theirs|themselves)\b/iu;
/**
 * "it" as the object of "how to …" ("How to run it", "where to put it"): the thing was named before. A bare
 * "it" elsewhere is often the reply or the task itself ("Keep it short", "Make it clear"), so it does not
 * count.
 */
const itAsObject = /^(?:how|when|where|why|whether)\s+to\s+\p{L}+\s+(?:it|its|itself)\b/iu;
/** Words that name nothing a pronoun could stand for: question words, "to", auxiliaries, "make sure". */
const namingNothing = new Set(
  "how when where why whether what which to and or also then always never not no do does don't doesn't please make sure ensure can could should must may might will would you we just only still again".split(
    ' ',
  ),
);

/**
 * The opening of an item up to a pronoun that stands for something named outside the item: a plural
 * personal pronoun (they, them, their) before which the item names at most one thing (its verb) — "How to
 * run them locally" after "Tests to write, where they live", "Ask them first" — or "it" after "how to …"
 * ("How to run it"). An item that names its own antecedent first ("Tests to write, where they live") does
 * not refer back, nor does a bare "it" ("Keep it short": often the reply itself).
 *
 * @example
 * pronounReferringBack('How to run them locally and in CI.') // 'How to run them'
 * pronounReferringBack('Tests to write, where they live.') // undefined
 */
export function pronounReferringBack(item: string): string | undefined {
  const text = item.replace(openingDecoration, '');
  const it = itAsObject.exec(text);
  if (it) return it[0];
  const pronoun = pluralPronoun.exec(text);
  if (!pronoun) return undefined;
  const opening = text.slice(0, pronoun.index).match(/[\p{L}\p{N}]+(?:['’]\p{L}+)?/gu) ?? [];
  const named = opening.filter((word) => !namingNothing.has(word.toLowerCase().replace('’', "'")));
  return named.length <= 1 ? text.slice(0, pronoun.index + pronoun[0].length) : undefined;
}

/** What an item may end on when the next item completes it: a conjunction, a comma, a semicolon, a colon. */
const continuingEnd =
  /(?:\b(?:or|and|nor|but|either|then|plus|as\s+well\s+as|followed\s+by)|[,;:，；：、]|或|或者|和|及|以及|并且|且)$/iu;
/** A conjunction at the end of an item: the list is an enumeration. */
const conjunctionEnd = /(?:\b(?:or|and|nor)|或|或者|和|及|以及|并且|且)$/iu;
/** A lead-in that introduces alternatives or conditions ("… because:", "if any of:", "one of the following:"). */
const enumerationLeadIn =
  /(?:\b(?:because|if|when|whenever|unless|either|only\s+if|provided|as\s+long\s+as|whether|one\s+of|any\s+of|all\s+of|both|none\s+of|eligible|conditions?|criteria|requirements\s+are|reasons?|cases?|situations?|circumstances)\b|以下任一|任一|之一|满足以下|以下情况|如果|当)[^.!?。！？]*[:：]\s*$/iu;

/**
 * Why `item` must stay right after `previous` in its list, or undefined when nothing shows it must: the
 * previous item ends on a conjunction, a comma, a semicolon or a colon; the item opens by referring back
 * ("If it does not", "Otherwise", "In that case", "Then", "Only after", "Once that", "This", 否则 …), gives
 * an example, a warning or a note on it ("Example: …", "**Warning**: …", "Note: …", 例如 …), stands for what
 * the items before it leave ("the rest of the skill", "everything else"), gives
 * a reason with no subject of its own ("Helps clients understand the output"), names
 * an earlier rule or what it names ("the above", "the previous step", "Follow that skill"), holds a pronoun
 * whose antecedent is not in the item ("How to run them locally", `pronounReferringBack`), opens with a verb whose object is missing ("Reframe to
 * verifiable facts"), or opens with a condition that restates the rule before it ("Check for images without
 * alt-text" → "If images exist without alt-text, …").
 *
 * @example
 * leansOnPrevious('Check whether roaming is on.', 'If it is not, turn it on.') // 'it opens with "If it"'
 * leansOnPrevious('Never promise dates.', 'Quote the final price.') // undefined
 */
export function leansOnPrevious(previous: string, item: string): string | undefined {
  const ending = withoutClosingDecoration(previous).match(continuingEnd);
  if (ending) return `the rule before it ends on "${ending[0]}"`;
  const opening = item.replace(openingDecoration, '').match(referringBack);
  if (opening) return `it opens with "${opening[0]}", referring back`;
  const pronoun = pronounReferringBack(item);
  if (pronoun) return `its pronoun in "${pronoun}" refers back`;
  const reference = item.match(referenceToEarlier);
  if (reference) return `it refers to "${reference[0]}"`;
  // "Do not proactively offer these compensations": what "these" are is in the text before it, unless the
  // item leads into what follows ("Check these fields:").
  const pointing = /[:：]\s*$/u.test(item) ? null : item.match(pointingBack);
  if (pointing) return `it refers to "${pointing[0]}"`;
  const objectless = item.replace(openingDecoration, '').match(objectlessVerb);
  if (objectless) return `it opens with "${objectless[0]}", a verb whose object is in the rule before it`;
  const restated = restatedCondition(previous, item);
  if (restated) return `its condition ${JSON.stringify(restated)} restates the rule before it`;
  return undefined;
}

/** The condition an item opens with ("If images exist without alt-text, …"), up to its comma or colon. */
const openingCondition = /^(?:if|when|whenever|unless|once|where|in case)\s+([^,:;.]+)/iu;
/** Words too common to tie two rules together. */
const commonWords = new Set(
  'the a an and or of to for with without from in on at by is are be been it its this that these those they them their you your any all not no can will should must may has have had does do did was were there here then than'.split(
    ' ',
  ),
);
/** Content words of a text, plural -s dropped, so "requests" meets "request". */
const contentWords = (text: string) =>
  new Set(
    (text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? [])
      .filter((word) => !commonWords.has(word))
      .map((word) => (word.length > 4 && word.endsWith('s') ? word.slice(0, -1) : word)),
  );

/**
 * The condition of `item` when it restates what the rule before it does (outside that rule's own
 * condition): "Check for images without alt-text" then "If images exist without alt-text, explain …". Two
 * shared content words tie them; parallel rules ("If the user asks about price…", "If the user asks
 * about shipping…") share only their conditions' words, which do not count.
 */
function restatedCondition(previous: string, item: string): string | undefined {
  const condition = item.replace(openingDecoration, '').match(openingCondition);
  if (!condition) return undefined;
  const previousCondition = previous.replace(openingDecoration, '').match(openingCondition)?.[0] ?? '';
  const previousWords = contentWords(previous.replace(previousCondition, ''));
  const shared = [...contentWords(condition[1] as string)].filter((word) => previousWords.has(word));
  return shared.length >= 2 ? (condition[0] as string) : undefined;
}

/**
 * Why a list is an enumeration of alternatives or conditions, or undefined: an item other than the last
 * ends on a conjunction ("…, or"), or its lead-in introduces alternatives or conditions ("A line can be
 * suspended because:", "Refuse if any of:"). An enumeration keeps every item in place.
 *
 * @example
 * enumerationOf({ numbered: false, introduction: 'Suspended because:', items: ['a bill is overdue, or', 'the contract ended.'] })
 * // 'the lead-in "Suspended because:" introduces alternatives or conditions'
 */
export function enumerationOf(list: Pick<ListShape, 'introduction' | 'items'>): string | undefined {
  const joined = list.items
    .slice(0, -1)
    .map((item) => withoutClosingDecoration(item).match(conjunctionEnd)?.[0])
    .find((conjunction) => conjunction !== undefined);
  if (joined) return `its items are joined by "${joined}"`;
  const introduction = list.introduction.trim();
  if (enumerationLeadIn.test(introduction)) {
    return `the lead-in ${JSON.stringify(lastWords(introduction, 60))} introduces alternatives or conditions`;
  }
  return undefined;
}

/**
 * The end of a text, at most `length` characters from a word boundary on, with "…" where it was cut: a
 * message quotes a long lead-in from a word, not mid-word ("tions for pushing").
 *
 * @example
 * lastWords('Here are the instructions for pushing:', 25) // '…instructions for pushing:'
 */
export function lastWords(text: string, length: number): string {
  if (text.length <= length) return text;
  const tail = text.slice(-length);
  const boundary = /\s/u.test(text.charAt(text.length - length - 1)) ? 0 : tail.search(/\s\S/u) + 1;
  return `…${boundary > 0 ? tail.slice(boundary) : tail.trimStart()}`;
}

/**
 * An item that is one quotation as a whole (“Where will this live? …”): words to say as written, such as
 * sample questions to pick from; joined into prose they would read as one question after another.
 */
const quotation = /^["“「『].*["”」』]$/su;

/**
 * The meaning facts of one list: the links between items that lean on each other (every pair, for an
 * enumeration or a template of an output), whether it is an enumeration, whether it is a procedure, and
 * whether it is a template (it stands under a lead-in naming a format, a structure or an example:
 * `templateLeadIn`; or each item is a quotation of what to say).
 *
 * @example
 * listMeaning({ numbered: false, introduction: 'Rules:', items: ['Check roaming.', 'If it is off, turn it on.'] }).links
 * // ['it opens with "If it", referring back']
 */
export function listMeaning(list: ListShape): ListMeaning {
  const enumeration = enumerationOf(list);
  const template =
    list.template !== undefined
      ? `the list is part of a template of the output (the lead-in ${JSON.stringify(lastWords(list.template, 60))})`
      : list.items.length >= 2 && list.items.every((item) => quotation.test(item.trim()))
        ? 'its items are quotations of what to say'
        : undefined;
  const links = list.items
    .slice(1)
    .map((item, index) => template ?? enumeration ?? leansOnPrevious(list.items[index] as string, item));
  // A pronoun that stands for something an earlier item named ("How to run them") may stand for any item
  // before it: all of them keep their places.
  list.items.forEach((item, index) => {
    const pronoun = index > 0 ? pronounReferringBack(item) : undefined;
    if (pronoun === undefined) return;
    for (let earlier = 0; earlier < index - 1; earlier++) {
      links[earlier] ??= `a later rule's pronoun in "${pronoun}" refers back to the rules before it`;
    }
  });
  return { links, enumeration, procedure: listKeepsOrder(list), template };
}

/**
 * The positions of the items that must keep their place when the others of an independent list change
 * places: both ends of every link (an enumeration pins every item).
 *
 * @example
 * pinnedItems(listMeaning({ numbered: false, introduction: '', items: ['a', 'If so, b', 'c'] })) // Set {0, 1}
 */
export function pinnedItems(meaning: Pick<ListMeaning, 'links'>): Set<number> {
  const pinned = new Set<number>();
  meaning.links.forEach((link, index) => {
    if (link === undefined) return;
    pinned.add(index);
    pinned.add(index + 1);
  });
  return pinned;
}
