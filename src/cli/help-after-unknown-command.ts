// `hsa import logs --help`: commander prints the help of `import` before it sees that `logs` is no command of
// it, and exits 0, while `hsa import logs` fails with "unknown command 'logs'" (exit 2). Where a command
// group is given a word that names none of its commands, the help flags are dropped, so that the parser
// reports the unknown command exactly as it does without them; so is the word `help` before it (`hsa help
// nosuch` printed the program's help and exited 0).
import type { Command } from 'commander';

const helpFlags = new Set(['-h', '--help']);

/**
 * `argv` (node and script first) without its help flags, and without the group's `help` word, when it names a
 * command group (`hsa`, `hsa import`, …) followed by a word that is none of the group's commands; else `argv`
 * as it is.
 *
 * @example
 * withoutHelpAfterUnknownCommand(program, ['node', 'hsa', 'import', 'logs', '--help']) // ['node', 'hsa', 'import', 'logs']
 */
export function withoutHelpAfterUnknownCommand(program: Command, argv: readonly string[]): string[] {
  const found = unknownCommandIn(program, argv.slice(2));
  if (found === undefined) return [...argv];
  // `hsa help nosuch` (commander's help command) asks about the unknown word: it is reported as `hsa nosuch` is.
  const { helpWord } = found;
  const kept = helpWord === undefined ? argv : argv.filter((_, index) => index !== helpWord + 2);
  return kept.filter((argument) => !helpFlags.has(argument));
}

/**
 * Whether the words walk down the command tree to a group and then to a word that is none of its commands
 * (after the group's `help` word too: `helpWord` is that word's index); undefined when they do not.
 */
function unknownCommandIn(
  program: Command,
  words: readonly string[],
): { helpWord: number | undefined } | undefined {
  let command = program;
  let helpWord: number | undefined;
  for (let index = 0; index < words.length; index++) {
    const word = words[index]!;
    if (word === '--') return undefined;
    if (word.startsWith('-')) {
      // A group's own option that takes a value (none today) carries the next word with it.
      const option = [command, ...ancestorsOf(command)]
        .flatMap((owner) => owner.options)
        .find((candidate) => candidate.short === word || candidate.long === word);
      if (option?.required || option?.optional) index++;
      continue;
    }
    // A command that runs (no subcommands) reads the rest itself.
    if (command.commands.length === 0) return undefined;
    if (word === 'help' && helpWord === undefined) {
      helpWord = index;
      continue;
    }
    const next = command.commands.find((child) => child.name() === word || child.aliases().includes(word));
    if (!next) return { helpWord };
    command = next;
  }
  return undefined;
}

function ancestorsOf(command: Command): Command[] {
  return command.parent ? [command.parent, ...ancestorsOf(command.parent)] : [];
}
