// Template scanning of the prompt operators (not an operator), local to this dimension: a small scanner of
// Handlebars templates that says where `{{ … }}` code is and how deep each position sits inside `{{#…}}…{{/…}}`
// blocks, so that the operators edit only prose, and split only between top-level paragraphs. It also holds
// the checks every prompt variant must pass before it is returned.
import {
  type Harness,
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
