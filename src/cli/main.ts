// Entry point of `hsa`: runs the program (./run.ts) and sets the exit code.
// 0 valid, 1 invalid input (issues listed), 2 usage or I/O error, 3 internal error.
import { limitHeapGrowth } from './heap-growth.js';
import { runHsa } from './run.js';

limitHeapGrowth();
runHsa(process.argv).then((code) => {
  process.exitCode = code;
});
