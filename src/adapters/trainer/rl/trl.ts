// TRL GRPO files for the RL stage: prompt-only rows (`prompt` as chat messages) with the columns the reward
// function reads (`hsa_reset`, `hsa_reward_spec`, ids, variant, seed), and `hsa_trl.py`: the reward function
// `hsa_reward` that replays each completion against the environment server, and `HsaEnvironment`, an
// environment class (reset/step over the same server) for TRL's multi-turn environment mode.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../../harness/write-file-atomic.js';
import type { RlExporter, RlRow } from '../../../pipeline/rl.js';
import { envClientPython } from './env-client-python.js';

/** One TRL GRPO row: extra columns are strings or numbers so that every row has the same Arrow types. */
export function toTrlGrpoRow(row: RlRow): Record<string, unknown> {
  return {
    prompt: row.prompt,
    hsa_row_id: row.id,
    hsa_group: row.group,
    hsa_scenario: row.scenario,
    hsa_episode_index: row.episode.index,
    hsa_episode_id: row.episode.id,
    hsa_seed: row.seed,
    hsa_state: row.state,
    hsa_variant_id: row.variantId ?? '',
    hsa_reset: JSON.stringify(row.reset),
    hsa_reward_spec: JSON.stringify(row.reward),
    hsa_tools: JSON.stringify(row.tools),
  };
}

function trlShim(envURL: string): string {
  return `"""Reward function and environment for TRL's GRPOTrainer over the harness-augment environment server.

Start the server first (hsa env serve ... --port 8000), then:
    from hsa_trl import hsa_reward
    trainer = GRPOTrainer(model=..., reward_funcs=[hsa_reward], train_dataset=load_dataset("json", data_files="grpo.jsonl", split="train"), ...)
Each completion is replayed in a fresh episode of the row's scenario under the row's harness state
(hsa_reset pins the variant id); the reward is the episode's total, or its segment's reward (hsa_reward_spec).
"""
${envClientPython(envURL)}

def hsa_reward(prompts=None, completions=None, hsa_reset=None, hsa_reward_spec=None, environments=None, **kwargs):
    """TRL reward function: one float per completion."""
    if environments is not None:
        return [environment.reward for environment in environments]
    rewards = []
    for index, completion in enumerate(completions):
        spec = hsa_reward_spec[index] if hsa_reward_spec is not None else None
        result = replay(hsa_reset[index], rollout_messages(completion))
        rewards.append(row_reward(spec, result["total"], result["rewards"]))
    return rewards


class HsaEnvironment:
    """One episode on the environment server: reset with the row's columns, then one step per assistant message."""

    def __init__(self, env_url=None):
        self.env_url = env_url
        self.episode_id = None
        self.spec = None
        self.done = False
        self.reward = 0.0
        self.tools = []

    def reset(self, hsa_reset=None, hsa_reward_spec=None, **kwargs):
        answer = env_post("/reset", as_reset(hsa_reset), self.env_url)
        self.episode_id = answer["episode_id"]
        self.spec = hsa_reward_spec
        self.tools = answer["observation"]["tools"]
        self._update(answer)
        return answer["observation"]["messages"]

    def step(self, message):
        """Takes one assistant message; returns the messages it produced (tool results, feedback, the next user turn)."""
        answer = env_post("/step", {"episode_id": self.episode_id, "message": assistant_message(message)}, self.env_url)
        self._update(answer)
        return answer["observation"]["messages"]

    def _update(self, answer):
        result = episode_result(answer)
        if not result["done"]:
            result = finish(self.episode_id, result, self.env_url)
        self.done = bool(answer.get("done"))
        self.reward = row_reward(self.spec, result["total"], result["rewards"])
`;
}

/**
 * The TRL RL exporter: `grpo.jsonl` and `hsa_trl.py`.
 *
 * @example
 * await trlRlExporter.write(rows, 'out/rl/trl', { envURL: 'http://127.0.0.1:8000', groupSize: 8 });
 */
export const trlRlExporter: RlExporter = {
  format: 'trl',
  describe: 'TRL GRPOTrainer prompt-only rows and the reward function / environment that call the server',
  async write(rows, outDir, options) {
    await mkdir(outDir, { recursive: true });
    const data = join(outDir, 'grpo.jsonl');
    const shim = join(outDir, 'hsa_trl.py');
    await writeFileAtomic(data, rows.map((row) => `${JSON.stringify(toTrlGrpoRow(row))}\n`).join(''));
    await writeFileAtomic(shim, trlShim(options.envURL));
    return [data, shim];
  },
};
