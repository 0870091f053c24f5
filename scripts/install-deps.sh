#!/bin/sh
# Installs the Debian 12 packages boids needs for one or more purposes, and
# nothing else (no recommended packages).  Quiet and quick when they are all
# present; runs apt-get as root, or through sudo when there is one.
#
#   scripts/install-deps.sh PURPOSE...      e.g.  scripts/install-deps.sh build test
#   scripts/install-deps.sh --list PURPOSE...   print the packages, install nothing
#
# Purposes (docs/INSTALL.md gives the size of each):
#   run          the shared libraries build/boids is linked with
#   build        compiler, make, pkg-config and the libraries' headers (make, make demo)
#   test         what the hermetic suite calls: Criterion, ffmpeg, python3, zsh
#                to check the completion script it parses, groff to format the
#                manual, python3-yaml to read the CI templates; h5py, h5dump,
#                gzip and zstd read trajectories back independently; NumPy and
#                SciPy for the sweep's statistics (make test)
#   sweep        scripts/sweep, chart, contact-sheet, sweep-report, hysteresis: GNU
#                parallel, the ssh client, gnuplot, ImageMagick, python3 with
#                NumPy and SciPy (the statistics, the sampled designs), the
#                DejaVu font, jQuery and DataTables (inlined into report.html)
#   integration  the machine-level tier: an ssh server for loopback sweeps, a
#                single-node Slurm with munge, valgrind, headless Chromium for
#                the sweep report, pandas (with zstandard) for the docs' Python
#                snippets that the docs test runs (make test-integration)
#   dev          clang and its runtimes (libFuzzer, sanitizers), valgrind
#   bench        what make bench compares with and measures with: ffmpeg, bc, time,
#                the JDK for MASON (the ABM frameworks' Flocking, side by side)
#   package      make deb: dpkg-shlibdeps (dpkg-dev), strip, and debootstrap for the
#                test that installs the package into a bare Debian root
#   all          every purpose above (make check, make deps); also the default
set -eu

pkgs_run="libcairo2 libpng16-16 libavformat59 libavcodec59 libavutil57 libswscale6 libavfilter8
	libhdf5-103-1 zlib1g libzstd1 libpango-1.0-0 libpangocairo-1.0-0 fonts-dejavu-core"
pkgs_build="gcc libc6-dev make pkg-config
	libcairo2-dev libpng-dev libavformat-dev libavcodec-dev libavutil-dev libswscale-dev libavfilter-dev
	libhdf5-dev zlib1g-dev libzstd-dev libpango1.0-dev"
pkgs_test="libcriterion-dev ffmpeg python3 zsh groff python3-yaml python3-h5py hdf5-tools zstd gzip
	python3-numpy python3-scipy"
pkgs_sweep="parallel openssh-client gnuplot-nox imagemagick python3 python3-numpy python3-scipy fonts-dejavu-core
	libjs-jquery libjs-jquery-datatables"
pkgs_integration="openssh-server slurm-wlm munge valgrind chromium python3-pandas python3-zstandard"
pkgs_dev="clang libclang-rt-14-dev valgrind"
pkgs_bench="ffmpeg bc time default-jdk-headless"
pkgs_package="dpkg-dev binutils debootstrap"

usage() {
	echo "usage: scripts/install-deps.sh [--list] [run|build|test|sweep|integration|dev|bench|package|all]..." >&2
	exit 2
}

list=0
purposes=""
for a in "$@"; do
	case "$a" in
	--list) list=1 ;;
	run | build | test | sweep | integration | dev | bench | package) purposes="$purposes $a" ;;
	all) purposes="$purposes run build test sweep integration dev bench package" ;;
	-h | --help) usage ;;
	*) echo "install-deps: unknown purpose '$a'" >&2; usage ;;
	esac
done
[ -n "$purposes" ] || purposes="run build test sweep integration dev bench package"

wanted=""
for p in $purposes; do
	eval "wanted=\"\$wanted \$pkgs_$p\""
done
# one line each, once
wanted=$(printf '%s\n' $wanted | sort -u | tr '\n' ' ')

if [ "$list" = 1 ]; then
	printf '%s\n' $wanted
	exit 0
fi

missing=""
for p in $wanted; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$status" in
	*"install ok installed"*) ;;
	*) missing="$missing $p" ;;
	esac
done
[ -z "$missing" ] && exit 0

echo "install-deps: installing for$purposes:$missing"
if [ "$(id -u)" -eq 0 ]; then
	SUDO=""
elif command -v sudo >/dev/null 2>&1; then
	SUDO="sudo"
else
	echo "install-deps: need root (or sudo) to install:$missing" >&2
	echo "install-deps: as root: apt-get install --no-install-recommends$missing" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
echo "install-deps: apt-get update"
$SUDO apt-get update -q
# shellcheck disable=SC2086
$SUDO apt-get install -y -q --no-install-recommends $missing
echo "install-deps: done"
