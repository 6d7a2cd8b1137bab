// A Server-Sent Events decoder (the WHATWG event-stream format) for streamed completions. Bytes arrive in
// whatever pieces TCP delivers: a piece may end inside a multi-byte UTF-8 character, between the CR and LF
// of a CRLF, or in the middle of a field. The decoder keeps the partial state, so the events it yields do
// not depend on how the bytes were split.

import { InvalidResponseError } from './response-schemas.js';

/** One dispatched event: its `data` lines joined with "\n", and `event`/`id` when the server set them. */
export interface ServerSentEvent {
  data: string;
  event?: string;
  id?: string;
}

const LF = 10;
const CR = 13;

/**
 * An incremental decoder: push byte pieces in, take complete events out, call `end()` when the body ends.
 * Comment lines (`: keep-alive`) are skipped; several `data:` lines make one event.
 *
 * @example
 * const decoder = new ServerSentEventDecoder();
 * decoder.push(new TextEncoder().encode('data: {"a":1}\n\nda'));  // [{ data: '{"a":1}' }]
 * decoder.push(new TextEncoder().encode('ta: [DONE]\n\n'));       // [{ data: '[DONE]' }]
 */
export class ServerSentEventDecoder {
  private readonly text = new TextDecoder('utf-8');
  /** Characters held for the event being read (its data lines and the open line). */
  private held = 0;

  /** @param maxEventLength the longest event, in characters of its lines, before `push` throws. */
  constructor(private readonly maxEventLength = Number.POSITIVE_INFINITY) {}
  /** The start of a line whose end has not arrived yet. */
  private partialLine = '';
  /** The previous piece ended with CR: a LF at the start of the next one belongs to it. */
  private skipLeadingLineFeed = false;
  private dataLines: string[] = [];
  private event: string | undefined;
  private id: string | undefined;

  /** Decodes one piece of the body and returns the events it completed. */
  push(bytes: Uint8Array): ServerSentEvent[] {
    return this.feed(this.text.decode(bytes, { stream: true }));
  }

  /**
   * Ends the body. A last event that the server did not close with a blank line is still dispatched:
   * stricter than needed to lose it, since some servers end with `data: [DONE]\n`.
   */
  end(): ServerSentEvent[] {
    const events = this.feed(this.text.decode());
    if (this.partialLine !== '') {
      this.line(this.partialLine, events);
      this.partialLine = '';
    }
    this.dispatch(events);
    return events;
  }

  private feed(text: string): ServerSentEvent[] {
    const events: ServerSentEvent[] = [];
    if (text === '') return events;
    let start = 0;
    if (this.skipLeadingLineFeed && text.charCodeAt(0) === LF) start = 1;
    this.skipLeadingLineFeed = false;
    for (let index = start; index < text.length; index++) {
      const code = text.charCodeAt(index);
      if (code !== LF && code !== CR) continue;
      this.line(this.partialLine + text.slice(start, index), events);
      this.partialLine = '';
      if (code === CR) {
        if (index + 1 === text.length) this.skipLeadingLineFeed = true;
        else if (text.charCodeAt(index + 1) === LF) index++;
      }
      start = index + 1;
    }
    this.partialLine += text.slice(start);
    if (this.held + this.partialLine.length > this.maxEventLength)
      throw new InvalidResponseError(
        `a stream event is larger than the client's limit of ${this.maxEventLength} bytes (maxEventBytes)`,
      );
    return events;
  }

  private line(line: string, events: ServerSentEvent[]): void {
    if (line === '') {
      this.dispatch(events);
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      this.dataLines.push(value);
      this.held += value.length + 1;
    } else if (field === 'event') this.event = value;
    else if (field === 'id') this.id = value;
    // `retry` and unknown fields are ignored, as the format requires.
  }

  private dispatch(events: ServerSentEvent[]): void {
    if (this.dataLines.length > 0) {
      const event: ServerSentEvent = { data: this.dataLines.join('\n') };
      if (this.event !== undefined) event.event = this.event;
      if (this.id !== undefined) event.id = this.id;
      events.push(event);
    }
    this.dataLines = [];
    this.held = 0;
    this.event = undefined;
  }
}

/**
 * Reads a response body as Server-Sent Events. `onRead` runs after every piece (the client uses it to
 * restart its idle timer).
 *
 * @example
 * for await (const event of readServerSentEvents(response.body)) if (event.data === '[DONE]') break;
 */
export async function* readServerSentEvents(
  body: ReadableStream<Uint8Array>,
  onRead?: () => void,
  options: { maxEventBytes?: number } = {},
): AsyncGenerator<ServerSentEvent, void, undefined> {
  const decoder = new ServerSentEventDecoder(options.maxEventBytes);
  const reader = body.getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      onRead?.();
      if (done) break;
      yield* decoder.push(value);
    }
    finished = true;
    yield* decoder.end();
  } finally {
    // The consumer stopped early (break, error): release the connection instead of draining it.
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
