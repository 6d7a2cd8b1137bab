// The JSON objects a model wrote in its answer, for judges that ask for a JSON verdict: the balanced `{…}`
// spans after any `<think>` block, each parsed on its own, so that prose around a verdict is ignored.

/**
 * The balanced `{…}` objects of an answer (after any `<think>` block) that parse as JSON, and whether any did not.
 *
 * @example
 * jsonObjects('<think>…</think>Verdict: {"same": true}').objects // [{ same: true }]
 */
export function jsonObjects(text: string): { objects: Array<Record<string, unknown>>; unparsable: boolean } {
  const answer = text.replace(/<think>[\s\S]*?<\/think>/g, '');
  const objects: Array<Record<string, unknown>> = [];
  let unparsable = false;
  let start = answer.indexOf('{');
  while (start !== -1) {
    let depth = 0;
    let inString = false;
    let end = -1;
    for (let index = start; index < answer.length && end === -1; index++) {
      const char = answer[index];
      if (inString) {
        if (char === '\\') index++;
        else if (char === '"') inString = false;
      } else if (char === '"') inString = true;
      else if (char === '{') depth++;
      else if (char === '}' && --depth === 0) end = index;
    }
    if (end === -1) break;
    try {
      const value: unknown = JSON.parse(answer.slice(start, end + 1));
      if (typeof value === 'object' && value !== null && !Array.isArray(value))
        objects.push(value as Record<string, unknown>);
    } catch {
      unparsable = true;
    }
    start = answer.indexOf('{', end + 1);
  }
  return { objects, unparsable };
}
