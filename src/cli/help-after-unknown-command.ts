// `hsa import logs --help`: commander prints the help of `import` before it sees that `logs` is no command of
// it, and exits 0, while `hsa import logs` fails with "unknown command 'logs'" (exit 2). Where a command
// group is given a word that names none of its commands, the help flags are dropped, so that the parser
// reports the unknown command exactly as it does without them.
import type { Command } from 'commander';

const helpFlags = new Set(['-h', '--help']);

/**
 * `argv` (node and script first) without its help flags when it names a command group (`hsa`, `hsa import`,
 * …) followed by a word that is none of the group's commands; else `argv` as it is.
 *
 * @example
 * withoutHelpAfterUnknownCommand(program, ['node', 'hsa', 'import', 'logs', '--help']) // ['node', 'hsa', 'import', 'logs']
 */
export function withoutHelpAfterUnknownCommand(program: Command, argv: readonly string[]): string[] {
  return unknownCommandIn(program, argv.slice(2))
    ? argv.filter((argument) => !helpFlags.has(argument))
    : [...argv];
}

/** Whether the words walk down the command tree to a group and then to a word that is none of its commands. */
function unknownCommandIn(program: Command, words: readonly string[]): boolean {
  let command = program;
  for (let index = 0; index < words.length; index++) {
    const word = words[index]!;
    if (word === '--') return false;
    if (word.startsWith('-')) {
      // A group's own option that takes a value (none today) carries the next word with it.
      const option = [command, ...ancestorsOf(command)]
        .flatMap((owner) => owner.options)
        .find((candidate) => candidate.short === word || candidate.long === word);
      if (option?.required || option?.optional) index++;
      continue;
    }
    // A command that runs (no subcommands) reads the rest itself; `help` reports on its own words.
    if (command.commands.length === 0 || word === 'help') return false;
    const next = command.commands.find((child) => child.name() === word || child.aliases().includes(word));
    if (!next) return true;
    command = next;
  }
  return false;
}

function ancestorsOf(command: Command): Command[] {
  return command.parent ? [command.parent, ...ancestorsOf(command.parent)] : [];
}
