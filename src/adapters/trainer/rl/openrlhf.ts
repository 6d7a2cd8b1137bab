// OpenRLHF files for the RL stage: prompt rows (`prompt` chat messages, `label` = the row's /reset payload),
// `hsa_openrlhf_agent.py` for OpenRLHF's multi-turn agent mode (`--agent_func_path`: reset and step on the
// environment server, Hermes-style `<tool_call>` blocks parsed from the generated text), and `launch.sh`
// with the flags, including the existing `/get_reward` as `--remote_rm_url` for rollouts driven elsewhere.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../../harness/write-file-atomic.js';
import type { RlExporter, RlRow } from '../../../pipeline/rl.js';
import { envClientPython } from './env-client-python.js';

export function toOpenRlhfRow(row: RlRow): Record<string, unknown> {
  return {
    prompt: row.prompt,
    label: JSON.stringify({ reset: row.reset, reward: row.reward, row_id: row.id }),
    group: row.group,
    variant_id: row.variantId ?? '',
  };
}

function agentShim(envURL: string): string {
  return `"""OpenRLHF agent function over the harness-augment environment server (--agent_func_path).

The label of each prompt row holds its /reset payload and reward spec. Tool calls are read from the generated
text as Hermes/Qwen <tool_call>{json}</tool_call> blocks (change parse_action for another chat format); the
server's answer comes back as <tool_response> blocks and the next user turn in the same chat format.
"""
import re

${envClientPython(envURL)}

try:
    from openrlhf.utils.agent import AgentExecutorBase, AgentInstanceBase
except ImportError:  # pragma: no cover - runs (and compiles) without OpenRLHF
    AgentInstanceBase = object
    AgentExecutorBase = object

TOOL_CALL = re.compile(r"<tool_call>\\s*(\\{.*?\\})\\s*</tool_call>", re.S)


def parse_action(text):
    """An assistant message from generated text: Hermes tool-call blocks, else a plain reply."""
    calls = []
    for index, block in enumerate(TOOL_CALL.findall(text)):
        try:
            value = json.loads(block)
        except ValueError:
            continue
        calls.append({"id": "call_%d" % index, "type": "function", "function": {"name": value.get("name", ""), "arguments": json.dumps(value.get("arguments", {}))}})
    if calls:
        return {"role": "assistant", "content": None, "tool_calls": calls}
    return {"role": "assistant", "content": text.split("<|im_end|>")[0].strip()}


def feedback_text(messages):
    parts = []
    for message in messages:
        if message["role"] == "tool":
            parts.append("<|im_start|>user\\n<tool_response>\\n%s\\n</tool_response><|im_end|>\\n" % message["content"])
        elif message["role"] == "user":
            parts.append("<|im_start|>user\\n%s<|im_end|>\\n" % message["content"])
    return "".join(parts) + "<|im_start|>assistant\\n"


class AgentInstance(AgentInstanceBase):
    def __init__(self, *args, **kwargs):
        self.episode_id = None
        self.spec = None

    async def reset(self, states, **kwargs):
        label = json.loads(states["label"])
        answer = env_post("/reset", label["reset"])
        self.episode_id = answer["episode_id"]
        self.spec = label.get("reward")
        return {"observation": states["observation"]}

    async def step(self, states, **kwargs):
        answer = env_post("/step", {"episode_id": self.episode_id, "message": parse_action(states["action_text"])})
        result = finish(self.episode_id, episode_result(answer))
        reward = row_reward(self.spec, result["total"], result["rewards"]) if answer["done"] else 0.0
        try:
            import torch

            rewards = torch.tensor(reward)
        except ImportError:  # pragma: no cover
            rewards = reward
        return {
            "rewards": rewards,
            "scores": rewards,
            "environment_feedback": "" if answer["done"] else feedback_text(answer["observation"]["messages"]),
            "done": bool(answer["done"]),
            "sampling_params": states.get("sampling_params", None),
            "extra_logs": {name: float(value) for name, value in result["rewards"].items()},
        }


class AgentExecutor(AgentExecutorBase):
    def __init__(self, max_steps, max_length, llm_engine, hf_tokenizer, result_queue):
        super().__init__(AgentInstance, max_steps, max_length, llm_engine, hf_tokenizer, result_queue)

    async def execute(self, prompt, label, sampling_params):
        return await super().execute(prompt, label, sampling_params)
`;
}

function launchScript(envURL: string, groupSize: number): string {
  return `#!/usr/bin/env bash
# OpenRLHF GRPO-style training on the RL rows, harness-augment environment server at ${envURL}.
# Start the server first:  hsa env serve --harness <harness.yaml> --scenario <name> --port 8000
# Multi-turn (the agent plays each episode on the server and receives its reward):
set -euo pipefail
POLICY=\${POLICY:?set POLICY to the SFT/OPD checkpoint}
python3 -m openrlhf.cli.train_ppo_ray \\
  --pretrain "$POLICY" \\
  --prompt_data prompts.jsonl --input_key prompt --label_key label --apply_chat_template \\
  --agent_func_path hsa_openrlhf_agent.py \\
  --n_samples_per_prompt ${groupSize} --advantage_estimator group_norm \\
  --save_path checkpoints/rl "$@"
# Rollouts driven by your own code through /reset and /step: pass the episode ids as labels and score with
#   --remote_rm_url ${envURL.replace(/\/+$/, '')}/get_reward
`;
}

/**
 * The OpenRLHF RL exporter: `prompts.jsonl`, `hsa_openrlhf_agent.py`, `launch.sh`.
 *
 * @example
 * await openRlhfRlExporter.write(rows, 'out/rl/openrlhf', { envURL: 'http://127.0.0.1:8000', groupSize: 8 });
 */
export const openRlhfRlExporter: RlExporter = {
  format: 'openrlhf',
  describe: 'OpenRLHF prompt rows, the multi-turn agent function over the server, and the launch flags',
  async write(rows, outDir, options) {
    await mkdir(outDir, { recursive: true });
    const files = {
      data: join(outDir, 'prompts.jsonl'),
      agent: join(outDir, 'hsa_openrlhf_agent.py'),
      launch: join(outDir, 'launch.sh'),
    };
    await writeFileAtomic(files.data, rows.map((row) => `${JSON.stringify(toOpenRlhfRow(row))}\n`).join(''));
    await writeFileAtomic(files.agent, agentShim(options.envURL));
    await writeFileAtomic(files.launch, launchScript(options.envURL, options.groupSize));
    return Object.values(files);
  },
};
