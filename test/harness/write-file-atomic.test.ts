// `openAtomicFile`: a temporary gathers its lines into chunks and appears whole, under its name, only on
// commit; a pipe is written line by line, so its reader sees each line as it is written.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openAtomicFile } from '../../src/harness/write-file-atomic.js';

const readerReady = (pid: number, path: string) => {
  try {
    if (readFileSync(`/proc/${pid}/wchan`, 'utf8') === 'wait_for_partner') return true;
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`) === path;
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
};
const folder = () => mkdtempSync(join(tmpdir(), 'hsa-atomic-'));

describe('openAtomicFile', () => {
  it('writes every line of a file far larger than a chunk, in order, and only on commit', async () => {
    const dir = folder();
    const file = join(dir, 'rows.jsonl');
    const out = await openAtomicFile(file);
    const lines: string[] = [];
    // Lines of varied lengths (one longer than a chunk) cross the chunk boundary at every offset.
    for (let index = 0; index < 5_000; index++) {
      const line = `${JSON.stringify({ index, text: 'é'.repeat(index % 97), long: index === 2_500 ? 'x'.repeat(70_000) : '' })}\n`;
      lines.push(line);
      await out.write(line);
    }
    expect(existsSync(file)).toBe(false);
    await out.commit();
    expect(readFileSync(file, 'utf8')).toBe(lines.join(''));
    expect(readdirSync(dir)).toEqual(['rows.jsonl']);
  });

  it('leaves nothing behind when aborted with lines still gathered', async () => {
    const dir = folder();
    const out = await openAtomicFile(join(dir, 'rows.jsonl'));
    await out.write('{"a":1}\n');
    await out.abort();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('hands a pipe each line when it is written, before commit', async () => {
    const dir = folder();
    const fifo = join(dir, 'pipe');
    await new Promise<void>((resolve, reject) =>
      spawn('mkfifo', [fifo]).on('exit', (code) =>
        code === 0 ? resolve() : reject(new Error(`mkfifo ${code}`)),
      ),
    );
    const reader = spawn('head', ['-n', '1', fifo]);
    const exited = new Promise((resolve) => reader.on('exit', resolve));
    let seen = '';
    reader.stdout.on('data', (chunk) => {
      seen += chunk;
    });
    // Only once `head` is in its open of the pipe (blocked there until a writer comes, Linux: its wchan)
    // or has it open is there a reader to find; 5 s at most, then the write below says what is wrong.
    for (let waited = 0; waited < 5_000 && !readerReady(reader.pid as number, fifo); waited += 10)
      await new Promise((resolve) => setTimeout(resolve, 10));
    const out = await openAtomicFile(fifo);
    await out.write('{"first":true}\n');
    // `head` exits once it has read the first line: the line was not held back for a chunk.
    await exited;
    expect(seen).toBe('{"first":true}\n');
    await out.abort();
  });
});
