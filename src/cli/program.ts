// Builds the `hsa` command tree. Commands parse arguments and call the library; they hold no logic. Each
// command's module (and so the library code it needs) is imported only when that command runs: `hsa
// augment` does not load the simulator, the exporters or the pipeline. Help, an unknown or no command load
// them all, so that the help lists every command exactly as it is defined.
import { Command } from 'commander';
import { version } from '../version.js';
import { addGlobalOutputOptions } from './output.js';

type Register = (program: Command) => void;

/** Every top-level command, in the order the help lists them, with the import of its module. */
const commands: ReadonlyArray<readonly [name: string, load: () => Promise<Register>]> = [
  ['validate', async () => (await import('./commands/validate.js')).registerValidate],
  ['render', async () => (await import('./commands/render.js')).registerRender],
  ['import', async () => (await import('./commands/import.js')).registerImport],
  ['export', async () => (await import('./commands/export.js')).registerExport],
  ['schema', async () => (await import('./commands/schema.js')).registerSchema],
  ['hash', async () => (await import('./commands/hash.js')).registerHash],
  ['augment', async () => (await import('./commands/augment.js')).registerAugment],
  ['explain', async () => (await import('./commands/explain.js')).registerExplain],
  ['invert', async () => (await import('./commands/invert.js')).registerInvert],
  ['operators', async () => (await import('./commands/operators.js')).registerOperators],
  ['bench', async () => (await import('./commands/bench.js')).registerBench],
  ['sim', async () => (await import('./commands/sim.js')).registerSim],
  ['env', async () => (await import('./commands/env.js')).registerEnv],
  ['pipeline', async () => (await import('./commands/pipeline.js')).registerPipeline],
  ['worker', async () => (await import('./commands/worker.js')).registerWorker],
  ['latency', async () => (await import('./commands/latency.js')).registerLatency],
  ['demo', async () => (await import('./commands/demo.js')).registerDemo],
  ['check-exports', async () => (await import('./commands/check-exports.js')).registerCheckExports],
];

/** The command `argv` (node and script first) runs: its first word that is not an option, if it is one. */
function requestedCommand(argv: readonly string[]): string | undefined {
  const word = argv.slice(2).find((argument) => !argument.startsWith('-'));
  return commands.some(([name]) => name === word) ? word : undefined;
}

/**
 * The program for `argv`: only the command it runs, or every command (help, unknown or no command).
 *
 * @example
 * await (await createProgram(process.argv)).parseAsync(process.argv);
 */
export async function createProgram(argv?: readonly string[]): Promise<Command> {
  const program = new Command('hsa')
    .description('Harness-State Augmentation: validate, render, import, export and augment agent harnesses')
    .version(version, '-v, --version')
    .showHelpAfterError('(run hsa --help for usage)')
    .configureHelp({ showGlobalOptions: true })
    .exitOverride();
  addGlobalOutputOptions(program);
  const wanted = argv ? requestedCommand(argv) : undefined;
  const registers = await Promise.all(
    commands.filter(([name]) => wanted === undefined || name === wanted).map(([, load]) => load()),
  );
  for (const register of registers) register(program);
  for (const command of allCommands(program)) command.exitOverride();
  return program;
}

function allCommands(command: Command): Command[] {
  return command.commands.flatMap((child) => [child, ...allCommands(child)]);
}
