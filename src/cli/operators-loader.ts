// `--operators <module>`: the loading lives in src/augment/operator-modules.ts (worker threads of the
// pipeline load the config's modules too); the CLI's modules import it from here.
export {
  type LoadedOperators,
  loadOperatorModule,
  loadOperatorModules,
} from '../augment/operator-modules.js';
