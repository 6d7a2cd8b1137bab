// The one JSONL writer: compact or canonical lines, no line for what JSON cannot hold, atomic files.
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonLine, jsonLines, openJsonLinesFile, writeJsonLines } from '../../src/harness/json-lines.js';

const folder = mkdtempSync(join(tmpdir(), 'hsa-json-lines-'));

describe('JSONL writer', () => {
  it('writes JSON.stringify order, or canonical order on request', () => {
    expect(jsonLine({ b: 1, a: 'x\ny' })).toBe('{"b":1,"a":"x\\ny"}\n');
    expect(jsonLine({ b: 1, a: [{ d: 1, c: 2 }] }, { canonical: true })).toBe(
      '{"a":[{"c":2,"d":1}],"b":1}\n',
    );
    expect(jsonLines([1, 'two', null])).toBe('1\n"two"\nnull\n');
    expect(jsonLines([])).toBe('');
  });

  it('refuses a value JSON cannot hold instead of writing "undefined"', () => {
    expect(() => jsonLine(undefined)).toThrow(/not JSON/);
    expect(() => jsonLine(() => 1)).toThrow(/not JSON/);
  });

  it('writes files whole, and a streamed file only on commit', async () => {
    const file = join(folder, 'rows.jsonl');
    await writeJsonLines(file, [{ id: 1 }, { id: 2 }]);
    expect(readFileSync(file, 'utf8')).toBe('{"id":1}\n{"id":2}\n');
    const streamed = join(folder, 'streamed.jsonl');
    const out = await openJsonLinesFile(streamed);
    await out.write({ id: 'a' });
    expect(existsSync(streamed)).toBe(false);
    await out.commit();
    expect(readFileSync(streamed, 'utf8')).toBe('{"id":"a"}\n');
    const aborted = await openJsonLinesFile(join(folder, 'aborted.jsonl'));
    await aborted.write({ id: 'b' });
    await aborted.abort();
    expect(readdirSync(folder).sort()).toEqual(['rows.jsonl', 'streamed.jsonl']);
  });
});
