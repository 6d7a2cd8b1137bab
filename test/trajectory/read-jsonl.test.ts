// readJsonl keeps every rule of a JSONL line (syntax with the column, duplicate keys, nesting, `__proto__`
// keys) while the project's JavaScript scanner runs only on the lines that need its answer.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { findJsonSyntaxError } from '../../src/harness/json-syntax.js';
import { type JsonlRecord, readJsonl } from '../../src/trajectory/read-jsonl.js';

// The real scanner, wrapped so that the test can count its runs.
vi.mock('../../src/harness/json-syntax.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/harness/json-syntax.js')>();
  return { ...actual, findJsonSyntaxError: vi.fn(actual.findJsonSyntaxError) };
});
const scans = vi.mocked(findJsonSyntaxError);

async function readAll(file: string): Promise<JsonlRecord[]> {
  const records: JsonlRecord[] = [];
  for await (const record of readJsonl(file)) records.push(record);
  return records;
}

describe('readJsonl', () => {
  beforeEach(() => scans.mockClear());

  it('reads a file of valid lines without running the scanner on any', async () => {
    const file = 'fixtures/livestream/trajectories.jsonl';
    const records = await readAll(file);
    const lines = readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '');
    expect(records).toHaveLength(lines.length);
    expect(records.every((record) => 'value' in record)).toBe(true);
    expect(records.map((record) => ('value' in record ? record.value : undefined))).toEqual(
      lines.map((line) => JSON.parse(line)),
    );
    expect(scans).not.toHaveBeenCalled();
  });

  it('refuses duplicate keys, deep nesting, bad JSON and __proto__ keys with line, column and rule', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'hsa-read-jsonl-')), 'rows.jsonl');
    writeFileSync(
      file,
      [
        '{"id":"ok","messages":[]}',
        '{"id":"a","meta":{"k":1,"k":2}}',
        `{"deep":${'['.repeat(300)}${']'.repeat(300)}}`,
        '{"id": }',
        '',
        '{"a":{"__proto__":{"polluted":true}}}',
        '{"a":{"\\u005f_proto__":1}}',
        '{"id":"last"}',
      ].join('\n'),
    );
    const records = await readAll(file);
    expect(records).toEqual([
      { line: 1, value: { id: 'ok', messages: [] } },
      {
        line: 2,
        issue: {
          code: 'syntax_error',
          path: [],
          message: 'invalid JSON at column 25: duplicate key "k"',
          line: 2,
          file,
        },
      },
      {
        line: 3,
        issue: {
          code: 'syntax_error',
          path: [],
          message: 'invalid JSON at column 264: nesting deeper than 256 levels is not allowed',
          line: 3,
          file,
        },
      },
      {
        line: 4,
        issue: {
          code: 'syntax_error',
          path: [],
          message: 'invalid JSON at column 8: expected a value',
          line: 4,
          file,
        },
      },
      {
        line: 6,
        issue: {
          code: 'forbidden_key',
          path: ['a', '__proto__'],
          message: 'the key "__proto__" is not allowed',
          line: 6,
          file,
        },
      },
      {
        line: 7,
        issue: {
          code: 'forbidden_key',
          path: ['a', '__proto__'],
          message: 'the key "__proto__" is not allowed',
          line: 7,
          file,
        },
      },
      { line: 8, value: { id: 'last' } },
    ]);
    // The scanner ran for the three lines it refuses, and for no other.
    expect(scans).toHaveBeenCalledTimes(3);
  });
});
