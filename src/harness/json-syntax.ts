// Locates the first syntax error in JSON text. Node's JSON.parse messages do not always carry a position,
// and "file, line and column" is what a user needs to fix a broken file. A duplicate key is an error (as in
// YAML), and so is nesting deeper than the limit (the scan is recursive; the limit keeps it off the stack's end).

/** How deep containers may nest unless the caller says otherwise. */
export const defaultMaxJsonDepth = 256;

/** The longest number the scanner reads; a longer one is refused (JSON.parse would take it). */
export const maxJsonNumberLength = 400;

/** Where JSON text stops being JSON: a 0-based offset and what was expected there. */
export interface JsonSyntaxError {
  offset: number;
  message: string;
}

/**
 * Scans JSON text and returns its first syntax error, or undefined when the text is valid JSON.
 *
 * @example
 * findJsonSyntaxError('{"a": }') // { offset: 6, message: 'expected a value' }
 */
export function findJsonSyntaxError(
  text: string,
  options: { maxDepth?: number } = {},
): JsonSyntaxError | undefined {
  const maxDepth = options.maxDepth ?? defaultMaxJsonDepth;
  let index = 0;
  let depth = 0;
  const fail = (message: string): never => {
    throw { offset: index, message } satisfies JsonSyntaxError;
  };
  const skipSpace = () => {
    while (index < text.length && ' \t\n\r'.includes(text[index] as string)) index++;
  };
  const expect = (char: string) => {
    if (text[index] !== char)
      fail(index >= text.length ? `unexpected end of input, expected '${char}'` : `expected '${char}'`);
    index++;
  };
  const parseString = () => {
    expect('"');
    while (index < text.length) {
      const char = text[index] as string;
      if (char === '"') {
        index++;
        return;
      }
      if (char === '\\') {
        const next = text[index + 1];
        if (next === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(index + 2, index + 6))) fail('bad \\u escape');
          index += 6;
        } else if (next !== undefined && '"\\/bfnrt'.includes(next)) index += 2;
        else fail('bad escape');
      } else if (char.charCodeAt(0) < 0x20) fail('control character in string');
      else index++;
    }
    fail('unterminated string');
  };
  const parseValue = (): void => {
    skipSpace();
    const char = text[index];
    if (char === '{' || char === '[') {
      if (depth >= maxDepth) fail(`nesting deeper than ${maxDepth} levels is not allowed`);
      depth++;
      parseContainer(char);
      depth--;
      return;
    }
    parseScalar(char);
  };
  const parseContainer = (char: string): void => {
    if (char === '{') {
      index++;
      skipSpace();
      if (text[index] === '}') {
        index++;
        return;
      }
      const keys = new Set<string>();
      for (;;) {
        skipSpace();
        if (text[index] !== '"') fail('expected a property name in double quotes');
        const start = index;
        parseString();
        const key = JSON.parse(text.slice(start, index)) as string;
        if (keys.has(key)) {
          index = start;
          fail(`duplicate key ${JSON.stringify(key.length > 80 ? `${key.slice(0, 80)}…` : key)}`);
        }
        keys.add(key);
        skipSpace();
        expect(':');
        parseValue();
        skipSpace();
        if (text[index] === ',') index++;
        else if (text[index] === '}') {
          index++;
          return;
        } else fail("expected ',' or '}'");
      }
    }
    if (char === '[') {
      index++;
      skipSpace();
      if (text[index] === ']') {
        index++;
        return;
      }
      for (;;) {
        parseValue();
        skipSpace();
        if (text[index] === ',') index++;
        else if (text[index] === ']') {
          index++;
          return;
        } else fail("expected ',' or ']'");
      }
    }
  };
  const parseScalar = (char: string | undefined): void => {
    if (char === '"') {
      parseString();
      return;
    }
    const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(
      text.slice(index, index + maxJsonNumberLength),
    );
    if (!literal)
      fail(index >= text.length ? 'unexpected end of input, expected a value' : 'expected a value');
    index += (literal as RegExpExecArray)[0].length;
  };
  try {
    parseValue();
    skipSpace();
    if (index < text.length) fail('unexpected text after the JSON value');
    return undefined;
  } catch (error) {
    return error as JsonSyntaxError;
  }
}

/**
 * Converts a 0-based offset into a 1-based line and column.
 *
 * @example
 * lineAndColumn('a\nbc', 3) // { line: 2, column: 2 }
 */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let index = 0; index < offset && index < text.length; index++) {
    if (text[index] === '\n') {
      line++;
      lineStart = index + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}
