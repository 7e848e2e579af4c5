#!/usr/bin/env bash
# Refresh the vendored front-end files from the npm registry (run by `make vendor`).
# The app serves them itself; nothing is loaded from a third-party host at run time.
set -euo pipefail
HTMX_VERSION=2.0.8
AXE_VERSION=4.11.0
TWEMOJI_VERSION=15.0.0
# Pictures for pupils' picture passwords and avatars: Twemoji graphics (CC-BY 4.0), name=codepoint.
PICTURES="sun=2600 star=2b50 apple=1f34e cat=1f431 fish=1f41f car=1f697 tree=1f333 house=1f3e0 ball=26bd
flower=1f337 umbrella=2602 key=1f511
dog=1f436 fox=1f98a lion=1f981 tiger=1f42f frog=1f438 panda=1f43c koala=1f428 bear=1f43b rabbit=1f430
mouse=1f42d pig=1f437 cow=1f42e monkey=1f435 chicken=1f414 penguin=1f427 owl=1f989 turtle=1f422
octopus=1f419 whale=1f433 butterfly=1f98b bee=1f41d ladybug=1f41e snail=1f40c unicorn=1f984
hedgehog=1f994 elephant=1f418 giraffe=1f992 zebra=1f993 dolphin=1f42c crab=1f980 parrot=1f99c hamster=1f439"
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
npm pack --silent "htmx.org@$HTMX_VERSION" "axe-core@$AXE_VERSION" "@twemoji/svg@$TWEMOJI_VERSION" >/dev/null
tar xzf "htmx.org-$HTMX_VERSION.tgz" && cp package/dist/htmx.min.js "$root/tutor/static/vendor/htmx.min.js" && cp package/LICENSE "$root/tutor/static/vendor/htmx.LICENSE" && rm -rf package
tar xzf "axe-core-$AXE_VERSION.tgz" && cp package/axe.min.js "$root/tests/vendor/axe.min.js" && cp package/LICENSE "$root/tests/vendor/axe.LICENSE"
rm -rf package && tar xzf "twemoji-svg-$TWEMOJI_VERSION.tgz"
mkdir -p "$root/tutor/static/pictures"
for pair in $PICTURES; do cp "package/${pair#*=}.svg" "$root/tutor/static/pictures/${pair%%=*}.svg"; done
echo "vendored htmx $HTMX_VERSION, axe-core $AXE_VERSION and Twemoji $TWEMOJI_VERSION pictures"
