// The default size of the variant pool, alone in its module so that the CLI's option text can name it
// without loading the pool (see src/augment/variant-pool.ts).

/** Entries in a pool unless told otherwise (the trade-off between shared work and diversity: docs/performance.md). */
export const defaultVariantPoolSize = 256;
