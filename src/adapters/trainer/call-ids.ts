// Tool-call ids in the shape a model family requires. Mistral's tokenizers (mistral-common's validator and
// the v0.3 / Nemo chat templates) accept only 9 alphanumeric characters; the ids a harness records
// (`call_RKi6Jx…`) are longer. Each id is replaced by a hash of itself, so the same row always gets the
// same ids, and a call and the tool message that answers it keep matching.
import { createHash } from 'node:crypto';

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function base62(bytes: Uint8Array, length: number): string {
  let out = '';
  for (let index = 0; out.length < length; index++) out += alphabet[(bytes[index] as number) % 62];
  return out;
}

/**
 * Mistral-style ids (9 characters of [A-Za-z0-9]) for the call ids of one conversation, first seen first;
 * two ids of a conversation never map to the same one.
 *
 * @example
 * mistralCallIds(['call_RKi6JxeynwFlJztAq9BcRJZf']).get('call_RKi6JxeynwFlJztAq9BcRJZf') // 9 characters
 */
export function mistralCallIds(ids: Iterable<string>): Map<string, string> {
  const mapped = new Map<string, string>();
  const taken = new Set<string>();
  for (const id of ids) {
    if (mapped.has(id)) continue;
    for (let attempt = 0; ; attempt++) {
      const digest = createHash('sha256')
        .update(attempt === 0 ? id : `${id}#${attempt}`)
        .digest();
      const candidate = base62(digest, 9);
      if (!taken.has(candidate)) {
        taken.add(candidate);
        mapped.set(id, candidate);
        break;
      }
    }
  }
  return mapped;
}

/**
 * The id a call of this conversation gets in the export: Mistral-style (`mistralCallIds`) when `callIds` is
 * `mistral`, else its own.
 *
 * @example
 * const idOf = callIdsFor(messages, 'mistral'); idOf('call_RKi6Jx…') // 9 characters
 */
export function callIdsFor(
  messages: ReadonlyArray<{ role: string; tool_calls?: ReadonlyArray<{ id: string }> }>,
  callIds: 'mistral' | undefined | string,
): (id: string) => string {
  if (callIds !== 'mistral') return (id) => id;
  const ids = mistralCallIds(
    messages.flatMap((message) =>
      message.role === 'assistant' ? (message.tool_calls ?? []).map((call) => call.id) : [],
    ),
  );
  return (id) => ids.get(id) ?? id;
}
