// `--hook-checks <module>`: the loading lives in src/harness/hook-check-module.ts (worker threads of the
// pipeline load the config's module too); the CLI's modules import it from here.
export { loadHookChecks } from '../harness/hook-check-module.js';
