# make deb — build/boids_VERSION_ARCH.deb: `make install PREFIX=/usr` into a
# staging root, the runtime dependencies worked out from the libraries the
# binary and its plugins (usr/lib/boids/boids-video.so, FFmpeg's libraries;
# boids-hdf5.so, libhdf5; boids-caption.so, Pango's) link (dpkg-shlibdeps),
# plus the font the caption plugin asks fontconfig for (DEB_FONT_DEPENDS: no
# library links a font, so dpkg-shlibdeps cannot see it), then dpkg-deb.
# The sweep tools (boids-sweep and the others, Python) recommend what they
# run with (DEB_SWEEP_RECOMMENDS: install-deps.sh's sweep purpose); apt
# installs recommended packages unless told not to.  Install it on any
# Debian 12 machine with `apt install ./build/boids_*.deb`.

DEB_VERSION := $(shell sed -n 's/^\#define BOIDS_VERSION "\(.*\)"/\1/p' include/cli.h)
DEB_ARCH     = $(shell dpkg --print-architecture)
DEB_ROOT     = $(BUILD)/deb/root
DEB_FILE     = $(BUILD)/boids_$(DEB_VERSION)_$(DEB_ARCH).deb
# src/plugins/caption_pango.c draws with "DejaVu Sans" (install-deps.sh: run)
DEB_FONT_DEPENDS = fonts-dejavu-core
DEB_SWEEP_RECOMMENDS = python3, python3-numpy, python3-scipy, parallel, gnuplot-nox, libjs-jquery, libjs-jquery-datatables
DEB_SWEEP_SUGGESTS = imagemagick, ffmpeg, openssh-client, slurm-wlm

.PHONY: deb
deb:
	@scripts/install-deps.sh build package
	@$(MAKE) --no-print-directory $(BUILD)/boids
	@rm -rf $(BUILD)/deb && mkdir -p $(DEB_ROOT)/DEBIAN $(BUILD)/deb/src/debian
	@$(MAKE) --no-print-directory install DESTDIR=$(abspath $(DEB_ROOT)) PREFIX=/usr >/dev/null
	@strip --strip-unneeded $(DEB_ROOT)/usr/bin/boids $(DEB_ROOT)/usr/lib/boids/boids-video.so $(DEB_ROOT)/usr/lib/boids/boids-caption.so \
		$(DEB_ROOT)/usr/lib/boids/boids-hdf5.so
	@gzip -9n $(DEB_ROOT)/usr/share/man/man1/boids.1
	@# dpkg-shlibdeps reads debian/control from where it runs: give it a minimal one
	@printf 'Source: boids\n\nPackage: boids\nArchitecture: any\n' > $(BUILD)/deb/src/debian/control
	@cd $(BUILD)/deb/src && dpkg-shlibdeps -O $(abspath $(DEB_ROOT))/usr/bin/boids \
		$(abspath $(DEB_ROOT))/usr/lib/boids/boids-video.so \
		$(abspath $(DEB_ROOT))/usr/lib/boids/boids-caption.so \
		$(abspath $(DEB_ROOT))/usr/lib/boids/boids-hdf5.so \
		| sed -n 's/^shlibs:Depends=//p' > ../depends
	@test -s $(BUILD)/deb/depends || { echo "deb: dpkg-shlibdeps found no dependencies" >&2; exit 1; }
	@{ echo "Package: boids"; \
	   echo "Version: $(DEB_VERSION)"; \
	   echo "Architecture: $(DEB_ARCH)"; \
	   echo "Maintainer: boids developers <boids@localhost>"; \
	   echo "Installed-Size: $$(du -sk $(DEB_ROOT)/usr | cut -f1)"; \
	   echo "Depends: $$(cat $(BUILD)/deb/depends), $(DEB_FONT_DEPENDS)"; \
	   echo "Recommends: $(DEB_SWEEP_RECOMMENDS)"; \
	   echo "Suggests: $(DEB_SWEEP_SUGGESTS)"; \
	   echo "Section: graphics"; \
	   echo "Priority: optional"; \
	   echo "Description: headless flocking simulator that writes videos"; \
	   echo " boids steps a flock (Harden's Boids in C# and three more models), draws"; \
	   echo " every frame with Cairo and writes MP4/WebM/GIF, PNG frames or y4m."; \
	   echo " boids-sweep runs it over a grid of parameter values (GNU parallel, ssh"; \
	   echo " or Slurm) and reports tables, charts and a page for the browser."; \
	} > $(DEB_ROOT)/DEBIAN/control
	@dpkg-deb --root-owner-group --build $(DEB_ROOT) $(DEB_FILE) >/dev/null
	@echo "  DEB     $(DEB_FILE)"
