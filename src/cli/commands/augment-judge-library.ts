// The library code of `hsa augment --judge`, imported only when the option is given: a run without a judge
// loads no endpoint client.
export { meaningJudgeFromConfig } from '../../adapters/judge/meaning-judge.js';
export { createMeaningFilter } from '../../pipeline/meaning-filter.js';
export { loadMeaningJudgeConfig } from '../../pipeline/meaning-judge-config.js';
export { meaningVerdictsPathOf, readMeaningVerdicts } from '../../pipeline/meaning-verdicts-file.js';
