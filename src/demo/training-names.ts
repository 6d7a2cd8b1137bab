// The names a TRL training file holds: every tool's name, every property key of its parameters (nested too),
// every string enum value (skill ids of the loader, issue types), and the names and argument keys of the
// assistant's calls and their string values. A bench row whose new name is among them can be answered by memorising it.

function schemaNames(schema: unknown, names: Set<string>): void {
  if (Array.isArray(schema)) {
    for (const entry of schema) schemaNames(entry, names);
    return;
  }
  if (typeof schema !== 'object' || schema === null) return;
  const node = schema as Record<string, unknown>;
  if (Array.isArray(node.enum))
    for (const value of node.enum) if (typeof value === 'string') names.add(value);
  if (typeof node.properties === 'object' && node.properties !== null)
    for (const key of Object.keys(node.properties)) names.add(key);
  for (const value of Object.values(node)) schemaNames(value, names);
}

/** Argument keys and string values (a loaded skill's id is a value); erring towards "seen" is the safe side. */
function argumentNames(value: unknown, names: Set<string>): void {
  if (typeof value === 'string') names.add(value);
  if (typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    for (const entry of value) argumentNames(entry, names);
    return;
  }
  for (const [key, inner] of Object.entries(value)) {
    names.add(key);
    argumentNames(inner, names);
  }
}

/**
 * Adds the names of one TRL row (`{"messages": [...], "tools": "<JSON text>" | [...]}`) to `names`.
 *
 * @example
 * const names = new Set<string>(); addTrainingNames(JSON.parse(line), names);
 */
export function addTrainingNames(row: unknown, names: Set<string>): void {
  if (typeof row !== 'object' || row === null) return;
  const { messages, tools } = row as { messages?: unknown; tools?: unknown };
  const parsedTools = typeof tools === 'string' ? (JSON.parse(tools) as unknown) : tools;
  for (const tool of Array.isArray(parsedTools) ? parsedTools : []) {
    const fn = (tool as { function?: { name?: unknown; parameters?: unknown } }).function;
    if (typeof fn?.name === 'string') names.add(fn.name);
    schemaNames(fn?.parameters, names);
  }
  for (const message of Array.isArray(messages) ? messages : []) {
    const calls = (message as { tool_calls?: unknown }).tool_calls;
    for (const call of Array.isArray(calls) ? calls : []) {
      const fn = (call as { function?: { name?: unknown; arguments?: unknown } }).function;
      if (typeof fn?.name === 'string') names.add(fn.name);
      let args = fn?.arguments;
      if (typeof args === 'string')
        try {
          args = JSON.parse(args);
        } catch {
          args = undefined;
        }
      if (typeof args === 'object') argumentNames(args, names);
    }
  }
}
