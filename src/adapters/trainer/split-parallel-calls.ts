// Parallel tool calls as one call per assistant message, for consumers that take one call at a time: the
// Llama 3.x templates ("This model only supports single tool-calls at once!"), gpt-oss, and veRL's
// multi-turn SFT dataset, which renders each message on its own and checks the concatenation against the
// whole conversation (consecutive tool results, rendered as one block by Qwen's template, never match).

/** The fields the split reads. */
export interface SplittableMessage {
  role: string;
  content?: string | null;
  tool_calls?: ReadonlyArray<{ id: string }> | null;
  tool_call_id?: string | null;
}

/**
 * Rewrites each assistant message with several tool calls as one message per call, each followed by the
 * tool messages that answer it (matched on `tool_call_id`).
 *
 * @example
 * splitParallelCalls([{ role: 'assistant', tool_calls: [a, b] }, resultA, resultB]) // [callA, resultA, callB, resultB]
 */
export function splitParallelCalls<M extends SplittableMessage>(
  messages: readonly M[],
  /** The `content` of a split-off call message after the first (which keeps the message's text). */
  silent: { content?: string | null } = {},
): M[] {
  const out: M[] = [];
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index] as M;
    const calls = message.role === 'assistant' ? (message.tool_calls ?? []) : [];
    if (message.role !== 'assistant' || calls.length < 2) {
      out.push(message);
      continue;
    }
    let end = index + 1;
    while (end < messages.length && messages[end]?.role === 'tool') end++;
    const results = messages.slice(index + 1, end);
    const answered = (id: string) => results.filter((result) => result.tool_call_id === id);
    const complete =
      results.every((result) => calls.some((call) => call.id === result.tool_call_id)) &&
      calls.every((call) => answered(call.id).length > 0);
    if (!complete) {
      out.push(message);
      continue;
    }
    const { tool_calls: _calls, content, ...rest } = message;
    for (const [callIndex, call] of calls.entries()) {
      out.push({
        ...rest,
        ...(callIndex === 0 ? (content !== undefined ? { content } : {}) : silent),
        tool_calls: [call],
      } as unknown as M);
      out.push(...answered(call.id));
    }
    index = end - 1;
  }
  return out;
}
