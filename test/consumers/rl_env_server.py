"""`hsa env serve` on 127.0.0.1 (an ephemeral port) for the RL consumer tests, as the docs start it.

    with env_server("fixtures/livestream/harness.yaml", "livestream") as url:
        ...  # HSA_ENV_URL=url

The server is the project's CLI run from source (node --import tsx src/cli/main.ts), started with
`--port 0`; its URL is read from the line it prints. It is stopped (SIGTERM, then SIGKILL) on exit.
"""

from __future__ import annotations

import contextlib
import re
import subprocess
import threading
import time

from conftest import ROOT

LISTENING = re.compile(r"listening on (http://127\.0\.0\.1:\d+)")


def serve_command(harness: str, scenario: str) -> list[str]:
    return [
        "node", "--import", "tsx", str(ROOT / "src" / "cli" / "main.ts"),
        "env", "serve", "--harness", harness, "--scenario", scenario, "--host", "127.0.0.1", "--port", "0",
    ]


@contextlib.contextmanager
def env_server(harness: str, scenario: str, timeout: float = 120.0):
    process = subprocess.Popen(
        serve_command(harness, scenario), cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    lines: list[str] = []
    found: list[str] = []
    ready = threading.Event()

    def read():
        for line in process.stdout:
            lines.append(line)
            match = LISTENING.search(line)
            if match and not found:
                found.append(match.group(1))
                ready.set()
        ready.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    started = time.monotonic()
    try:
        ready.wait(timeout)
        if not found:
            raise RuntimeError(
                "hsa env serve did not start within %.0fs (exit %s):\n%s"
                % (time.monotonic() - started, process.poll(), "".join(lines[-20:]))
            )
        yield found[0]
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
