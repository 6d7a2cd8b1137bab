// The demo's held-out items: one-turn gold trajectories whose turn is scorable, derived by the bench's one
// rule (src/bench/derive-items.ts), re-exported here for the demo and the fixture generators.
export { isItemCandidate, itemFromTrajectory } from '../bench/derive-items.js';
