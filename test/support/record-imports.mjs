// `node --import ./test/support/record-imports.mjs …`: appends the URL of every module the process resolves
// through `import` (static or dynamic) to the file named by HSA_IMPORT_LOG, one per line. For the tests of
// what a command loads (test/cli/command-listing.test.ts).
import { register } from 'node:module';

register('./record-imports-hooks.mjs', import.meta.url, { data: { file: process.env.HSA_IMPORT_LOG } });
