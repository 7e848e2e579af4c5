#!/usr/bin/env bash
# Refresh the vendored front-end files from the npm registry (run by `make vendor`).
# The app serves them itself; nothing is loaded from a third-party host at run time.
set -euo pipefail
HTMX_VERSION=2.0.8
AXE_VERSION=4.11.0
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
npm pack --silent "htmx.org@$HTMX_VERSION" "axe-core@$AXE_VERSION" >/dev/null
tar xzf "htmx.org-$HTMX_VERSION.tgz" && cp package/dist/htmx.min.js "$root/tutor/static/vendor/htmx.min.js" && cp package/LICENSE "$root/tutor/static/vendor/htmx.LICENSE" && rm -rf package
tar xzf "axe-core-$AXE_VERSION.tgz" && cp package/axe.min.js "$root/tests/vendor/axe.min.js" && cp package/LICENSE "$root/tests/vendor/axe.LICENSE"
echo "vendored htmx $HTMX_VERSION and axe-core $AXE_VERSION"
