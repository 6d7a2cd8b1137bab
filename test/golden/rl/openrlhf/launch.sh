#!/usr/bin/env bash
# OpenRLHF GRPO-style training on the RL rows, harness-augment environment server at http://127.0.0.1:8000.
# Start the server first:  hsa env serve --harness <harness.yaml> --scenario <name> --port 8000
# Multi-turn (the agent plays each episode on the server and receives its reward):
set -euo pipefail
POLICY=${POLICY:?set POLICY to the SFT/OPD checkpoint}
python3 -m openrlhf.cli.train_ppo_ray \
  --pretrain "$POLICY" \
  --prompt_data prompts.jsonl --input_key prompt --label_key label --apply_chat_template \
  --agent_func_path hsa_openrlhf_agent.py \
  --n_samples_per_prompt 4 --advantage_estimator group_norm \
  --save_path checkpoints/rl "$@"
# Rollouts driven by your own code through /reset and /step: pass the episode ids as labels and score with
#   --remote_rm_url http://127.0.0.1:8000/get_reward
