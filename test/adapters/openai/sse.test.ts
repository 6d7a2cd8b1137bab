// The SSE decoder yields the same events however the bytes are split: inside a UTF-8 character, between
// CR and LF, in the middle of a field name.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  readServerSentEvents,
  type ServerSentEvent,
  ServerSentEventDecoder,
} from '../../../src/adapters/openai/sse.js';

const encoder = new TextEncoder();

function decodeIn(pieces: Uint8Array[]): ServerSentEvent[] {
  const decoder = new ServerSentEventDecoder();
  return [...pieces.flatMap((piece) => decoder.push(piece)), ...decoder.end()];
}

function splitAt(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.filter((cut) => cut > 0 && cut < bytes.length))].sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let start = 0;
  for (const point of [...points, bytes.length]) {
    pieces.push(bytes.subarray(start, point));
    start = point;
  }
  return pieces;
}

const stream = [
  ': keep-alive\r\n',
  '\r\n',
  'data: {"text":"价格 ¥99 🎉"}\r\n',
  '\r\n',
  'data: crlf one\r\n',
  'data: crlf two\r\n',
  '\r\n',
  'event: message\n',
  'data: first line\n',
  'data:second line\n',
  'id: 7\n',
  'retry: 1000\n',
  '\n',
  ': comment between events\r',
  'data: ünïcödé\r',
  '\r',
  'data: [DONE]\n',
  '\n',
].join('');

const expected: ServerSentEvent[] = [
  { data: '{"text":"价格 ¥99 🎉"}' },
  { data: 'crlf one\ncrlf two' },
  { data: 'first line\nsecond line', event: 'message', id: '7' },
  { data: 'ünïcödé', id: '7' },
  { data: '[DONE]', id: '7' },
];

describe('ServerSentEventDecoder', () => {
  it('decodes comments, multi-line data, CRLF, CR and LF line endings', () => {
    expect(decodeIn([encoder.encode(stream)])).toEqual(expected);
  });

  it('gives the same events for every split into two pieces (inside characters and CRLF included)', () => {
    const bytes = encoder.encode(stream);
    for (let cut = 1; cut < bytes.length; cut++) expect(decodeIn(splitAt(bytes, [cut]))).toEqual(expected);
  });

  it('gives the same events one byte at a time', () => {
    const bytes = encoder.encode(stream);
    expect(decodeIn(Array.from(bytes, (byte) => Uint8Array.of(byte)))).toEqual(expected);
  });

  it('gives the same events for any split into many pieces', () => {
    const bytes = encoder.encode(stream);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 40 }), (cuts) => {
        expect(decodeIn(splitAt(bytes, cuts))).toEqual(expected);
      }),
    );
  });

  it('dispatches a last event the server did not close with a blank line', () => {
    expect(decodeIn([encoder.encode('data: a\n\ndata: [DONE]')])).toEqual([
      { data: 'a' },
      { data: '[DONE]' },
    ]);
  });

  it('ignores a leading byte-order mark and events without data', () => {
    expect(decodeIn([Uint8Array.of(0xef, 0xbb, 0xbf), encoder.encode('event: ping\n\ndata: x\n\n')])).toEqual(
      [{ data: 'x' }],
    );
  });
});

describe('readServerSentEvents', () => {
  it('reads a ReadableStream and cancels it when the consumer stops early', async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode('data: 1\n\ndata: 2\n\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    const seen: string[] = [];
    for await (const event of readServerSentEvents(body)) {
      seen.push(event.data);
      break;
    }
    expect(seen).toEqual(['1']);
    expect(cancelled).toBe(true);
  });
});
