// The text of a harness file after a build: a new file is written whole; an existing YAML file is edited
// in place, so that its comments, layout and every item no source changed keep their bytes (a diff of the
// file shows what the sources changed, nothing else); an existing JSON file keeps every value it holds as
// written and is printed again. Whatever the path, the text is read back and must give the built harness,
// else the file is written whole.
import YAML, { isMap, isPair, isScalar, isSeq, type Pair, type YAMLMap, type YAMLSeq } from 'yaml';
import { sameCanonicalJson } from '../canonical-json.js';
import { parseDocument } from '../documents.js';
import { safeParseHarness } from '../parse-harness.js';
import type { Harness } from '../schema.js';
import { stringifyYaml } from '../yaml-text.js';
import { type BuildListName, buildListNames } from './build-record.js';
import { listPaths, type MergedHarness } from './merge-harness.js';

const yamlOptions = { lineWidth: 0, aliasDuplicateObjects: false } as const;

/** A new harness file's text, as `hsa import` writes one. */
export function newHarnessText(harness: Harness, format: 'json' | 'yaml'): string {
  return format === 'yaml' ? stringifyYaml(harness, yamlOptions) : `${JSON.stringify(harness, null, 2)}\n`;
}

/**
 * The text of an existing harness file with a build's result in it, and whether its layout was kept.
 *
 * @example
 * const { text, layoutKept } = updatedHarnessText(before, 'yaml', merged);
 */
export function updatedHarnessText(
  before: string,
  format: 'json' | 'yaml',
  merged: Pick<MergedHarness, 'harness' | 'entries'>,
): { text: string; layoutKept: boolean } {
  let text: string | undefined;
  try {
    text = format === 'yaml' ? editedYaml(before, merged) : editedJson(before, merged);
  } catch {
    text = undefined;
  }
  if (text !== undefined && readsAs(text, format, merged.harness)) return { text, layoutKept: true };
  return { text: newHarnessText(merged.harness, format), layoutKept: false };
}

function readsAs(text: string, format: 'json' | 'yaml', harness: Harness): boolean {
  try {
    const parsed = safeParseHarness(parseDocument(text, { format }).value);
    return parsed.success && sameCanonicalJson(parsed.data, harness);
  } catch {
    return false;
  }
}

/** JSON: the values the file holds, lists merged (kept items as the file writes them), printed again. */
function editedJson(before: string, merged: Pick<MergedHarness, 'harness' | 'entries'>): string {
  const value = parseDocument(before, { format: 'json' }).value as Record<string, Record<string, unknown>>;
  for (const name of buildListNames) {
    const [part, list] = listPaths[name];
    const old = (value[part]?.[list] ?? []) as unknown[];
    value[part]![list] = merged.entries[name].map((entry) =>
      'kept' in entry ? old[entry.kept] : entry.item,
    );
  }
  const root = value as Record<string, unknown>;
  root.id = merged.harness.id;
  if (merged.harness.description !== undefined) root.description = merged.harness.description;
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** One replacement of the text between two offsets. */
interface Edit {
  start: number;
  end: number;
  text: string;
}

/** YAML: the lists' changed stretches and the id and description rewritten; every other byte kept. */
function editedYaml(before: string, merged: Pick<MergedHarness, 'harness' | 'entries'>): string {
  const document = YAML.parseDocument(before, { uniqueKeys: true });
  const root = document.contents;
  if (!isMap(root) || root.flow) throw new Error('the harness is not a block mapping');
  const edits: Edit[] = [];
  for (const name of buildListNames) edits.push(...listEdits(before, document, name, merged.entries[name]));
  edits.push(...scalarEdits(before, root, 'id', merged.harness.id));
  if (merged.harness.description !== undefined)
    edits.push(...scalarEdits(before, root, 'description', merged.harness.description));
  let text = before;
  for (const edit of edits.sort((a, b) => b.start - a.start))
    text = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
  return text;
}

function unchangedList(entries: MergedHarness['entries'][BuildListName], length: number): boolean {
  return (
    entries.length === length && entries.every((entry, index) => 'kept' in entry && entry.kept === index)
  );
}

function listEdits(
  text: string,
  document: YAML.Document.Parsed,
  name: BuildListName,
  entries: MergedHarness['entries'][BuildListName],
): Edit[] {
  const [part, list] = listPaths[name];
  const partNode = document.get(part, true);
  if (!isMap(partNode)) throw new Error(`${part} is not a mapping`);
  const pair = partNode.items.find((item) => isScalar(item.key) && item.key.value === list);
  const sequence = pair?.value;
  if (!pair || !isSeq(sequence)) throw new Error(`${part}.${list} is not a list`);
  if (unchangedList(entries, sequence.items.length)) return [];
  if (sequence.flow || sequence.items.length === 0) return [flowListEdit(text, partNode, pair, entries)];
  const items = sequence.items as Array<{ range?: [number, number, number] | null }>;
  // An item's stretch starts at the comment lines right above it (they describe it) and ends with its line.
  const spans = items.map((item) => {
    if (!item.range) throw new Error('an item without a position');
    const line = lineStart(text, item.range[0]);
    return { lead: commentStart(text, line), line, end: lineEnd(text, item.range[1]) };
  });
  const first = spans[0]!;
  const last = spans.at(-1)!;
  if (entries.length === 0) {
    // `items:` and its entries become `items: []`.
    const keyEnd = text.indexOf('\n', (pair.key as { range: [number, number, number] }).range[1]);
    return [{ start: keyEnd, end: last.end - 1, text: ' []' }];
  }
  const indent = text.slice(first.line, text.indexOf('-', first.line)).length;
  const pieces: string[] = [];
  for (const entry of entries) {
    const original = 'kept' in entry ? entry.kept : entry.replaces;
    if (original === undefined) {
      pieces.push(blockItem(entry.item, indent));
      continue;
    }
    const span = spans[original]!;
    // The blank lines before an original item stand before it still; a new item goes in ahead of them.
    if (original > 0) pieces.push(text.slice(spans[original - 1]!.end, span.lead));
    pieces.push(
      'kept' in entry
        ? text.slice(span.lead, span.end)
        : text.slice(span.lead, span.line) + blockItem(entry.item, indent),
    );
  }
  return [{ start: first.lead, end: last.end, text: pieces.join('') }];
}

/** The start of the comment lines right above the line at `line` (`line` itself when there are none). */
function commentStart(text: string, line: number): number {
  let start = line;
  while (start > 0) {
    const previous = lineStart(text, start - 1);
    if (!/^[ \t]*#/.test(text.slice(previous, start))) break;
    start = previous;
  }
  return start;
}

/** A flow or empty list becomes a block list under its key (the part mapping must be a block one). */
function flowListEdit(
  text: string,
  partNode: YAMLMap,
  pair: Pair,
  entries: MergedHarness['entries'][BuildListName],
): Edit {
  const sequence = pair.value as YAMLSeq;
  const key = pair.key as { range?: [number, number, number] | null };
  if (partNode.flow || !key.range || !sequence.range) throw new Error('a flow mapping');
  const indent = key.range[0] - lineStart(text, key.range[0]) + 2;
  const old = sequence.toJSON() as unknown[];
  const items = entries.map((entry) => ('kept' in entry ? old[entry.kept] : entry.item));
  if (items.length === 0) return { start: sequence.range[0], end: sequence.range[1], text: '[]' };
  // From right after `key:` (no blank left at the end of its line) to the end of the flow list.
  let start = sequence.range[0];
  while (start > 0 && (text[start - 1] === ' ' || text[start - 1] === '\t')) start--;
  const block = items.map((item) => blockItem(item, indent)).join('');
  return { start, end: sequence.range[1], text: `\n${block.replace(/\n$/, '')}` };
}

/** A top-level scalar replaced (or added after `id`) when its value differs. */
function scalarEdits(text: string, root: YAMLMap, key: string, value: string): Edit[] {
  const pair = root.items.find((item) => isPair(item) && isScalar(item.key) && item.key.value === key);
  const written = stringifyYaml({ [key]: value }, yamlOptions);
  if (!pair) {
    const after = root.items.find((item) => isScalar(item.key) && item.key.value === 'id');
    const node = after?.value as { range?: [number, number, number] | null } | undefined;
    if (!node?.range) throw new Error(`no place for ${key}`);
    const at = lineEnd(text, node.range[1]);
    return [{ start: at, end: at, text: written }];
  }
  const node = pair.value as { value?: unknown; range?: [number, number, number] | null };
  if (isScalar(node) && node.value === value) return [];
  const keyNode = pair.key as { range?: [number, number, number] | null };
  if (!keyNode.range || !node.range) throw new Error(`${key} without a position`);
  return [{ start: lineStart(text, keyNode.range[0]), end: lineEnd(text, node.range[1]), text: written }];
}

/** An item as a block list entry at `indent` spaces. */
function blockItem(item: unknown, indent: number): string {
  const pad = ' '.repeat(indent);
  return stringifyYaml([item], yamlOptions)
    .split('\n')
    .map((line) => (line.length > 0 ? pad + line : line))
    .join('\n');
}

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** The offset after the line break that ends the line of `offset - 1` (or the text's end). */
function lineEnd(text: string, offset: number): number {
  if (offset > 0 && text[offset - 1] === '\n') return offset;
  const next = text.indexOf('\n', offset);
  return next < 0 ? text.length : next + 1;
}
