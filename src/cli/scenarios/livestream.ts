// `--scenario livestream`: the bundled live-stream shop, over the catalog of the fixture.

import { createLivestreamScenario } from '../../scenarios/livestream/index.js';
import type { ScenarioLoader } from '../scenario-loader.js';

/**
 * @example
 * const scenario = await loadLivestreamScenario({ harness, harnessPath: 'fixtures/livestream/harness.yaml' });
 */
export const loadLivestreamScenario: ScenarioLoader = async () => createLivestreamScenario();
