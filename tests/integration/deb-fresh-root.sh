#!/bin/sh
# Installs a boids .deb into a bare Debian 12 root (debootstrap minbase:
# none of boids's libraries) and runs it there.  Run as root from a scratch
# directory holding the package:  deb-fresh-root.sh boids_VERSION_ARCH.deb
# dpkg -i must refuse for want of the libraries the package declares; apt-get
# -f install brings them (and the caption's font); the installed boids then
# writes a captioned clip and clip.mp4, which is copied back to the scratch
# directory.  Mounts live in a private namespace (unshare -m) and go with it.  Exit 0: installed and ran; 77: no bare root
# can be made here (not root, no debootstrap, no archive): no verdict;
# anything else: the package failed.
set -eu
deb=$1
[ "$(id -u)" -eq 0 ] || { echo "not root: cannot build a bare root"; exit 77; }
command -v debootstrap >/dev/null || { echo "no debootstrap"; exit 77; }
command -v unshare >/dev/null || { echo "no unshare"; exit 77; }
mirror=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
[ -n "$mirror" ] || mirror=$(awk '$1 == "deb" {print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)
[ -n "$mirror" ] || { echo "no Debian archive in apt's sources"; exit 77; }
debootstrap --variant=minbase bookworm bare "$mirror" >debootstrap.log 2>&1 ||
	{ tail -3 debootstrap.log; exit 77; }
cp /etc/apt/sources.list.d/debian.sources bare/etc/apt/sources.list.d/ 2>/dev/null || true
cp /etc/resolv.conf bare/etc/resolv.conf 2>/dev/null || true
cp "$deb" bare/tmp/boids.deb
cat >bare/tmp/inside.sh <<'INSIDE'
set -eu
cd /tmp
if ldconfig -p | grep -q libavcodec; then echo "the bare root already has libavcodec"; exit 1; fi
if dpkg -i boids.deb >dpkg.log 2>&1; then echo "dpkg -i installed boids without its libraries"; exit 1; fi
grep -q "depends on libavcodec" dpkg.log || { cat dpkg.log; exit 1; }
apt-get install -f -y -qq --no-install-recommends >apt.log 2>&1 || { tail -20 apt.log; exit 1; }
[ "$(dpkg-query -W -f='${Status}' boids)" = "install ok installed" ] || { echo "boids is not installed"; exit 1; }
command -v boids
boids --version
boids -q -n 50 -f 5 -o clip.mp4
# the caption plugin's libraries and its font came with the package
dpkg-query -W fonts-dejavu-core >/dev/null || { echo "apt did not install the caption's font"; exit 1; }
boids -q -n 50 -f 2 --caption '{model}' -o caption.mp4
INSIDE
unshare --mount --propagation private sh -eu -c '
	mount -t proc proc bare/proc
	mount --bind /dev bare/dev
	chroot bare /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 sh /tmp/inside.sh
'
cp bare/tmp/clip.mp4 .
