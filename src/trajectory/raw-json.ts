// Edits raw JSON text in place: tool-call arguments are kept as the model wrote them, so renaming a key
// must change that key's token and nothing else (spacing, number forms and escapes stay byte for byte).
import { parseJsonText } from '../harness/parse-json-text.js';

/**
 * A JSON value parsed by `parseRawJson`, with the character span (`start` to `end`) it takes in the text,
 * so that an edit can change one token and leave the rest of the text byte for byte.
 */
export type RawJsonNode =
  | { kind: 'object'; start: number; end: number; members: RawJsonMember[] }
  | { kind: 'array'; start: number; end: number; items: RawJsonNode[] }
  | { kind: 'scalar'; start: number; end: number; value: unknown };

export interface RawJsonMember {
  key: string;
  keyStart: number;
  keyEnd: number;
  value: RawJsonNode;
}

/**
 * Parses JSON text into nodes that remember their spans; undefined when the text is not JSON.
 *
 * @example
 * parseRawJson('{"a": [1]}')?.kind // 'object'
 */
export function parseRawJson(text: string): RawJsonNode | undefined {
  if (!parseJsonText(text).ok) return undefined;
  let index = 0;
  const space = () => {
    while (index < text.length && ' \t\n\r'.includes(text[index] as string)) index++;
  };
  const string = (): { value: string; start: number; end: number } => {
    const start = index;
    index++;
    while (text[index] !== '"') index += text[index] === '\\' ? 2 : 1;
    index++;
    return { value: JSON.parse(text.slice(start, index)) as string, start, end: index };
  };
  const value = (): RawJsonNode => {
    space();
    const start = index;
    const char = text[index];
    if (char === '{') {
      index++;
      const members: RawJsonMember[] = [];
      space();
      if (text[index] === '}') {
        index++;
        return { kind: 'object', start, end: index, members };
      }
      for (;;) {
        space();
        const key = string();
        space();
        index++; // ':'
        const node = value();
        members.push({ key: key.value, keyStart: key.start, keyEnd: key.end, value: node });
        space();
        if (text[index++] === '}') return { kind: 'object', start, end: index, members };
      }
    }
    if (char === '[') {
      index++;
      const items: RawJsonNode[] = [];
      space();
      if (text[index] === ']') {
        index++;
        return { kind: 'array', start, end: index, items };
      }
      for (;;) {
        items.push(value());
        space();
        if (text[index++] === ']') return { kind: 'array', start, end: index, items };
      }
    }
    if (char === '"') {
      const token = string();
      return { kind: 'scalar', start, end: token.end, value: token.value };
    }
    const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(
      text.slice(index, index + 400),
    );
    index += (literal as RegExpExecArray)[0].length;
    return { kind: 'scalar', start, end: index, value: JSON.parse(text.slice(start, index)) };
  };
  return value();
}

/** A replacement of the span `[start, end)` by `text`. */
export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

/**
 * Applies non-overlapping edits to a text.
 *
 * @example
 * applyEdits('abc', [{ start: 1, end: 2, text: 'X' }]) // 'aXc'
 */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => a.start - b.start);
  let out = '';
  let cursor = 0;
  for (const edit of sorted) {
    if (edit.start < cursor) throw new RangeError('overlapping edits');
    out += text.slice(cursor, edit.start) + edit.text;
    cursor = edit.end;
  }
  return out + text.slice(cursor);
}

/**
 * Visits every object member whose path matches; a path is a list of keys where `[]` stands for any array item.
 *
 * @example
 * membersAt(parseRawJson('{"a":{"b":1}}')!, ['a']) // the member "b" of a's object
 */
export function membersAt(node: RawJsonNode, path: readonly string[]): RawJsonMember[] {
  if (path.length === 0) return node.kind === 'object' ? node.members : [];
  const [head, ...rest] = path;
  if (head === '[]') return node.kind === 'array' ? node.items.flatMap((item) => membersAt(item, rest)) : [];
  if (node.kind !== 'object') return [];
  return node.members
    .filter((member) => member.key === head)
    .flatMap((member) => membersAt(member.value, rest));
}

/**
 * Renames object keys in raw JSON text. Each rename names the path of the object that holds the key
 * (`[]` for array items); only the key tokens change. Returns undefined when the text is not JSON.
 *
 * @example
 * renameJsonKeys('{"link_id": 7}', [{ path: [], from: 'link_id', to: 'item' }]) // '{"item": 7}'
 */
export function renameJsonKeys(
  text: string,
  renames: ReadonlyArray<{ path: readonly string[]; from: string; to: string }>,
): string | undefined {
  const root = parseRawJson(text);
  if (!root) return undefined;
  const edits: TextEdit[] = [];
  for (const rename of renames) {
    for (const member of membersAt(root, rename.path)) {
      if (member.key === rename.from)
        edits.push({ start: member.keyStart, end: member.keyEnd, text: JSON.stringify(rename.to) });
    }
  }
  return applyEdits(text, edits);
}

/**
 * Replaces string values at object keys in raw JSON text through a map (e.g. a skill id argument).
 * Returns undefined when the text is not JSON.
 *
 * @example
 * mapJsonStringValues('{"skill_id":"a"}', [], 'skill_id', (value) => value.toUpperCase()) // '{"skill_id":"A"}'
 */
export function mapJsonStringValues(
  text: string,
  path: readonly string[],
  key: string,
  map: (value: string) => string,
): string | undefined {
  const root = parseRawJson(text);
  if (!root) return undefined;
  const edits: TextEdit[] = [];
  for (const member of membersAt(root, path)) {
    if (member.key !== key || member.value.kind !== 'scalar' || typeof member.value.value !== 'string')
      continue;
    const mapped = map(member.value.value);
    if (mapped !== member.value.value)
      edits.push({ start: member.value.start, end: member.value.end, text: JSON.stringify(mapped) });
  }
  return applyEdits(text, edits);
}
