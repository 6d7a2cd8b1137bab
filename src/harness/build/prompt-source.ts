// A prompt source of `hsa harness build`: the system prompt sections a file gives. A YAML or JSON file holds
// sections as the harness format writes them (a list, or `{ sections: [...] }`); a Markdown or text file is
// a written system prompt, cut into sections at its `## ` headings.
import { decodeUtf8, locateIssues, parseDocument, readFileBytes } from '../documents.js';
import type { Issue } from '../issues.js';
import { type PromptSection, PromptSectionSchema } from '../schema.js';
import { type ItemsSource, itemsOfList } from './source-list.js';

/** Files read as a written prompt rather than as data. */
const textPrompt = /\.(md|markdown|txt)$/i;

/**
 * Reads the sections of a prompt file, or every issue found (with the file and line).
 *
 * @example
 * const read = await readPromptSource('prompt.md'); // { sections: [{ id: 'role', … }, { id: 'policy', … }] }
 */
export async function readPromptSource(file: string): Promise<ItemsSource<PromptSection>> {
  const text = decodeUtf8(await readFileBytes(file), file).replace(/^\uFEFF/, '');
  if (textPrompt.test(file)) return sectionsFromMarkdown(text, file);
  const document = parseDocument(text, { format: /\.ya?ml$/i.test(file) ? 'yaml' : 'json', file });
  const read = itemsOfList(document.value, 'sections', PromptSectionSchema, 'section');
  const { items: sections, issues } = read;
  if (sections.length === 0 && issues.length === 0)
    issues.push({ code: 'no_sections', path: read.path ?? [], message: 'the file gives no prompt section' });
  return { items: issues.length > 0 ? [] : sections, issues: locateIssues(issues, document) };
}

/**
 * A written system prompt as sections: each `## Title` line (outside code fences) starts a section whose id
 * is the title in snake case; the text before the first heading is the pinned `role` section (titled
 * "Role", or "Overview" where the file has a `## Role` of its own). The text is a template as it stands
 * (`{{context.x}}` reads the request context; `\{{` writes braces).
 *
 * @example
 * sectionsFromMarkdown('You help travellers.\n\n## Refunds\nRefund within 24 hours.\n', 'prompt.md').items
 * // [{ id: 'role', title: 'Role', … pinned: true }, { id: 'refunds', title: 'Refunds', template: 'Refund within 24 hours.', pinned: false }]
 */
export function sectionsFromMarkdown(text: string, file: string): ItemsSource<PromptSection> {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const parts: { title?: string; line: number; body: string[] }[] = [{ line: 1, body: [] }];
  let fence: string | undefined;
  lines.forEach((line, index) => {
    const opening = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (opening) {
      const marker = opening[1]!;
      if (fence === undefined) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
    }
    const heading = fence === undefined ? /^ {0,3}##[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$/.exec(line) : null;
    if (heading && !opening) parts.push({ title: heading[1]!, line: index + 1, body: [] });
    else parts.at(-1)!.body.push(line);
  });
  const issues: Issue[] = [];
  const sections: PromptSection[] = [];
  const used = new Set<string>();
  // A prompt with a role section of its own (OpenHands' `## ROLE`) would read "Role" twice: its preamble is
  // titled otherwise.
  const ownRole = parts.some((part) => part.title?.trim().toLowerCase() === 'role');
  for (const part of parts) {
    const template = part.body.join('\n').trim();
    if (part.title === undefined) {
      if (template.length > 0) {
        used.add('role');
        sections.push({ id: 'role', title: ownRole ? 'Overview' : 'Role', template, pinned: true });
      }
      continue;
    }
    const id = uniqueId(sectionId(part.title, sections.length + 1), used);
    sections.push({ id, title: part.title, template, pinned: false });
  }
  if (sections.length === 0)
    issues.push({ code: 'no_sections', path: [], file, line: 1, message: 'the prompt file is empty' });
  return { items: sections, issues };
}

/** A section id from a title: its ASCII words in snake case, or `section_<n>` when it has none. */
function sectionId(title: string, position: number): string {
  const words = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (words.length === 0) return `section_${position}`;
  return /^[a-z_]/.test(words) ? words : `section_${words}`;
}

function uniqueId(id: string, used: Set<string>): string {
  let candidate = id;
  for (let suffix = 2; used.has(candidate); suffix++) candidate = `${id}_${suffix}`;
  used.add(candidate);
  return candidate;
}
