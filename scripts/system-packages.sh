#!/usr/bin/env bash
# Install the Debian packages the test suite needs when they are missing:
# chromium (real-browser tests), postgresql (the PostgreSQL tests start their own server) and
# nginx-light (docs/nginx/kortmatte.conf is checked with nginx -t; it is never started), espeak-ng and
# opus-tools (the recorded speech for devices without a voice: `kortmatte audio build`, docs/read-aloud.md).
# Uses apt-get as root, or through sudo when run as another user.
set -euo pipefail
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx-light)
command -v espeak-ng >/dev/null 2>&1 || missing+=(espeak-ng)
command -v opusenc >/dev/null 2>&1 || missing+=(opus-tools)
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing Debian packages: ${missing[*]}"
as_root=()
[ "$(id -u)" -eq 0 ] || as_root=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
