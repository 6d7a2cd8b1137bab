// Template scanning of the prompt operators (not an operator), local to this dimension: a small scanner of
// Handlebars templates that says where `{{ … }}` code is and how deep each position sits inside `{{#…}}…{{/…}}`
// blocks, so that the operators edit only prose, and split only between top-level paragraphs. It also holds
// the checks every prompt variant must pass before it is returned.
import {
  type Harness,
  leansOnPrevious,
  type RunContext,
  renderSystemPrompt,
  type Trajectory,
  variantHolds,
} from '../../src/kit/index.js';

/** A `{{ … }}` span `[start, end)` and the block depth just before it. */
export interface MustacheSpan {
  start: number;
  end: number;
  /** The expression without braces, `~` and edge spaces, e.g. `#each skills`, `/each`, `else`, `name`. */
  inner: string;
  depthBefore: number;
}

export interface TemplateScan {
  spans: MustacheSpan[];
  /** Whether a position holds code (lies strictly inside a mustache, braces included). */
  inCode(index: number): boolean;
  /** Block depth at a position of prose (0 = top level). */
  depthAt(index: number): number;
  /** Whether an expression of the template reads the given top-level name (e.g. `skillList`). */
  reads(name: string): boolean;
}

/** Finds the end of a mustache opened at `start`, skipping quoted strings; -1 when it never closes. */
function mustacheEnd(template: string, start: number): number {
  if (template.startsWith('{{!--', start)) {
    const close = template.indexOf('--}}', start + 5);
    return close < 0 ? -1 : close + 4;
  }
  if (template.startsWith('{{!', start)) {
    const close = template.indexOf('}}', start + 3);
    return close < 0 ? -1 : close + 2;
  }
  const triple = template.startsWith('{{{', start);
  let index = start + (triple ? 3 : 2);
  let quote: string | undefined;
  for (; index < template.length; index++) {
    const char = template[index] as string;
    if (quote) {
      if (char === quote) quote = undefined;
      continue;
    }
    if (char === '"' || char === "'") quote = char;
    else if (template.startsWith(triple ? '}}}' : '}}', index)) return index + (triple ? 3 : 2);
  }
  return -1;
}

/**
 * Scans a Handlebars template. Undefined when it uses a feature this scanner does not model (raw blocks,
 * escaped mustaches, unclosed braces or blocks), so that callers leave such templates alone.
 *
 * @example
 * scanTemplate('{{#each skills}}- {{id}}\n{{/each}}')?.depthAt(16) // 1
 */
export function scanTemplate(template: string): TemplateScan | undefined {
  const spans: MustacheSpan[] = [];
  let depth = 0;
  let from = 0;
  for (;;) {
    const start = template.indexOf('{{', from);
    if (start < 0) break;
    if (template[start - 1] === '\\' || template.startsWith('{{{{', start)) return undefined;
    const end = mustacheEnd(template, start);
    if (end < 0) return undefined;
    const inner = template
      .slice(start, end)
      .replace(/^\{\{\{?~?/, '')
      .replace(/~?\}?\}\}$/, '')
      .trim();
    spans.push({ start, end, inner, depthBefore: depth });
    if (inner.startsWith('#') || (inner.startsWith('^') && inner.length > 1)) depth++;
    else if (inner.startsWith('/')) depth--;
    if (depth < 0) return undefined;
    from = end;
  }
  if (depth !== 0) return undefined;
  const spanAt = (index: number) => spans.find((span) => index > span.start && index < span.end);
  return {
    spans,
    inCode: (index) => spanAt(index) !== undefined || spans.some((span) => span.start === index),
    depthAt(index) {
      let current = 0;
      for (const span of spans) {
        if (span.start >= index) break;
        const { inner } = span;
        if (inner.startsWith('#') || (inner.startsWith('^') && inner.length > 1)) current++;
        else if (inner.startsWith('/')) current--;
      }
      return current;
    },
    reads: (name) =>
      spans.some(
        (span) =>
          !span.inner.startsWith('!') && new RegExp(`(^|[\\s(])${name}(?=$|[\\s)~}])`).test(span.inner),
      ),
  };
}

/**
 * Whether a prompt variant is sound: it parses as a harness (only its prompt is parsed and checked, the
 * rest being the base's: `variantHolds`), and its system prompt renders for the trajectory's context
 * whenever the base's does.
 *
 * @example
 * if (!promptVariantHolds(base, variant, context.run, context.trajectory)) return { skip: '…' };
 */
export function promptVariantHolds(
  base: Harness,
  variant: Harness,
  run: RunContext,
  trajectory?: Trajectory,
): boolean {
  if (!variantHolds(base, variant, ['prompt'], { hookChecks: run.hookChecks })) return false;
  if (!trajectory) return true;
  try {
    renderSystemPrompt(base, trajectory.context);
  } catch {
    return true;
  }
  try {
    renderSystemPrompt(variant, trajectory.context);
    return true;
  } catch {
    return false;
  }
}

/** Whether a text is written in Chinese (holds Han characters). */
export const isChinese = (text: string) => /\p{Script=Han}/u.test(text);

/** A section id not used by any identifier of the harness (nor in `taken`), built from `base`. */
export function freshSectionId(base: string, taken: ReadonlySet<string>): string {
  const cleaned = base.replace(/[^A-Za-z0-9_.-]/g, '_');
  const stem = /^[A-Za-z_]/.test(cleaned) ? cleaned : `section_${cleaned}`;
  for (let index = 1; ; index++) {
    const candidate = index === 1 ? stem : `${stem}_${index}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/**
 * The title of the section that continues a section titled `title` ("Compliance (continued)", 合规（续）):
 * what `prompt/split-section` names its second part, and how `prompt/reorder-sections` knows the two belong
 * together.
 */
export const continuationTitle = (title: string) =>
  isChinese(title) ? `${title}（续）` : `${title} (continued)`;

/** A tag that writes nothing itself: a block's start or end, `else`, a comment. */
const structuralTag = String.raw`\{\{~?\s*(?:[#/^!]|else\b)[^}]*\}\}`;
const onlyStructuralTags = new RegExp(`^(?:${structuralTag}\\s*)+$`);
const leadingStructuralTags = new RegExp(`^(?:${structuralTag}\\s*)+`);
/** A line of nothing but tags, one of which writes a value (`{{skillList}}`, `{{join check.terms ", "}}`). */
const onlyTags = /^(?:\{\{[^}]*\}\}\}?\s*)+$/;
const listItem = /^(?:[-*+•]\s|\d{1,3}(?:[.)]\s|、))/u;

/** A line of a template as the prompt reads it: its text, and whether it is (or may render) a list. */
interface TemplateLine {
  text: string;
  list: boolean;
}

/**
 * The lines of a template that write something, trimmed, block tags at their start left out. A line of
 * nothing but a value (`{{skillList}}`, `{{toolList}}`) counts as a list: what it renders is not known here,
 * and the catalogue values render lists.
 */
function templateLines(template: string): TemplateLine[] {
  const lines: TemplateLine[] = [];
  for (const raw of template.split('\n')) {
    const line = raw.trim();
    if (line === '' || onlyStructuralTags.test(line)) continue;
    if (onlyTags.test(line)) lines.push({ text: line, list: true });
    else {
      const text = line.replace(leadingStructuralTags, '');
      lines.push({ text, list: listItem.test(text) });
    }
  }
  return lines;
}

/**
 * Why the text `after` cannot stand apart from the text `before` it (two paragraphs of a section, or two
 * sections side by side), or undefined: a list right after prose belongs to that prose ("China's advertising
 * law applies to every reply." then its rules), and a paragraph that completes or refers back to the one
 * before it (`leansOnPrevious`: the one before ends on ":" or "or", this one opens with "Otherwise", "This",
 * "If it is not" …) leans on it.
 *
 * @example
 * leansOnTextBefore('Never do this:', '- promise dates') // 'a list right after the prose that introduces it'
 * leansOnTextBefore('Greet the user.', 'Quote prices in euros.') // undefined
 */
export function leansOnTextBefore(before: string, after: string): string | undefined {
  const last = templateLines(before).at(-1);
  const first = templateLines(after)[0];
  if (last === undefined || first === undefined) return undefined;
  if (first.list && !last.list) return 'a list right after the prose that introduces it';
  return leansOnPrevious(last.text, first.text);
}

/**
 * Why a section's text cannot follow another section's text under one title, or undefined: it opens with a
 * list (or a value that renders one, `{{skillList}}`), which under the merged title would read as more items
 * of what comes before it, or the text before it ends on a colon, which would take it for its own.
 *
 * @example
 * joinsWhatComesBefore('- Apply the plan.', '{{skillList}}') // 'it opens with a list, which would continue the text before it'
 */
export function joinsWhatComesBefore(before: string, after: string): string | undefined {
  const first = templateLines(after)[0];
  if (first?.list) return 'it opens with a list, which would continue the text before it';
  const last = templateLines(before).at(-1);
  if (last && /[:：]$/u.test(last.text)) return 'the text before it ends on a colon';
  return undefined;
}
