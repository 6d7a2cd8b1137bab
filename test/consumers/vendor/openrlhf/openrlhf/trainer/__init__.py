# No implicit imports of deepspeed here to avoid vllm environment gets comtaminated
