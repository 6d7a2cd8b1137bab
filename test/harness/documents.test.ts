import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLineLocator, parseDocument, readDocument } from '../../src/harness/documents.js';
import { HarnessAugmentError } from '../../src/harness/issues.js';
import { findJsonSyntaxError, lineAndColumn } from '../../src/harness/json-syntax.js';
import { loadHarnessFile } from '../../src/harness/parse-harness.js';

const errorOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (HarnessAugmentError.isInstance(error)) return error;
  }
  throw new Error('expected a HarnessAugmentError');
};

describe('documents', () => {
  it('names the line and column of a JSON syntax error', () => {
    const error = errorOf(() =>
      parseDocument('{\n  "id": "x",\n  "skills": }\n', { format: 'json', file: 'h.json' }),
    );
    expect(error.kind).toBe('usage');
    expect(error.message).toBe('h.json:3:13: invalid JSON: expected a value');
  });

  it('reads JSON Lines where asked, whatever the extension, with the line of each record', () => {
    const text = '{"name":"a"}\r\n\n{"name":"b","x":{"__proto__":1}}\n';
    const error = errorOf(() => parseDocument(text, { format: 'json', file: 't.json', jsonLines: true }));
    expect(error.issues.map(({ path, line }) => ({ path, line }))).toEqual([
      { path: [1, 'x', '__proto__'], line: 3 },
    ]);
    const read = parseDocument('{"name":"a"}\n\n  \n[2]\n', {
      format: 'json',
      file: 't.json',
      jsonLines: true,
    });
    expect(read.value).toEqual([{ name: 'a' }, [2]]);
    expect(read.recordLines).toEqual([1, 4]);
    expect(createLineLocator(read)([1, 'name'])).toBe(4);
    // Without the option, and for one value alone, a JSON file is one document as before.
    expect(errorOf(() => parseDocument('{}\n{}\n', { format: 'json', file: 't.json' })).message).toBe(
      't.json:2:1: invalid JSON: unexpected text after the JSON value',
    );
    expect(parseDocument('{"a":1}\n', { format: 'json', jsonLines: true }).recordLines).toBeUndefined();
  });

  it('names the line of a JSON Lines record that is not JSON; a broken document keeps its own error', () => {
    const bad = errorOf(() =>
      parseDocument('{"name":"a"}\n{"name":"b"}\n{"name": c}\n', {
        format: 'json',
        file: 't.json',
        jsonLines: true,
      }),
    );
    expect(bad.kind).toBe('usage');
    expect(bad.message).toBe(
      't.json:3:10: invalid JSON on line 3 of a JSON Lines file (one JSON value a line): expected a value',
    );
    expect(bad.issues[0]).toMatchObject({ code: 'syntax_error', line: 3 });
    const pretty = errorOf(() =>
      parseDocument('[\n  {"name":"a"},\n]\n', { format: 'json', file: 't.json', jsonLines: true }),
    );
    expect(pretty.message).toMatch(/^t\.json:3:1: invalid JSON: /);
  });

  it('names the line and column of a YAML syntax error', () => {
    const error = errorOf(() =>
      parseDocument('id: x\nskills: [a,\ntools: 1\n', { format: 'yaml', file: 'h.yaml' }),
    );
    expect(error.kind).toBe('usage');
    expect(error.message).toMatch(/^h\.yaml:3:1: invalid YAML: /);
  });

  it('refuses duplicate YAML keys', () => {
    expect(errorOf(() => parseDocument('id: a\nid: b\n', { format: 'yaml' })).message).toMatch(/unique/i);
  });

  it('refuses __proto__ keys with their path and line', () => {
    const error = errorOf(() =>
      parseDocument('{"a": {\n"__proto__": {"x": 1}}}', { format: 'json', file: 'p.json' }),
    );
    expect(error.issues).toEqual([
      {
        code: 'forbidden_key',
        path: ['a', '__proto__'],
        message: 'the key "__proto__" is not allowed',
        file: 'p.json',
        line: 2,
      },
    ]);
  });

  it('reports a missing file as a usage error', async () => {
    await expect(readDocument('/nonexistent/harness.yaml')).rejects.toMatchObject({
      kind: 'usage',
      message: '/nonexistent/harness.yaml: cannot read: no such file',
    });
  });

  it('locates JSON paths in YAML and JSON text', () => {
    const yaml = createLineLocator({ text: 'a:\n  b:\n    - 1\n    - c: 2\n', format: 'yaml' });
    expect(yaml(['a', 'b', 1, 'c'])).toBe(4);
    expect(yaml(['a', 'missing'])).toBe(2);
    const json = createLineLocator({ text: '{\n "a": [\n  1,\n  2\n ]\n}', format: 'json' });
    expect(json(['a', 1])).toBe(4);
  });

  it('attaches file and line to harness issues', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'hsa-'));
    const file = join(folder, 'h.yaml');
    writeFileSync(
      file,
      'id: x\nskills:\n  version: "1"\n  items: []\nhooks: { version: "1", items: [] }\nprompt:\n  version: "1"\n  sections: []\ntools: { version: "1", items: [] }\n',
    );
    await expect(loadHarnessFile(file)).rejects.toMatchObject({
      kind: 'invalid',
      issues: [{ code: 'too_small', path: ['prompt', 'sections'], file, line: 8 }],
    });
  });
});

describe('findJsonSyntaxError', () => {
  it('agrees with JSON.parse on arbitrary text (property)', () => {
    const jsonish = fc.oneof(
      fc.json(),
      fc.json().map((text) => text.slice(0, Math.max(0, text.length - 1))),
      fc.string({
        unit: fc.constantFrom(
          '{',
          '}',
          '[',
          ']',
          ':',
          ',',
          '"',
          '1',
          'a',
          ' ',
          '\\',
          'n',
          'u',
          'e',
          '-',
          '.',
        ),
      }),
    );
    fc.assert(
      fc.property(jsonish, (text) => {
        let valid = true;
        try {
          JSON.parse(text);
        } catch {
          valid = false;
        }
        expect(findJsonSyntaxError(text) === undefined).toBe(valid);
      }),
      { numRuns: 500 },
    );
  });

  it('converts offsets to lines and columns', () => {
    expect(lineAndColumn('ab\ncd\ne', 4)).toEqual({ line: 2, column: 2 });
  });
});
