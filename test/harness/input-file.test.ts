// The input guard: only regular files are read; a line-oriented file is read in bounded memory, and a line
// that is not UTF-8 or longer than the limit is an issue with its line while the other lines are read.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  assertInputFile,
  type InputLine,
  maxLineBytes,
  readInputLines,
} from '../../src/harness/input-file.js';

const folder = mkdtempSync(join(tmpdir(), 'hsa-input-file-'));

async function lines(file: string, limit?: number): Promise<InputLine[]> {
  const found: InputLine[] = [];
  for await (const entry of readInputLines(file, limit)) found.push(entry);
  return found;
}

describe('assertInputFile', () => {
  it('refuses a FIFO, a character device and a folder, naming what it is', async () => {
    const fifo = join(folder, 'input.fifo');
    execFileSync('mkfifo', [fifo]);
    await expect(assertInputFile(fifo)).rejects.toThrow(
      `${fifo}: cannot read: it is a FIFO, not a regular file`,
    );
    await expect(assertInputFile('/dev/zero')).rejects.toThrow(
      '/dev/zero: cannot read: it is a character device, not a regular file',
    );
    await expect(assertInputFile(folder)).rejects.toThrow(
      `${folder}: cannot read: it is a folder, not a file`,
    );
    await expect(assertInputFile(join(folder, 'none'))).rejects.toThrow('cannot read: no such file');
  });
});

describe('readInputLines', () => {
  it('splits on \\n and \\r\\n, numbers lines from 1, keeps a last line without a newline', async () => {
    const file = join(folder, 'plain.jsonl');
    writeFileSync(file, 'a\r\nbé\n\nc');
    expect(await lines(file)).toEqual([
      { line: 1, text: 'a' },
      { line: 2, text: 'bé' },
      { line: 3, text: '' },
      { line: 4, text: 'c' },
    ]);
  });

  it('invalid UTF-8 is an issue with the line and column; the next lines are read', async () => {
    const file = join(folder, 'latin1.jsonl');
    writeFileSync(
      file,
      Buffer.concat([Buffer.from('{"a":1}\n{"a":"caf'), Buffer.from([0xe9]), Buffer.from('"}\n{"a":3}\n')]),
    );
    expect(await lines(file)).toEqual([
      { line: 1, text: '{"a":1}' },
      {
        line: 2,
        issue: {
          code: 'invalid_utf8',
          path: [],
          message: 'invalid UTF-8 at column 10 (byte 0xe9)',
          file,
          line: 2,
        },
      },
      { line: 3, text: '{"a":3}' },
    ]);
  });

  it('a line over the limit is an issue, skipped without being held; the line after it is read', async () => {
    const file = join(folder, 'long.jsonl');
    writeFileSync(file, `short\n${'x'.repeat(200_000)}\nafter\n`);
    expect(await lines(file, 1024)).toEqual([
      { line: 1, text: 'short' },
      {
        line: 2,
        issue: {
          code: 'line_too_long',
          path: [],
          message: 'line longer than 1024 bytes, the limit of a line',
          file,
          line: 2,
        },
      },
      { line: 3, text: 'after' },
    ]);
    expect(maxLineBytes).toBe(64 * 1024 * 1024);
  });
});
