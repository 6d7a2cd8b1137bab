// Entry point of `hsa`: runs the program (./run.ts) and sets the exit code.
// 0 valid, 1 invalid input (issues listed), 2 usage or I/O error, 3 internal error.
import { runHsa } from './run.js';

runHsa(process.argv).then((code) => {
  process.exitCode = code;
});
