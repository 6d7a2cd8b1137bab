// The exporters' atomic file: the one writer of src/harness/write-file-atomic.ts (links followed, devices
// written in place, a temporary sibling renamed on commit), re-exported so the adapters keep their import.
export { type AtomicFile, openAtomicFile, temporaryPath } from '../../harness/write-file-atomic.js';
