// A command given as one option value (`--mcp-command "node server.js --root ./data"`) split into the words a
// POSIX shell would pass, without running a shell: blanks separate words, single quotes keep text as it is,
// double quotes keep it with `\"` and `\\` escaped, a backslash outside quotes keeps the next character.
// Leading `NAME=value` words set the environment of the command, as a shell reads them.
import { HarnessAugmentError } from '../harness/issues.js';

/** A command line split: the program, its arguments, and the environment it adds. */
export interface CommandWords {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/**
 * Splits a command line into words as a POSIX shell does (no expansion, no operators).
 *
 * @example
 * splitWords(`node "my server.js" --root 'a b'`) // ['node', 'my server.js', '--root', 'a b']
 */
export function splitWords(text: string, option = 'the command'): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: "'" | '"' | undefined;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else word = (word ?? '') + char;
    } else if (quote === '"') {
      if (char === '"') quote = undefined;
      else if (char === '\\' && (text[index + 1] === '"' || text[index + 1] === '\\'))
        word = (word ?? '') + text[++index];
      else word = (word ?? '') + char;
    } else if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (char === "'" || char === '"') {
      quote = char;
      word ??= '';
    } else if (char === '\\' && index + 1 < text.length) {
      word = (word ?? '') + text[++index];
    } else word = (word ?? '') + char;
  }
  if (quote !== undefined)
    throw new HarnessAugmentError(`${option}: the quote ${quote} is not closed in ${JSON.stringify(text)}`, {
      kind: 'usage',
    });
  if (word !== undefined) words.push(word);
  return words;
}

/**
 * Splits a command line into the program, its arguments and the `NAME=value` words before the program.
 *
 * @example
 * commandWords('MEMORY_FILE_PATH=/tmp/m.jsonl node server.js')
 * // { command: 'node', args: ['server.js'], env: { MEMORY_FILE_PATH: '/tmp/m.jsonl' } }
 */
export function commandWords(text: string, option = 'the command'): CommandWords {
  const words = splitWords(text, option);
  const env: Record<string, string> = {};
  while (words.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0]!)) {
    const assignment = words.shift()!;
    const equals = assignment.indexOf('=');
    env[assignment.slice(0, equals)] = assignment.slice(equals + 1);
  }
  const [command, ...args] = words;
  if (command === undefined)
    throw new HarnessAugmentError(`${option}: no command in ${JSON.stringify(text)}`, { kind: 'usage' });
  return { command, args, env };
}
