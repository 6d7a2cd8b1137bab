#!/usr/bin/env bash
# Opens an HTML report in headless Chromium, offline, and checks that its script finished without error:
# the DOM must have <body data-ready="1">, no data-error, and the expected number of <svg> charts.
#   scripts/check-report-in-chromium.sh REPORT.html [EXPECTED_SVG_COUNT]   (default 4)
# Exit 0 when it holds; 1 when the check fails; 2 for a usage error or when Chromium is missing.
set -euo pipefail

if [[ $# -lt 1 || $# -gt 2 ]]; then
  echo "usage: $0 REPORT.html [EXPECTED_SVG_COUNT]" >&2
  exit 2
fi
report=$1
expected=${2:-4}
if [[ ! -f $report ]]; then
  echo "check-report: no such file: $report" >&2
  exit 2
fi

browser=${CHROMIUM:-}
if [[ -z $browser ]]; then
  for candidate in chromium chromium-browser google-chrome-stable google-chrome; do
    if command -v "$candidate" > /dev/null 2>&1; then
      browser=$candidate
      break
    fi
  done
fi
if [[ -z $browser ]]; then
  echo "check-report: Chromium is not installed (install it with: apt-get install -y chromium, or set CHROMIUM=/path/to/chrome)" >&2
  exit 2
fi

absolute=$(cd "$(dirname "$report")" && pwd)/$(basename "$report")
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT

dom=$("$browser" --headless --no-sandbox --disable-gpu --disable-background-networking \
  --disable-component-update --no-first-run --disable-sync --disable-dev-shm-usage \
  --user-data-dir="$profile" --virtual-time-budget=5000 --dump-dom "file://$absolute" 2> "$profile/stderr.log") || {
  echo "check-report: $browser failed:" >&2
  tail -20 "$profile/stderr.log" >&2
  exit 1
}

failures=()
body=$(grep -o '<body[^>]*>' <<< "$dom" | head -1 || true)
[[ $body == *'data-ready="1"'* ]] || failures+=("the page script did not finish: no data-ready=\"1\" on <body> (got: ${body:-no body})")
if [[ $body == *'data-error='* ]]; then
  failures+=("the page recorded an error: $(grep -o 'data-error="[^"]*"' <<< "$body")")
fi
count=$(grep -o '<svg' <<< "$dom" | wc -l | tr -d ' ')
[[ $count == "$expected" ]] || failures+=("expected $expected <svg> charts, found $count")

if [[ ${#failures[@]} -gt 0 ]]; then
  for failure in "${failures[@]}"; do echo "check-report: $report: $failure" >&2; done
  exit 1
fi
echo "check-report: $report: ok (ready, no error, $count charts) in $browser"
