#!/bin/sh
# Installs the Debian packages boids needs to build, test, benchmark and
# render its demo.  Does nothing (quietly) when they are all present.
# Runs apt-get as root, or through sudo when there is one.
set -eu

PACKAGES="
build-essential pkg-config
libcairo2-dev libpng-dev
libavformat-dev libavcodec-dev libavutil-dev libswscale-dev libavfilter-dev
libcriterion-dev
ffmpeg valgrind clang libclang-rt-14-dev
parallel gnuplot-nox python3 bc imagemagick openssh-server openssh-client rsync
"

missing=""
for p in $PACKAGES; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$status" in
	*"install ok installed"*) ;;
	*) missing="$missing $p" ;;
	esac
done
[ -z "$missing" ] && exit 0

echo "install-deps: installing:$missing"
if [ "$(id -u)" -eq 0 ]; then
	SUDO=""
elif command -v sudo >/dev/null 2>&1; then
	SUDO="sudo"
else
	echo "install-deps: need root (or sudo) to install:$missing" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
echo "install-deps: apt-get update"
$SUDO apt-get update -q
# shellcheck disable=SC2086
$SUDO apt-get install -y -q --no-install-recommends $missing
echo "install-deps: done"
