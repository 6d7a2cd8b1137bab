// The one guard every input file goes through: only a regular file is read (a FIFO, `/dev/zero` or
// `/dev/urandom` would be read forever), its bytes must be UTF-8 (invalid bytes are refused with their
// place, never turned into U+FFFD), and a line of a line-oriented file is at most `maxLineBytes` long (a
// longer one is a located issue, skipped without being held in memory).
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { HarnessAugmentError, type Issue } from './issues.js';

/** The longest line a JSONL input may have: 64 MiB. */
export const maxLineBytes = 64 * 1024 * 1024;

/**
 * Throws a `usage` error naming `file` unless it is a regular file (symbolic links are followed).
 *
 * @example
 * await assertInputFile('trajectories.jsonl')
 */
export async function assertInputFile(file: string): Promise<void> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(file);
  } catch (error) {
    throw cannotReadInput(file, error);
  }
  if (info.isFile()) return;
  if (info.isDirectory())
    throw cannotReadInput(file, Object.assign(new Error('a folder'), { code: 'EISDIR' }));
  const kind = info.isFIFO()
    ? 'a FIFO'
    : info.isCharacterDevice()
      ? 'a character device'
      : info.isSocket()
        ? 'a socket'
        : 'a block device';
  throw new HarnessAugmentError(`${file}: cannot read: it is ${kind}, not a regular file`, { kind: 'usage' });
}

/**
 * The one-line `usage` error for a file that cannot be read.
 *
 * @example
 * throw cannotReadInput('x.json', error)
 */
export function cannotReadInput(file: string, error: unknown): HarnessAugmentError {
  const code = (error as NodeJS.ErrnoException).code;
  const reason =
    code === 'ENOENT'
      ? 'no such file'
      : code === 'EISDIR'
        ? 'it is a folder, not a file'
        : code === 'EACCES' || code === 'EPERM'
          ? 'permission denied'
          : (error as Error).message;
  return new HarnessAugmentError(`${file}: cannot read: ${reason}`, { kind: 'usage', cause: error });
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The offset of the first byte that is not valid UTF-8, or undefined when all are.
 *
 * @example
 * firstInvalidUtf8(Buffer.from([0x61, 0xe9, 0x20])) // 1
 */
export function firstInvalidUtf8(bytes: Uint8Array): number | undefined {
  try {
    strictUtf8.decode(bytes);
    return undefined;
  } catch {
    // The longest prefix that decodes (binary search over prefixes; a cut sequence is fine mid-stream).
    let valid = 0;
    let high = bytes.length;
    while (valid < high) {
      const middle = Math.ceil((valid + high) / 2);
      try {
        new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, middle), { stream: true });
        valid = middle;
      } catch {
        high = middle - 1;
      }
    }
    // The prefix may end inside the bad sequence (a lead byte whose continuation never came): report its start.
    try {
      strictUtf8.decode(bytes.subarray(0, valid));
    } catch {
      let start = valid;
      while (start > 0 && valid - start < 3 && ((bytes[start - 1] as number) & 0xc0) === 0x80) start--;
      if (start > 0 && (bytes[start - 1] as number) >= 0xc0) start--;
      return start;
    }
    return valid;
  }
}

/** One line of a line-oriented input: its text, or why it has none. */
/**
 * One line's bytes as text, or where it stops being UTF-8: every reader of lines decodes through here, so
 * that no byte turns silently into U+FFFD.
 *
 * @example
 * decodeLine(Buffer.from([0x61, 0xff])) // { invalid: 'invalid UTF-8 at column 2 (byte 0xff)' }
 */
export function decodeLine(bytes: Buffer): { text: string } | { invalid: string } {
  const invalid = firstInvalidUtf8(bytes);
  if (invalid === undefined) return { text: bytes.toString('utf8') };
  const column = bytes.subarray(0, invalid).toString('utf8').length + 1;
  return { invalid: `invalid UTF-8 at column ${column} (byte 0x${(bytes[invalid] ?? 0).toString(16)})` };
}

export type InputLine = { line: number; text: string } | { line: number; issue: Issue };

/**
 * Reads a regular file line by line (1-based numbers; `\n` or `\r\n`), in bounded memory: a line that is
 * not UTF-8 or longer than `limit` bytes becomes an issue with its line, and reading goes on.
 *
 * @example
 * for await (const entry of readInputLines('rows.jsonl')) if ('text' in entry) use(entry.text);
 */
export async function* readInputLines(file: string, limit = maxLineBytes): AsyncGenerator<InputLine> {
  await assertInputFile(file);
  const stream = createReadStream(file);
  await new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', (error) => reject(cannotReadInput(file, error)));
  });
  let parts: Buffer[] = [];
  let held = 0;
  let tooLong = false;
  let line = 0;
  const finish = (): InputLine => {
    line++;
    const bytes = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, held);
    const wasTooLong = tooLong;
    parts = [];
    held = 0;
    tooLong = false;
    if (wasTooLong)
      return { line, issue: issue('line_too_long', `line longer than ${limit} bytes, the limit of a line`) };
    const end = bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.length - 1 : bytes.length;
    const decoded = decodeLine(bytes.subarray(0, end));
    return 'text' in decoded
      ? { line, text: decoded.text }
      : { line, issue: issue('invalid_utf8', decoded.invalid) };
  };
  const issue = (code: string, message: string): Issue => ({ code, path: [], message, file, line });
  const take = (chunk: Buffer) => {
    if (tooLong) return;
    if (held + chunk.length > limit) {
      tooLong = true;
      parts = [];
      held = 0;
      return;
    }
    parts.push(chunk);
    held += chunk.length;
  };
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      let start = 0;
      for (let newline = chunk.indexOf(0x0a); newline !== -1; newline = chunk.indexOf(0x0a, start)) {
        take(chunk.subarray(start, newline));
        yield finish();
        start = newline + 1;
      }
      if (start < chunk.length) take(chunk.subarray(start));
    }
  } catch (error) {
    if (error instanceof HarnessAugmentError) throw error;
    throw cannotReadInput(file, error);
  } finally {
    stream.destroy();
  }
  if (held > 0 || tooLong) yield finish();
}
