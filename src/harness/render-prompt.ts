// Renders the system prompt: each section's template over the harness and the request context, under a
// heading in the pipeline's heading style, sections joined by a blank line.

import { BoundedCache } from './bounded-cache.js';
import { HarnessAugmentError } from './issues.js';
import { objectNumber } from './object-number.js';
import type { Harness, HeadingStyle, ListStyle, PromptSection } from './schema.js';
import { renderTemplate } from './template-engine.js';
import { stringifyYaml } from './yaml-text.js';

/** Request context: free data the templates read as `context.*` (room state, products, history, …). */
export type RequestContext = Record<string, unknown>;

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
      return rows.map((row) => `- ${label(row)}: ${row.description}`).join('\n');
    case 'numbered':
      return rows.map((row, index) => `${index + 1}. ${label(row)}: ${row.description}`).join('\n');
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
const yamlLists = new Map<string, string>();
const yamlListCacheSize = 2_048;

/**
 * The data every section template sees. `skills` and `tools` are the harness's lists in order,
 * `loader` names the skill-loading tool, `hooks` holds the enabled hooks, and `skillList` / `toolList` are
 * those lists already rendered in the prompt's `listStyle`.
 */
export function templateData(harness: Harness, context: RequestContext) {
  const style = harness.prompt.listStyle;
  return {
    harness: { id: harness.id, description: harness.description ?? '' },
    skills: harness.skills.items,
    loader: harness.skills.loader,
    tools: harness.tools.items,
    hooks: harness.hooks.items.filter((hook) => hook.enabled),
    skillList: formatList(
      style,
      harness.skills.items.map((skill) => ({
        name: skill.id,
        kind: skill.kind,
        description: skill.description,
      })),
    ),
    toolList: formatList(
      style,
      harness.tools.items.map((tool) => ({ name: tool.name, description: tool.description })),
    ),
    context,
  };
}

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
  const index = harness.prompt.sections.indexOf(section);
  try {
    return renderTemplate(section.template, templateData(harness, context)).trim();
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
  const key = `${objectNumber(harness)}\u0000${JSON.stringify(context)}`;
  const cached = rendered.get(key);
  if (cached !== undefined) return cached;
  return rendered.set(key, renderPrompt(harness, context));
}

const rendered = new BoundedCache<string, string>(
  8 << 20,
  (key, prompt) => 2 * (key.length + prompt.length) + 64,
);
function renderPrompt(harness: Harness, context: RequestContext): string {
  return harness.prompt.sections
    .map((section, index) =>
      formatSection(
        harness.prompt.headingStyle,
        section,
        index + 1,
        renderSection(harness, section, context),
      ),
    )
    .join('\n\n');
}
