// The byte-bounded cache lives with the harness layer (../harness/bounded-cache.ts), so that harness modules
// (the prompt renderer, the symbol tables) can bound their caches by bytes too; augment modules import it here.
export { BoundedCache } from '../harness/bounded-cache.js';
