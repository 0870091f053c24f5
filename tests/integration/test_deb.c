/*
 * make deb: the package holds the binary, man page, completions, examples
 * and the sweep tools (boids-sweep..., their Python package); its
 * dependencies come from the linked libraries and apt can resolve them
 * (the sweep's are recommended); the packaged binary runs, writes a clip
 * and an HDF5 trajectory (its video and HDF5 plugins), and its sweep counts
 * a grid.  As root, the
 * package is also installed into a bare Debian 12 root with dpkg -i
 * (refused: its libraries are missing), then apt-get -f install, and the
 * installed boids writes a clip there (deb-fresh-root.sh).
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

/* deb-fresh-root.sh on the package; a warning, not a verdict, where no bare root can be made */
static void install_into_a_bare_root(void)
{
	int rc = tc_sh("'%s/tests/integration/deb-fresh-root.sh' src/build/boids_*.deb > fresh.log 2>&1", SRCDIR);
	char *log = tc_slurp("fresh.log", NULL);
	if (rc == 77) {
		cr_log_warn("the package was not installed into a bare root here: %s", log ? log : "");
		free(log);
		return;
	}
	cr_assert_eq(rc, 0, "installing into a bare root failed:\n%s", log ? log : "");
	free(log);
	size_t len = 0;
	char *clip = tc_slurp("clip.mp4", &len);
	cr_assert(clip && len > 1000 && memcmp(clip + 4, "ftyp", 4) == 0,
	          "the installed boids wrote no MP4 (%zu bytes)", len);
	free(clip);
}

TestSuite(deb, .init = (void (*)(void))tc_tmpdir, .fini = tc_cleanup, .timeout = 1500);

Test(deb, the_package_lists_its_libraries_and_its_binary_runs)
{
	/* build from a clone of the committed tree, so the checkout stays clean */
	cr_assert_eq(tc_sh("git clone -q '%s' src > log 2>&1", SRCDIR), 0);
	cr_assert_eq(tc_sh("make -C src deb > log 2>&1"), 0, "%s", tc_slurp("log", NULL));
	cr_assert_eq(tc_sh("dpkg-deb -f src/build/boids_*.deb Depends > depends.txt"), 0);
	char *dep = tc_slurp("depends.txt", NULL);
	/* the plugins' libraries (HDF5's, the caption's) and the font the caption draws with, which no library links */
	const char *want[] = { "libcairo2", "libpng16-16", "libavcodec", "libavformat", "libhdf5", "libc6",
	                       "libpango-1.0-0", "libpangocairo-1.0-0", "fonts-dejavu-core" };
	for (size_t i = 0; i < sizeof want / sizeof *want; i++)
		cr_expect(strstr(dep, want[i]), "Depends lacks %s: %s", want[i], dep);
	free(dep);
	cr_assert_eq(tc_sh("dpkg-deb -c src/build/boids_*.deb > files.txt"), 0);
	char *files = tc_slurp("files.txt", NULL);
	const char *paths[] = { "./usr/bin/boids", "./usr/lib/boids/boids-video.so", "./usr/lib/boids/boids-caption.so",
	                        "./usr/lib/boids/boids-hdf5.so",
	                        "./usr/share/man/man1/boids.1.gz",
	                        "./usr/share/bash-completion/completions/boids",
	                        "./usr/share/zsh/vendor-completions/_boids",
	                        "./usr/share/doc/boids/examples/default-clip.sh",
	                        "./usr/bin/boids-sweep -> ../share/boids/scripts/sweep",
	                        "./usr/bin/boids-chart -> ../share/boids/scripts/chart",
	                        "./usr/share/boids/scripts/boidsweep/sweepmain.py" };
	for (size_t i = 0; i < sizeof paths / sizeof *paths; i++)
		cr_expect(strstr(files, paths[i]), "the package lacks %s", paths[i]);
	free(files);
	/* apt can resolve what it depends on (a dry run: nothing is installed) */
	cr_assert_eq(tc_sh("apt-get install -s \"$PWD\"/src/build/boids_*.deb > apt.txt 2>&1"), 0,
	             "%s", tc_slurp("apt.txt", NULL));
	/* the packaged binary runs */
	cr_assert_eq(tc_sh("dpkg-deb -x src/build/boids_*.deb root && "
	                   "root/usr/bin/boids -q -f 3 -o clip.mp4 && test -s clip.mp4"), 0);
	/* and finds its HDF5 plugin: an .h5 trajectory, read back by h5py */
	cr_assert_eq(tc_sh("root/usr/bin/boids -q -f 3 -n 7 --no-render --trajectory t.h5 && "
	                   "%s -c \"import h5py; assert h5py.File('t.h5', 'r')['positions'].shape == (3, 7, 2)\"",
	                   tc_python()), 0);
	/* the sweep tools run from where the package put them, and count a grid with its boids */
	cr_assert_eq(tc_sh("root/usr/bin/boids-sweep --bin root/usr/bin/boids --grid 'seed=1,2' --grid "
	                   "'align-weight=0,1,2' --count > count.txt 2>&1 && grep -qx 6 count.txt"), 0, "%s",
	             tc_slurp("count.txt", NULL));
	cr_assert_eq(tc_sh("dpkg-deb -f src/build/boids_*.deb Recommends | grep -q python3-scipy"), 0,
	             "the package does not recommend what its sweep runs with");
	cr_assert_eq(tc_sh("rm -rf root clip.mp4 t.h5"), 0);
	install_into_a_bare_root();
}
