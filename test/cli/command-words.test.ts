// A command given as one option value splits into the words a POSIX shell would pass.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commandWords, splitWords } from '../../src/cli/command-words.js';

/** How a shell user quotes a word: in single quotes, a quote inside written as '\''. */
const shellQuoted = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;

describe('splitWords', () => {
  it('gives back any words quoted as a shell user quotes them', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme' }), { minLength: 1 }), (words) => {
        expect(splitWords(words.map(shellQuoted).join(' '))).toEqual(words);
      }),
    );
  });

  it('reads blanks, both quotes and backslashes as a shell does', () => {
    expect(splitWords(`node  "my server.js" --root 'a b' x\\ y "say \\"hi\\"" ''`)).toEqual([
      'node',
      'my server.js',
      '--root',
      'a b',
      'x y',
      'say "hi"',
      '',
    ]);
    expect(() => splitWords(`node "server.js`, '--mcp-command')).toThrow(
      /--mcp-command: the quote " is not closed/,
    );
  });
});

describe('commandWords', () => {
  it('takes leading NAME=value words as the environment', () => {
    expect(commandWords('MEMORY_FILE_PATH=/tmp/m.jsonl DEBUG= node server.js A=1')).toEqual({
      command: 'node',
      args: ['server.js', 'A=1'],
      env: { MEMORY_FILE_PATH: '/tmp/m.jsonl', DEBUG: '' },
    });
    expect(() => commandWords('  ', '--mcp-command')).toThrow(/--mcp-command: no command/);
    expect(() => commandWords('A=1', '--mcp-command')).toThrow(/no command/);
  });
});
