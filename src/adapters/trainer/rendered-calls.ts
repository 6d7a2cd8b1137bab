// What a chat template's rendering of a row must show: every call, in order, with the row's arguments
// verbatim (located when not), no argument encoded twice, and the roles in the order templates accept.
import { truncateText } from '../../harness/issues.js';

/**
 * The conversation with each call's name and arguments replaced by numbered probes of the same type (a
 * mapping stays a mapping, JSON text stays JSON text), so that a rendering shows whether each call made
 * it into the text, and whether its arguments were encoded once.
 *
 * @example
 * probeCalls(messages).messages[2].tool_calls[0].function // { name: 'hsaprobe0fn', arguments: { hsaprobekey: 'hsaprobeval0' } }
 */
export function probeCalls(messages: ReadonlyArray<Record<string, unknown>>): {
  messages: Array<Record<string, unknown>>;
  count: number;
} {
  let count = 0;
  const probed = messages.map((message) => {
    if (!Array.isArray(message.tool_calls)) return message;
    return {
      ...message,
      tool_calls: message.tool_calls.map((call: { function: { arguments: unknown } }) => {
        const args = { hsaprobekey: `hsaprobeval${count}` };
        const probe = {
          ...call,
          function: {
            name: `hsaprobe${count}fn`,
            arguments: typeof call.function.arguments === 'string' ? JSON.stringify(args) : args,
          },
        };
        count++;
        return probe;
      }),
    };
  });
  return { messages: probed, count };
}

/**
 * What a rendering of probed calls shows wrong: a call missing from the text, or arguments encoded twice
 * (a JSON string passed through `tojson` comes out with escaped quotes); undefined when nothing is.
 *
 * @example
 * probeProblem('{"name": "hsaprobe0fn", "arguments": "{\\"hsaprobekey\\": …}"}', 1) // 'arguments encoded twice …'
 */
export function probeProblem(text: string, count: number): string | undefined {
  for (let index = 0; index < count; index++) {
    if (!text.includes(`hsaprobe${index}fn`))
      return 'a tool call is missing from the rendered text (the template dropped it)';
    if (!text.includes(`hsaprobeval${index}`))
      return "a tool call's arguments are missing from the rendered text";
  }
  if (/\\+"hsaprobe(key|val)/.test(text))
    return 'arguments encoded twice: the template quotes JSON text again (export arguments as mappings for it)';
  return undefined;
}

/** A JSON value written out with its keys sorted, so that two encodings of one value compare equal. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

/** The JSON object or array that starts at `start` (balanced brackets, strings respected), parsed; undefined if none. */
function jsonAt(text: string, start: number): { value: unknown; end: number } | undefined {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{' || char === '[') depth++;
    else if (char === '}' || char === ']') {
      depth--;
      if (depth === 0) {
        try {
          return { value: JSON.parse(text.slice(start, index + 1)), end: index + 1 };
        } catch {
          return undefined;
        }
      }
    }
  }
  return undefined;
}

/** Scalars of a JSON value, as text: what must show up when a template writes a mapping in its own syntax. */
function leaves(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(leaves);
  if (value !== null && typeof value === 'object')
    return Object.entries(value).flatMap(([key, item]) => [key, ...leaves(item)]);
  return [typeof value === 'string' ? value : JSON.stringify(value)];
}

/** How far after a call's name its arguments may start (`", "arguments": `, gpt-oss's channel header …). */
const ARGUMENTS_WITHIN = 200;

/**
 * Where the rendered text does not carry a call's arguments verbatim: each call, in order, must show up
 * after its name as the row's arguments. JSON text (`arguments` a string) must appear byte for byte; a
 * mapping must appear as JSON that decodes to the same value, or, for a template that writes mappings in
 * its own syntax (Gemma 4's `key:value`), with every key and value as it is and no escaped quote. The first
 * call that does not, located in the row; undefined when every call does.
 *
 * @example
 * argumentsProblem('f\n```json\n"{\\"a\\": 1}"', messages) // 'messages[1].tool_calls[0] (f): rendered arguments are not …'
 */
export function argumentsProblem(
  text: string,
  messages: ReadonlyArray<Record<string, unknown>>,
): { at: string; reason: string } | undefined {
  let cursor = 0;
  for (const [messageIndex, message] of messages.entries()) {
    if (!Array.isArray(message.tool_calls)) continue;
    for (const [callIndex, call] of (
      message.tool_calls as Array<{ function?: Record<string, unknown> }>
    ).entries()) {
      const name = String(call.function?.name ?? '');
      const args = call.function?.arguments;
      const at = `messages[${messageIndex}].tool_calls[${callIndex}]`;
      const found = findArguments(text, cursor, name, args);
      if (found === undefined && (name === '' || !text.includes(name, cursor)))
        return {
          at,
          reason: 'a tool call is missing from the rendered text (the template dropped it)',
        };
      if (found === undefined) {
        const shown = truncateText(typeof args === 'string' ? args : JSON.stringify(args), 80);
        const twice =
          typeof args === 'string' && text.includes(JSON.stringify(args).slice(1, -1))
            ? ' (encoded twice: the template quotes JSON text again; export arguments as mappings for it)'
            : '';
        return {
          at: `${at} (${name} ${shown})`,
          reason: `rendered arguments are not the row's arguments, verbatim${twice}`,
        };
      }
      cursor = found;
    }
  }
  return undefined;
}

/** The end of the first rendering of `name` followed by `args` at or after `from`; undefined if none. */
function findArguments(text: string, from: number, name: string, args: unknown): number | undefined {
  const wanted = typeof args === 'string' ? undefined : canonical(args);
  for (let at = text.indexOf(name, from); at >= 0 && name !== ''; at = text.indexOf(name, at + 1)) {
    const after = at + name.length;
    const window = text.slice(after, after + ARGUMENTS_WITHIN);
    if (typeof args === 'string') {
      const index = text.indexOf(args, after);
      if (index >= 0 && index - after <= ARGUMENTS_WITHIN) return index + args.length;
      continue;
    }
    for (let offset = window.search(/[{[]/); offset >= 0; ) {
      const parsed = jsonAt(text, after + offset);
      if (parsed && canonical(parsed.value) === wanted) return parsed.end;
      const next = window.slice(offset + 1).search(/[{[]/);
      offset = next < 0 ? -1 : offset + 1 + next;
    }
    // A mapping in the template's own syntax: every key and value as it is, nothing behind an escaped quote.
    const span = text.slice(after, after + ARGUMENTS_WITHIN + JSON.stringify(args ?? null).length * 2);
    const items = leaves(args);
    if (items.length > 0 && !span.includes('\\"') && items.every((item) => span.includes(item)))
      return after + Math.max(...items.map((item) => span.indexOf(item) + item.length));
  }
  return undefined;
}

/**
 * Role alternation as chat templates and trainers expect it; the first problem, or undefined.
 *
 * @example
 * alternationProblem([{ role: 'user' }, { role: 'user' }]) // 'messages[1]: two user messages in a row'
 */
export function alternationProblem(messages: ReadonlyArray<Record<string, unknown>>): string | undefined {
  let previous: string | undefined;
  let openCalls = 0;
  for (const [index, message] of messages.entries()) {
    const role = message.role;
    if (role === 'system') {
      if (index !== 0) return `messages[${index}]: a system message after the first turn`;
    } else if (role === 'user') {
      if (previous === 'user') return `messages[${index}]: two user messages in a row`;
      if (openCalls > 0) return `messages[${index}]: a user message while tool calls are unanswered`;
    } else if (role === 'assistant') {
      // Two assistant messages in a row (a rejected attempt, then the fallback) are allowed: the trainers
      // accept them; a strict-alternation template (Mistral, Gemma) refuses them when rendered.
      if (previous === undefined || previous === 'system')
        return `messages[${index}]: an assistant message before any user message`;
      openCalls = Array.isArray(message.tool_calls) ? message.tool_calls.length : 0;
    } else if (role === 'tool') {
      if (openCalls === 0) return `messages[${index}]: a tool message that answers no call`;
      openCalls--;
    } else return `messages[${index}]: unknown role ${JSON.stringify(role)}`;
    previous = role as string;
  }
  if (previous !== 'assistant') return 'the conversation does not end with an assistant message';
  return undefined;
}
