// Property tests run with a fixed seed, so that CI is reproducible; `FC_RANDOM=1 npm test` explores new
// seeds (a failure prints its seed and path, which replay it).
import fc from 'fast-check';

if (process.env.FC_RANDOM !== '1') fc.configureGlobal({ seed: 20261130 });
