// Renders the system prompt: each section's template over the harness and the request context, under a
// heading in the pipeline's heading style, sections joined by a blank line.

import { BoundedCache } from './bounded-cache.js';
import { writtenPartHash } from './hash.js';
import { HarnessAugmentError } from './issues.js';
import { objectMemo } from './object-memo.js';
import { objectNumber } from './object-number.js';
import type { Harness, HeadingStyle, ListStyle, PromptSection } from './schema.js';
import { renderTemplate } from './template-engine.js';
import { textNumbering } from './text-numbers.js';
import { stringifyYaml } from './yaml-text.js';

/** Request context: free data the templates read as `context.*` (room state, products, history, …). */
export type RequestContext = Record<string, unknown>;

/**
 * A description of several lines as the rest of its list item: every further line indented to the item's
 * text (blank lines left empty), so that its own lists and headings stay inside the item instead of ending
 * the list (MCP servers' and OpenHands' tool descriptions span many lines).
 */
function underItem(description: string, indent: number): string {
  if (!description.includes('\n')) return description;
  const pad = ' '.repeat(indent);
  return description
    .split('\n')
    .map((line, index) => (index === 0 ? line : line.trim() === '' ? '' : `${pad}${line}`))
    .join('\n');
}

/**
 * Renders rows of `{ name, kind?, description }` as a list in one of the prompt's list styles.
 *
 * @example
 * formatList('bullets', [{ name: 'item_qa', kind: 'reply', description: 'Product questions' }])
 * // '- item_qa (reply): Product questions'
 */
export function formatList(
  style: ListStyle,
  rows: ReadonlyArray<{ name: string; kind?: string; description: string }>,
): string {
  const label = (row: { name: string; kind?: string }) => (row.kind ? `${row.name} (${row.kind})` : row.name);
  switch (style) {
    case 'bullets':
      return rows.map((row) => `- ${label(row)}: ${underItem(row.description, 2)}`).join('\n');
    case 'numbered':
      return rows
        .map((row, index) => {
          const marker = `${index + 1}. `;
          return `${marker}${label(row)}: ${underItem(row.description, marker.length)}`;
        })
        .join('\n');
    case 'table': {
      const hasKind = rows.some((row) => row.kind !== undefined);
      const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');
      const header = hasKind
        ? '| name | kind | description |\n|---|---|---|'
        : '| name | description |\n|---|---|';
      const lines = rows.map((row) =>
        hasKind
          ? `| ${cell(row.name)} | ${cell(row.kind ?? '')} | ${cell(row.description)} |`
          : `| ${cell(row.name)} | ${cell(row.description)} |`,
      );
      return [header, ...lines].join('\n');
    }
    case 'json':
      return JSON.stringify(
        rows.map((row) => ({
          name: row.name,
          ...(row.kind ? { kind: row.kind } : {}),
          description: row.description,
        })),
        null,
        2,
      );
    case 'yaml': {
      const items = rows.map((row) => ({
        name: row.name,
        ...(row.kind ? { kind: row.kind } : {}),
        description: row.description,
      }));
      // Every render of a variant's prompt lists the same rows: the YAML text is kept by content (bounded).
      const key = JSON.stringify(items);
      const known = yamlLists.get(key);
      if (known !== undefined) return known;
      const text = stringifyYaml(items, { lineWidth: 0 }).trimEnd();
      if (yamlLists.size >= yamlListCacheSize) yamlLists.clear();
      yamlLists.set(key, text);
      return text;
    }
  }
}
// Pure function of content across runs: a list's YAML text, by the list's JSON.
const yamlLists = new Map<string, string>();
const yamlListCacheSize = 2_048;

/**
 * The data every section template sees. `skills` and `tools` are the harness's lists in order,
 * `loader` names the skill-loading tool, `hooks` holds the enabled hooks, and `skillList` / `toolList` are
 * those lists already rendered in the prompt's `listStyle`.
 */
export function templateData(harness: Harness, context: RequestContext) {
  return { ...harnessData(harness), context };
}

type HarnessData = Omit<ReturnType<typeof deriveHarnessData>, 'context'>;

/** What the templates read of the harness: once per harness object (harnesses are treated as immutable). */
function harnessData(harness: Harness): HarnessData {
  let known = harnessDataOf.get(harness);
  if (!known) {
    known = deriveHarnessData(harness);
    harnessDataOf.set(harness, known);
  }
  return known;
}
// Pure function of content across runs: a harness object's template data.
const harnessDataOf = new WeakMap<Harness, HarnessData>();

function deriveHarnessData(harness: Harness) {
  const style = harness.prompt.listStyle;
  return {
    harness: { id: harness.id, description: harness.description ?? '' },
    skills: harness.skills.items,
    loader: harness.skills.loader,
    tools: harness.tools.items,
    hooks: harness.hooks.items.filter((hook) => hook.enabled),
    skillList: listOf(harness.skills, style, () =>
      harness.skills.items.map((skill) => ({
        name: skill.id,
        kind: skill.kind,
        description: skill.description,
      })),
    ),
    toolList: listOf(harness.tools, style, () =>
      harness.tools.items.map((tool) => ({ name: tool.name, description: tool.description })),
    ),
  };
}

/**
 * A part's list in a list style, once per (part object, style): a variant that changed only its hooks or
 * its prompt's headings holds the skills and tools parts of the harness it came from.
 */
function listOf(
  part: object,
  style: ListStyle,
  rows: () => ReadonlyArray<{ name: string; kind?: string; description: string }>,
): string {
  const byStyle = listsOf(part);
  let list = byStyle.get(style);
  if (list === undefined) {
    list = formatList(style, rows());
    byStyle.set(style, list);
  }
  return list;
}
// A skills or tools part object's lists, by list style (each a pure function of the part's content).
const listsOf = objectMemo((_part: object) => new Map<ListStyle, string>());

/**
 * Puts a rendered section body under its heading.
 *
 * @example
 * formatSection('markdown', { id: 'persona', title: 'Persona' }, 1, 'Be kind.') // '## Persona\nBe kind.'
 */
export function formatSection(
  style: HeadingStyle,
  section: Pick<PromptSection, 'id' | 'title'>,
  position: number,
  body: string,
): string {
  switch (style) {
    case 'markdown':
      return `## ${section.title}\n${body}`;
    case 'xml':
      return `<${section.id} title="${section.title.replaceAll('"', '&quot;')}">\n${body}\n</${section.id}>`;
    case 'numbered':
      return `${position}. ${section.title}\n${body}`;
    case 'bracketed':
      return `[${section.title}]\n${body}`;
  }
}

/**
 * Renders one section's body. Throws a HarnessAugmentError naming the section when the template fails.
 *
 * @example
 * renderSection(harness, harness.prompt.sections[0], { room: { title: 'Autumn sale' } })
 */
export function renderSection(harness: Harness, section: PromptSection, context: RequestContext): string {
  return renderBody(harness, section, templateData(harness, context));
}

function renderBody(harness: Harness, section: PromptSection, data: ReturnType<typeof templateData>): string {
  const index = harness.prompt.sections.indexOf(section);
  try {
    sectionRenders.count++;
    return renderTemplate(section.template, data).trim();
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new HarnessAugmentError(`prompt section "${section.id}" failed to render: ${reason}`, {
      issues: [
        {
          code: 'template_error',
          path: ['prompt', 'sections', index, 'template'],
          message: `section "${section.id}" failed to render: ${reason}`,
        },
      ],
      cause: error,
    });
  }
}

const sectionRenders = { count: 0 };
/**
 * How many section templates this process has rendered (tests count the work of a prompt with it).
 *
 * @example
 * const before = sectionTemplateRenders(); renderSystemPrompt(harness, context); sectionTemplateRenders() - before
 */
export function sectionTemplateRenders(): number {
  return sectionRenders.count;
}

/**
 * Renders the full system prompt of a harness for a request context.
 *
 * @example
 * const system = renderSystemPrompt(harness, trajectory.context);
 */
export function renderSystemPrompt(harness: Harness, context: RequestContext = {}): string {
  // Validation, relabels and certificates render the same (harness, context) many times; harnesses are
  // treated as immutable, so the prompt is cached per harness object and context content, in one cache
  // bounded by bytes (a pool entry meets the contexts of many examples: per-object maps grew with the rows).
  const key = `${objectNumber(harness)}\u0000${textNumber(contextJson(context))}`;
  const cached = rendered.get(key);
  if (cached !== undefined) return cached;
  return rendered.set(key, renderPrompt(harness, context));
}

/** A context's JSON, once per context object (a trajectory and its moves share one context object). */
function contextJson(context: RequestContext): string {
  let known = contextJsonOf.get(context);
  if (known === undefined) {
    known = JSON.stringify(context);
    contextJsonOf.set(context, known);
  }
  return known;
}
// Pure function of content across runs: a context object's JSON text.
const contextJsonOf = new WeakMap<object, string>();

// A number for a long text in the caches' keys (a template, a context's JSON).
const textNumber = textNumbering(4 << 20, 'render-prompt.textNumbers');

// Pure function of content across runs: a prompt, by harness object number and context JSON.
const rendered = new BoundedCache<string, string>(
  8 << 20,
  (key, prompt) => 2 * (key.length + prompt.length) + 64,
  'render-prompt.rendered',
);

/**
 * The body of each section of a harness object that read nothing of the request context when it was first
 * rendered: the same for every context.
 */
// Pure function of content across runs: a harness object's context-free section bodies.
const sectionBodies = new WeakMap<Harness, Array<string | undefined>>();
/** What one render of a template read: the members of the template data besides `context`, and the context. */
interface Reading {
  members: readonly string[];
  context: boolean;
}
/**
 * The readings each template has made, by its text (a few each: which members a template reads can depend
 * on what it reads, `{{#if context.x}}{{toolList}}{{/if}}`).
 */
// Pure function of content across runs: a template's readings, by the template text.
const templateReadings = new BoundedCache<string, Reading[]>(
  1 << 20,
  (template, readings) => 2 * template.length + 64 * readings.length + 64,
  'render-prompt.templateReadings',
);
const readingsPerTemplate = 8;
/**
 * Bodies by (template, what one of its readings reads). A render that read exactly these members and the
 * context (or not) renders the same for any data that holds the same there: the template takes the same
 * path and reads the same values. A variant that changed only its hooks renders every section that reads no
 * hook from here.
 */
// Pure function of content across runs: a section body, by template text and the content it read.
const bodiesByReading = new BoundedCache<string, string>(
  8 << 20,
  (key, body) => 2 * (key.length + body.length) + 64,
  'render-prompt.bodiesByReading',
);

/**
 * A template data member's source in the harness, as a key: the part object it is derived from (parts are
 * immutable) or, for the hooks, their content, or undefined for a member the data holds that this does not know (then nothing is kept).
 */
function memberKey(harness: Harness, member: string): string | undefined {
  switch (member) {
    case 'harness':
      return JSON.stringify([harness.id, harness.description ?? '']);
    case 'skills':
    case 'loader':
      return `#${objectNumber(harness.skills)}`;
    case 'tools':
      return `#${objectNumber(harness.tools)}`;
    case 'hooks':
      // By content: an example's own hook steps (a hook turned off, two reordered) make hooks parts that
      // recur across examples, while each is a new object.
      return writtenPartHash(harness.hooks);
    case 'skillList':
      return `#${objectNumber(harness.skills)}/${harness.prompt.listStyle}`;
    case 'toolList':
      return `#${objectNumber(harness.tools)}/${harness.prompt.listStyle}`;
    default:
      // A member the data lacks reads the same (nothing, or Object.prototype's) under every harness.
      return Object.hasOwn(harnessData(harness), member) ? undefined : '-';
  }
}

function readingKey(
  template: string,
  reading: Reading,
  harness: Harness,
  context: RequestContext,
): string | undefined {
  let key = `${textNumber(template)}\u0000${reading.context ? textNumber(contextJson(context)) : ''}`;
  for (const member of reading.members) {
    const source = memberKey(harness, member);
    if (source === undefined) return undefined;
    key += `\u0000${member}=${source}`;
  }
  return key;
}

function renderPrompt(harness: Harness, context: RequestContext): string {
  let bodies = sectionBodies.get(harness);
  if (!bodies) {
    bodies = [];
    sectionBodies.set(harness, bodies);
  }
  const known = bodies;
  // Made only for a section that renders here: most renders of a variant's prompt find every body.
  let data: TemplateData | undefined;
  // Sections joined with `+`, not `Array.join`: the engine keeps the result as a rope of the section texts
  // until something reads its characters. A row written by reference never does (its system message is
  // marked as the harness's render, told by identity), so each render of a variant's prompt for a new
  // context costs no copy of the whole prompt.
  let prompt = '';
  harness.prompt.sections.forEach((section, index) => {
    let body = known[index];
    if (body === undefined) {
      const readings = templateReadings.get(section.template) ?? [];
      for (const reading of readings) {
        const key = readingKey(section.template, reading, harness, context);
        body = key === undefined ? undefined : bodiesByReading.get(key);
        if (body !== undefined) break;
      }
      if (body === undefined) {
        // The render is watched (a Proxy sees every property, key and membership lookup). A template
        // that reads nothing of the context renders alike for every context: its only other uses of the
        // object, identity and truthiness, are the same for every context object.
        data ??= templateData(harness, context);
        const watched = watchedData(data);
        body = renderBody(harness, section, watched.data);
        if (!watched.readContext()) known[index] = body;
        const reading = watched.reading();
        const key = reading && readingKey(section.template, reading, harness, context);
        if (reading && key !== undefined) {
          bodiesByReading.set(key, body);
          const same = (other: Reading) =>
            other.context === reading.context &&
            other.members.join('\u0000') === reading.members.join('\u0000');
          if (!readings.some(same))
            templateReadings.set(section.template, [...readings, reading].slice(-readingsPerTemplate));
        }
      }
    }
    const text = formatSection(harness.prompt.headingStyle, section, index + 1, body);
    prompt = index === 0 ? text : `${prompt}\n\n${text}`;
  });
  return prompt;
}

type TemplateData = ReturnType<typeof templateData>;

/**
 * A view of the template data that records whether anything read the context (its members, keys or
 * prototype), and whether anything read the rest (any member but `context`, the keys, the prototype).
 */
function watchedData(data: TemplateData): {
  data: TemplateData;
  readContext: () => boolean;
  /** What the render read, or undefined when it read the data as a whole (its keys, its prototype, a symbol). */
  reading: () => Reading | undefined;
} {
  let context = false;
  let whole = false;
  const members = new Set<string>();
  // Every trap records the read, then does what the object itself does.
  const watch =
    <A extends unknown[], R>(trap: (...args: A) => R, seen: (args: A) => void) =>
    (...args: A): R => {
      seen(args);
      return trap(...args);
    };
  const readsContext = () => {
    context = true;
  };
  const readsMember = (args: unknown[]) => {
    const member = args[1];
    if (typeof member !== 'string') whole = true;
    else if (member !== 'context') members.add(member);
  };
  const readsAll = () => {
    whole = true;
  };
  const contextView = new Proxy<RequestContext>(data.context, {
    get: watch(Reflect.get, readsContext),
    has: watch(Reflect.has, readsContext),
    ownKeys: watch(Reflect.ownKeys, readsContext),
    getOwnPropertyDescriptor: watch(Reflect.getOwnPropertyDescriptor, readsContext),
    getPrototypeOf: watch(Reflect.getPrototypeOf, readsContext),
  });
  const view = new Proxy<TemplateData>(
    { ...data, context: contextView },
    {
      get: watch(Reflect.get, readsMember),
      has: watch(Reflect.has, readsMember),
      ownKeys: watch(Reflect.ownKeys, readsAll),
      getOwnPropertyDescriptor: watch(Reflect.getOwnPropertyDescriptor, readsMember),
      getPrototypeOf: watch(Reflect.getPrototypeOf, readsAll),
    },
  );
  return {
    data: view,
    readContext: () => context,
    reading: () => (whole ? undefined : { members: [...members].sort(), context }),
  };
}
