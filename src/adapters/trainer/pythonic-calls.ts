// Tool calls written as text, for templates that never read `tool_calls`. LFM2 (v1)'s chat template prints
// only `content`; its model card has the assistant write the calls itself, as a Python list of calls
// between `<|tool_call_start|>` and `<|tool_call_end|>`: `[get_price(link_id=3, size="M")]`.

/** A JSON value as a Python literal: strings JSON-quoted (valid Python), true/false/null as True/False/None. */
function pythonLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'string' || typeof value === 'number') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(pythonLiteral).join(', ')}]`;
  return `{${Object.entries(value as Record<string, unknown>)
    .map(([key, item]) => `${JSON.stringify(key)}: ${pythonLiteral(item)}`)
    .join(', ')}}`;
}

/**
 * The LFM2 text form of an assistant message's calls, with their parsed arguments.
 *
 * @example
 * lfm2ToolCallText([{ name: 'get_price', arguments: { link_id: 3 } }]) // '<|tool_call_start|>[get_price(link_id=3)]<|tool_call_end|>'
 */
export function lfm2ToolCallText(calls: ReadonlyArray<{ name: string; arguments: unknown }>): string {
  const rendered = calls.map((call) => {
    const args =
      call.arguments !== null && typeof call.arguments === 'object' && !Array.isArray(call.arguments)
        ? Object.entries(call.arguments as Record<string, unknown>).map(
            ([key, value]) => `${key}=${pythonLiteral(value)}`,
          )
        : [];
    return `${call.name}(${args.join(', ')})`;
  });
  return `<|tool_call_start|>[${rendered.join(', ')}]<|tool_call_end|>`;
}
