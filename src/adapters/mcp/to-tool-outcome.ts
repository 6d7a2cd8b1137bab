// MCP `tools/call` results → the runtime's tool outcomes: the text the model sees, and whether it failed.
import { type ToolOutcome, toolError } from '../../runtime/tool-runtime.js';

/** The parts of an MCP `CallToolResult` this conversion reads. */
export interface McpCallResult {
  content?: ReadonlyArray<{ type: string; text?: string; [key: string]: unknown }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  /** Results of servers on protocol revision 2024-10-07 and before. */
  toolResult?: unknown;
}

/**
 * The outcome of an MCP tool call: its text content (text parts joined by a newline); the structured
 * content as JSON when there is no text; the content array as JSON when it holds other parts (images,
 * resources). A result with `isError` becomes a `tool_error` result carrying that text.
 *
 * @example
 * toToolOutcome({ content: [{ type: 'text', text: '{"ok":true}' }] }) // { content: '{"ok":true}' }
 */
export function toToolOutcome(result: McpCallResult): ToolOutcome {
  const parts = result.content ?? [];
  let text: string;
  if (parts.length > 0 && parts.every((part) => part.type === 'text' && typeof part.text === 'string'))
    text = parts.map((part) => part.text).join('\n');
  else if (result.structuredContent !== undefined) text = JSON.stringify(result.structuredContent);
  else if (parts.length > 0) text = JSON.stringify(parts);
  else if (result.toolResult !== undefined) text = JSON.stringify(result.toolResult);
  else text = '';
  return result.isError
    ? toolError('tool_error', text || 'the MCP tool reported an error')
    : { content: text };
}
