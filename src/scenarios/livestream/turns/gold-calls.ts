// The gold tool calls of a turn, as the oracle's script plans them.

/** One planned call: a tool name and its arguments. */
export const call = (name: string, args: Record<string, unknown>) => ({ name, args });
