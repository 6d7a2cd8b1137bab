// The custom hook checks of the scoped-hook harness, as a module for `hsa … --hook-checks`.
export { scopedHookChecks as hookChecks } from './scoped-hook-harness.js';
