#!/usr/bin/env bash
# OpenRLHF GRPO-style training on the RL rows, harness-augment environment server at http://127.0.0.1:8000.
# Start the server first:  hsa env serve --harness <harness.yaml> --scenario <name> --port 8000
# The agent (hsa_openrlhf_agent.py) plays each episode on the server and receives its reward.
# Flags as OpenRLHF's current parser (openrlhf/cli/train_ppo_ray.py) names them.
set -euo pipefail
cd "$(dirname "$0")"
POLICY=${POLICY:?set POLICY to the SFT/OPD checkpoint}
python3 -m openrlhf.cli.train_ppo_ray \
  --actor.model_name_or_path "$POLICY" \
  --data.prompt_dataset prompts.jsonl --data.input_key prompt --data.label_key label --data.apply_chat_template \
  --data.max_len 8192 --rollout.max_new_tokens 2048 \
  --train.agent_func_path hsa_openrlhf_agent.py \
  --rollout.n_samples_per_prompt 4 --algo.advantage.estimator group_norm \
  --ckpt.output_dir checkpoints/rl "$@"
# Rollouts driven by your own code through /reset and /step: pass the episode ids as labels and score with
#   --reward.remote_url http://127.0.0.1:8000/get_reward
