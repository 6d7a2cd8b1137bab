// Builds the `hsa` command tree. Commands parse arguments and call the library; they hold no logic.
import { Command } from 'commander';
import { version } from '../version.js';
import { registerAugment } from './commands/augment.js';
import { registerBench } from './commands/bench.js';
import { registerCheckExports } from './commands/check-exports.js';
import { registerDemo } from './commands/demo.js';
import { registerEnv } from './commands/env.js';
import { registerExplain } from './commands/explain.js';
import { registerExport } from './commands/export.js';
import { registerHash } from './commands/hash.js';
import { registerImport } from './commands/import.js';
import { registerInvert } from './commands/invert.js';
import { registerLatency } from './commands/latency.js';
import { registerOperators } from './commands/operators.js';
import { registerPipeline } from './commands/pipeline.js';
import { registerRender } from './commands/render.js';
import { registerSchema } from './commands/schema.js';
import { registerSim } from './commands/sim.js';
import { registerValidate } from './commands/validate.js';
import { registerWorker } from './commands/worker.js';
import { addGlobalOutputOptions } from './output.js';

export function createProgram(): Command {
  const program = new Command('hsa')
    .description('Harness-State Augmentation: validate, render, import, export and augment agent harnesses')
    .version(version, '-v, --version')
    .showHelpAfterError('(run hsa --help for usage)')
    .configureHelp({ showGlobalOptions: true })
    .exitOverride();
  addGlobalOutputOptions(program);
  registerValidate(program);
  registerRender(program);
  registerImport(program);
  registerExport(program);
  registerSchema(program);
  registerHash(program);
  registerAugment(program);
  registerExplain(program);
  registerInvert(program);
  registerOperators(program);
  registerBench(program);
  registerSim(program);
  registerEnv(program);
  registerPipeline(program);
  registerWorker(program);
  registerLatency(program);
  registerDemo(program);
  registerCheckExports(program);
  for (const command of allCommands(program)) command.exitOverride();
  return program;
}

function allCommands(command: Command): Command[] {
  return command.commands.flatMap((child) => [child, ...allCommands(child)]);
}
