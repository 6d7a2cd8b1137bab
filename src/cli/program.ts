// Builds the `hsa` command tree. Commands parse arguments and call the library; they hold no logic. Each
// command's module (and so the library code it needs) is imported only when that command runs: `hsa
// augment` does not load the simulator, the exporters or the pipeline. Help, an unknown or no command import
// no command module at all: the help lists the commands from ./command-listing.ts.
import { Command, Help } from 'commander';
import { version } from '../version.js';
import { commandListing, type ListedCommand } from './command-listing.js';
import { addGlobalOutputOptions } from './output.js';

/**
 * The listed commands `argv` (node and script first) needs loaded: the command it runs (its first word that
 * is not an option), or the one `hsa help <command>` asks about; none for help, an unknown or no command.
 */
function requestedCommand(argv: readonly string[]): ListedCommand | undefined {
  const words = argv.slice(2).filter((argument) => !argument.startsWith('-'));
  const name = words[0] === 'help' ? words[1] : words[0];
  return commandListing.find((entry) => entry.name === name);
}

/**
 * The program for `argv`: only the command it runs, or the listing of every command (help, unknown or no
 * command). Without `argv`, every command is loaded (for tools that walk the whole tree).
 *
 * @example
 * await (await createProgram(process.argv)).parseAsync(process.argv);
 */
export async function createProgram(argv?: readonly string[]): Promise<Command> {
  const wanted = argv ? requestedCommand(argv) : undefined;
  const listingOnly = argv !== undefined && wanted === undefined;
  const program = new Command('hsa')
    .description('Harness-State Augmentation: validate, render, import, export and augment agent harnesses')
    .version(version, '-v, --version')
    .showHelpAfterError('(run hsa --help for usage)')
    .configureHelp({ showGlobalOptions: true, ...(listingOnly ? { subcommandTerm: listedTerm } : {}) })
    .exitOverride();
  addGlobalOutputOptions(program);
  if (listingOnly) for (const entry of commandListing) program.addCommand(listedCommand(entry));
  else {
    const loaded = wanted ? [wanted] : commandListing;
    const registers = await Promise.all(loaded.map((entry) => entry.load()));
    for (const register of registers) register(program);
  }
  for (const command of allCommands(program)) {
    command.exitOverride();
    // A group given a word that is none of its commands ("hsa import tools") lists what it has: its commands
    // are often named by their input (`openai-tools`, `mcp-tools`), which a suggestion by spelling misses.
    if (command.commands.length > 0) {
      const path = commandPath(command);
      const names = command.commands.map((child) => child.name()).filter((name) => name !== 'help');
      command.showHelpAfterError(`(hsa ${path} has: ${names.join(', ')}; run hsa ${path} --help for usage)`);
    }
  }
  return program;
}

/** A command's words after `hsa` (`import`, `bench report`). */
function commandPath(command: Command): string {
  const words: string[] = [];
  for (let at: Command | null = command; at?.parent; at = at.parent) words.unshift(at.name());
  return words.join(' ');
}

/** A stand-in for a command whose module is not loaded: its name and summary, for the help and suggestions. */
function listedCommand(entry: ListedCommand): Command {
  return new Command(entry.name).description(entry.summary).action(() => {
    // Never reached: a run that names a listed command loads its module (requestedCommand).
    throw new Error(`the command ${entry.name} ran without its module loaded`);
  });
}

/** The listed term of a stand-in; commander's own for the rest (its `help [command]`). */
function listedTerm(this: Help, command: Command): string {
  return (
    commandListing.find((entry) => entry.name === command.name())?.term ??
    Help.prototype.subcommandTerm.call(this, command)
  );
}

function allCommands(command: Command): Command[] {
  return command.commands.flatMap((child) => [child, ...allCommands(child)]);
}
