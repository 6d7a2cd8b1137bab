// Builds the `hsa` command tree. Commands parse arguments and call the library; they hold no logic.
import { Command } from 'commander';
import { version } from '../version.js';
import { registerExport } from './commands/export.js';
import { registerHash } from './commands/hash.js';
import { registerImport } from './commands/import.js';
import { registerRender } from './commands/render.js';
import { registerSchema } from './commands/schema.js';
import { registerValidate } from './commands/validate.js';

export function createProgram(): Command {
  const program = new Command('hsa')
    .description('Harness-State Augmentation: validate, render, import and export agent harnesses')
    .version(version, '-v, --version')
    .showHelpAfterError('(run hsa --help for usage)')
    .exitOverride();
  registerValidate(program);
  registerRender(program);
  registerImport(program);
  registerExport(program);
  registerSchema(program);
  registerHash(program);
  for (const command of program.commands) command.exitOverride();
  return program;
}
