// The order rule for Markdown lists, shared by the operators that move rules and by the certificate that
// checks them: numbered lists are procedures, bullet lists are independent unless announced or marked, and
// a list that shows the shape of an output (a template) keeps its lines as written.

/** `<!-- hsa: independent -->` on the line before a list: its items may change places. */
const independentMarker = /<!--\s*(?:hsa:\s*)?(?:independent|unordered)\s*-->/iu;
/** `<!-- hsa: ordered -->` (or `procedure`, `pin`) on the line before a list: its items keep their order. */
const orderedMarker = /<!--\s*(?:hsa:\s*)?(?:ordered|procedure|pin)\s*-->/iu;
/** An introduction that announces a sequence: "Steps:", "Procedure", "in this order", 步骤, … */
const sequenceIntroduction =
  /\b(?:steps?|procedures?|workflow|process|in (?:this|that|the following) order|in order|sequence|sequentially|one after another)\b|步骤|流程|顺序|依次/iu;
/**
 * A lead-in that introduces a way of doing something ("Consider this approach:", "Plan:", "How to …:"), or
 * a purpose ("To refuel data you should:", 为了…：): what follows are the steps to reach it.
 */
const procedureLeadIn =
  /\b(?:approach|method|plan|recipe|instructions|how to|as follows)\b.*[:：]\s*$|^\W*to\s+\p{L}+\b[^.!?。！？]*[:：]\s*$|^\W*(?:为了|要)\S*[:：]\s*$/iu;
/** A sequence cue inside an item: the item says where it stands relative to the others. */
const sequenceCue =
  /\b(?:first|firstly|then|next|after|afterwards|before|finally|lastly|once|until|step)\b|先|然后|接着|之后|随后|最后|其次/iu;

/** Emphasis and closing marks an item may end with after its last word. */
const closingDecoration = /[\s*_~`"'”’」』)）\]]+$/u;

/**
 * A list item without the emphasis and closing marks it may end with after its last word or its sentence
 * punctuation (`**`, quotes, brackets, 」): what its ending is read from.
 *
 * @example
 * withoutClosingDecoration('Ask for the **order id, or**') // 'Ask for the **order id, or'
 */
export const withoutClosingDecoration = (item: string): string => item.replace(closingDecoration, '');

/** Words: a Han or Kana character each, else a run of letters or digits. */
const words = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{N}]+/gu;

/**
 * Whether a list item is a full sentence as written: it ends with sentence punctuation (. ! ? 。！？) and
 * has at least three words. "Phone number", "Load with pandas" and "2: Needs Improvement" are not; "State
 * weights in kilograms." is.
 *
 * @example
 * isFullSentence('Never promise a delivery date.') // true
 * isFullSentence('Load with pandas') // false
 */
export function isFullSentence(text: string): boolean {
  const trimmed = withoutClosingDecoration(text);
  return /[.!?。！？]$/u.test(trimmed) && (trimmed.match(words) ?? []).length >= 3;
}

/** A Markdown heading: its level is its number of `#`. */
const headingLine = /^(#{1,6})[ \t]+\S/u;
/**
 * A label standing for a heading in a body written without them: a line of capitals, undecorated, ending
 * with a colon ("CRITICAL REVIEW OUTPUT FORMAT:", "COMMUNICATION STYLE:"). It ranks below every heading.
 */
const labelLine = /^\p{Lu}[\p{Lu}\p{N} \t&/'’()+-]*\p{Lu}[ \t]*[:：][ \t]*$/u;
const labelLevel = 7;
/** A word that names the shape of an output. */
const shapeWord = '(?:formats?|templates?|structures?|skeletons?|layouts?|outlines?|schemas?)';
/** A heading or a label that names a shape or an example: "## Output format", "OUTPUT FORMAT:", "### Example". */
const templateHeading = new RegExp(String.raw`\b(?:${shapeWord}|examples?|samples?)\b`, 'iu');
/**
 * A line that introduces the shape of what to produce: "… in this structure:", "Use the following format",
 * "Output template:", "the format below", or a lead-in ending with "for example:", "like this:".
 */
const templateSentence = new RegExp(
  [
    String.raw`\b(?:this|these|the\s+following|following|below|same|exact|standard|output|response|reply|report|answer|message|summary|result|review)\s+(?:[\p{L}-]+\s+)?${shapeWord}\b`,
    String.raw`\b${shapeWord}\s+(?:below|as\s+follows)\b`,
    String.raw`^\W*(?:[\p{L}-]+\s+){0,2}${shapeWord}\W*[:：]\W*$`,
    String.raw`\b(?:for\s+example|for\s+instance|e\.g\.|examples?|samples?|like\s+this|like\s+so|looks?\s+like(?:\s+this)?)\W*[:：]\W*$`,
  ].join('|'),
  'iu',
);
const listItemLine = /^(?:[-*+]|\d{1,9}[.)])[ \t]+\S/u;

/**
 * Reads a body line by line and says which lead-in's template the next line stands in, if any. A heading or
 * a label that names a format, a structure, a template or an example ("## Output format", "CRITICAL REVIEW
 * OUTPUT FORMAT:") holds until the next heading or label of its level or above; a line that introduces one
 * ("Produce a plan … in this structure:", "Use the following format", "for example:") holds until its own
 * section ends (the next heading or label of the level it stands under; the end of the body when it stands
 * under none), so the sub-lists of the structure it introduces (a plan's `### 1. Goal` parts) are the
 * template's too. Lines in code fences, list items and indented lines introduce nothing.
 */
function templateScope(): { read(line: string): void; current(): string | undefined } {
  let inFence = false;
  let section = 0;
  let active: { leadIn: string; closesAt: number } | undefined;
  return {
    read(line) {
      if (inFence) {
        if (fence.test(line)) inFence = false;
        return;
      }
      if (fence.test(line)) {
        inFence = true;
        return;
      }
      const heading = headingLine.exec(line);
      const level = heading ? (heading[1] as string).length : labelLine.test(line) ? labelLevel : undefined;
      if (level !== undefined) {
        if (active && level <= active.closesAt) active = undefined;
        section = level;
        if (!active && templateHeading.test(line)) active = { leadIn: line.trim(), closesAt: level };
        return;
      }
      if (active || /^\s/u.test(line) || listItemLine.test(line)) return;
      if (templateSentence.test(line)) active = { leadIn: line.trim(), closesAt: section };
    },
    current: () => active?.leadIn,
  };
}

/**
 * The lead-in whose template a list stands in, given the text before the list: a heading or a line that
 * names the shape of an output (a format, a structure, a template, an example) and whose section the list
 * has not left. A template's lists are what the agent must reproduce, not rules: they keep their style and
 * their order (`listKeepsOrder`).
 *
 * @example
 * templateLeadIn('Produce a plan in this structure:\n\n### 1. Goal\n') // 'Produce a plan in this structure:'
 * templateLeadIn('## Rules\n') // undefined
 */
export function templateLeadIn(before: string): string | undefined {
  const scope = templateScope();
  for (const line of before.split('\n')) scope.read(line);
  return scope.current();
}

/**
 * Whether a list whose introduction (the last non-blank line before it) is `introduction` keeps its
 * order: a list in a template (`templateLeadIn`) does; a numbered list does unless the introduction is
 * `<!-- hsa: independent -->`; a bullet list does
 * when the introduction is `<!-- hsa: ordered -->` or announces a sequence ("Steps:", "Procedure",
 * "in this order", 步骤, 顺序, …), and, given its items, when one of them is not a full sentence
 * (`isFullSentence`) or they read as steps (`itemsAreSequenced`).
 *
 * @example
 * listKeepsOrder({ numbered: true, introduction: 'Then:' }) // true
 * listKeepsOrder({ numbered: false, introduction: 'Rules:' }) // false
 */
export function listKeepsOrder(list: {
  numbered: boolean;
  introduction: string;
  /** The items' text; with it, items with sequence cues or naming tools make the list a procedure. */
  items?: readonly string[];
  /** The tool names of the harness, to see items that name tools in order. */
  toolNames?: ReadonlySet<string>;
  /** The lead-in of the template the list stands in (`templateLeadIn`), if any. */
  template?: string | undefined;
}): boolean {
  if (list.template !== undefined) return true;
  if (independentMarker.test(list.introduction)) return false;
  if (list.numbered) return true;
  // Only rules, each a sentence of its own, can be shown independent. A list of fragments may be a pipeline
  // ("Describe your diagram", "Gemini reviews quality", "Publication-ready output"), a template's parts, a
  // scale ("1: Poor", "2: Needs Improvement"), a prerequisite first ("Load with pandas") or a catch-all
  // last ("Any other visualization"), which no cue names.
  if (list.items && list.items.length > 0 && !list.items.every(isFullSentence)) return true;
  return (
    orderedMarker.test(list.introduction) ||
    sequenceIntroduction.test(list.introduction) ||
    procedureLeadIn.test(list.introduction) ||
    itemsAreSequenced(list.items ?? [], list.toolNames)
  );
}

/**
 * Whether a bullet list's items read as steps: one item carries a sequence cue (first, then, next, after,
 * before, finally, "step", 然后, …), an item hands on what an earlier one makes ("Write the design …" then
 * "Commit the design document"), an item tries out what an earlier one builds ("Run `npm run build`" then
 * "Test with MCP Inspector"), or two items name different tools (a use of one tool after another).
 *
 * @example
 * itemsAreSequenced(['Read the file first with `read_text_file`.', 'Apply the change.']) // true
 * itemsAreSequenced(['Never promise a date.', 'Quote the live price.']) // false
 */
export function itemsAreSequenced(items: readonly string[], toolNames?: ReadonlySet<string>): boolean {
  if (items.some((item) => sequenceCue.test(item))) return true;
  if (handsOnWhatAnEarlierItemMakes(items)) return true;
  if (testsWhatAnEarlierItemBuilds(items)) return true;
  if (!toolNames || toolNames.size === 0) return false;
  const named = new Set<string>();
  let naming = 0;
  for (const item of items) {
    const tools = [...item.matchAll(/[A-Za-z0-9_-]+/gu)]
      .map((match) => match[0])
      .filter((word) => toolNames.has(word));
    if (tools.length > 0) naming++;
    for (const tool of tools) named.add(tool);
  }
  return naming >= 2 && named.size >= 2;
}

/** An item that makes something: it opens with a verb of writing or building. */
const makingVerb =
  /^\W*(?:write|create|draft|make|build|generate|produce|prepare|compose|add|record|fill\s+in|set\s+up)\b/iu;
/** An item that hands something on: it opens with a verb of committing, sending or releasing. */
const handingVerb =
  /^\W*(?:commit|push|send|submit|publish|upload|share|deploy|merge|release|attach|post|file|open\s+a\s+pull\s+request\s+for)\b/iu;
/** Words too common to tie two items together. */
const commonWords = new Set(
  'the this that these those with from into onto then your their them they what when where which while file files'.split(
    ' ',
  ),
);
const contentWordsOf = (text: string) =>
  (text.toLowerCase().match(/\p{L}{4,}/gu) ?? []).filter((word) => !commonWords.has(word));

/**
 * Whether an item hands on (commits, sends, publishes …) something an earlier item makes (writes, creates,
 * drafts …), the two sharing a content word: the later one needs the earlier one done ("Write the validated
 * design to docs/specs/" before "Commit the design document to git").
 */
function handsOnWhatAnEarlierItemMakes(items: readonly string[]): boolean {
  const made: string[][] = [];
  for (const item of items) {
    if (handingVerb.test(item)) {
      const words = new Set(contentWordsOf(item.replace(handingVerb, '')));
      if (made.some((earlier) => earlier.some((word) => words.has(word)))) return true;
    }
    if (makingVerb.test(item)) made.push(contentWordsOf(item.replace(makingVerb, '')));
  }
  return false;
}

/** An item that builds, compiles or installs something, or checks its syntax. */
const buildingStep =
  /\b(?:build|builds|compile|compiles|compilation|install|installs|syntax|py_compile|tsc)\b/iu;
/** An item that opens with trying out what was built: testing, running, launching, deploying it. */
const tryingStep =
  /^\W*(?:test|tests|try|launch|start|run\s+the\s+(?:server|app|application|tests?)|deploy|publish|release|ship)\b/iu;

/**
 * Whether an item tries out (tests, launches, deploys …) after an earlier item builds, compiles, installs or
 * checks the syntax: "Run `npm run build` to verify compilation" before "Test with MCP Inspector".
 */
function testsWhatAnEarlierItemBuilds(items: readonly string[]): boolean {
  let built = false;
  for (const item of items) {
    if (built && tryingStep.test(item)) return true;
    if (buildingStep.test(item)) built = true;
  }
  return false;
}

/** A list of a text whose order must be kept, with the text of each item's first line. */
export interface OrderedList {
  /** UTF-16 offset of the list's first item. */
  start: number;
  items: string[];
}

/** A top-level list of a Markdown text, as the meaning rules read it. */
export interface MarkdownList {
  /** UTF-16 offset of the list's first item. */
  start: number;
  numbered: boolean;
  /** The last non-blank line before the list, '' when none. */
  introduction: string;
  /** The text of each item's first line, trimmed. */
  items: string[];
  /** Each item's whole text on one line: its first line and continuation lines, trimmed, joined by spaces. */
  texts: string[];
  /** The lead-in of the template the list stands in (`templateLeadIn`), if any. */
  template: string | undefined;
}

const bulletItem = /^([-*+])[ \t]+(\S.*)$/u;
const numberedItem = /^\d{1,9}[.)][ \t]+(\S.*)$/u;
const fence = /^(```|~~~)/u;
/** Lines that start a block of their own and so end a list item (as the skill-content operators parse). */
const blockStart = /^(#{1,6}\s|```|~~~|\||>|<!--)/u;

/**
 * Finds the top-level lists of a Markdown text outside code fences, with at least two items. A list runs
 * over consecutive item lines of one kind (numbered, or one bullet marker) and their continuation lines; a
 * blank line, a heading, a fence, a table, a quote or a comment ends it.
 *
 * @example
 * markdownLists('Rules:\n- a\n  more\n- b').map((list) => list.texts) // [['a more', 'b']]
 */
export function markdownLists(text: string): MarkdownList[] {
  const lists: MarkdownList[] = [];
  let inFence = false;
  let introduction = '';
  let current: (MarkdownList & { marker: string }) | undefined;
  let offset = 0;
  const scope = templateScope();
  const close = () => {
    if (current && current.items.length >= 2) {
      const { marker: _marker, ...list } = current;
      lists.push(list);
    }
    current = undefined;
  };
  for (const line of text.split('\n')) {
    const lineStart = offset;
    offset += line.length + 1;
    const template = scope.current();
    scope.read(line);
    if (inFence) {
      if (fence.test(line)) inFence = false;
      continue;
    }
    if (fence.test(line)) {
      close();
      inFence = true;
      introduction = '';
      continue;
    }
    const numbered = numberedItem.exec(line);
    const bullet = numbered ? undefined : bulletItem.exec(line);
    if (numbered || bullet) {
      const isNumbered = numbered !== null;
      const marker = bullet ? (bullet[1] as string) : '';
      if (!current || current.numbered !== isNumbered || current.marker !== marker) {
        close();
        current = {
          start: lineStart,
          items: [],
          texts: [],
          numbered: isNumbered,
          marker,
          introduction,
          template,
        };
      }
      const head = ((numbered ?? bullet) as RegExpExecArray).at(-1)?.trim() as string;
      current.items.push(head);
      current.texts.push(head);
      continue;
    }
    if (current && line.trim() !== '' && (/^\s/u.test(line) || !blockStart.test(line))) {
      const last = current.texts.length - 1;
      current.texts[last] = `${current.texts[last]} ${line.trim()}`;
      continue;
    }
    close();
    if (line.trim() !== '') introduction = line;
  }
  close();
  return lists;
}

/**
 * Finds the top-level lists of a Markdown text that keep their order (`listKeepsOrder`), outside code
 * fences, with at least two items (`markdownLists`).
 *
 * @example
 * orderedLists('1. Load\n2. Save').map((list) => list.items) // [['Load', 'Save']]
 */
export function orderedLists(text: string, options: { toolNames?: ReadonlySet<string> } = {}): OrderedList[] {
  return markdownLists(text)
    .filter((list) =>
      listKeepsOrder({ ...list, ...(options.toolNames ? { toolNames: options.toolNames } : {}) }),
    )
    .map((list) => ({ start: list.start, items: list.items }));
}
