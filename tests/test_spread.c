/*
 * Every model's default shows a flock: `boids -m M --warmup 300 -o m.png`
 * (the poster: the last of 300 frames) has boids in at least 5 of the
 * picture's 16 equal regions (4 x 4), spanning at least a fifth of its width
 * and of its height.  The boids are the trajectory's last frame, the same
 * state the poster draws; the picture's size is read from the PNG's header
 * (or, for a model whose scene has a field of its own, the field's, from
 * --print-config: the field is drawn fitted into the picture).
 * Every model in the registry, so that a new one joins by itself.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

#include "common.h"
#include "model.h"

TestSuite(spread, .init = (void (*)(void))tc_tmpdir, .fini = tc_cleanup, .timeout = 300);

Test(spread, every_models_default_spreads_its_flock_over_the_picture)
{
	for (const struct boids_model *const *m = model_list(); *m; m++) {
		const char *name = (*m)->name;
		/* a model whose scene has a field of its own (vicsek's L = 25) is drawn fitted into
		 * the picture: its flock spreads over that field */
		cr_assert_eq(tc_boids("-m %s --print-config", name), 0, "%s: %s", name, tc_stderr());
		const char *at = strstr(tc_stdout(), "\nfield = ");
		double fw = 0, fh = 0;
		if (at && sscanf(at, "\nfield = %lfx%lf", &fw, &fh) != 2)
			fw = fh = 0;
		cr_assert_eq(tc_boids("-m %s --warmup 300 -o m.png --trajectory t.csv -y -q", name), 0, "%s: %s",
		             name, tc_stderr());
		int st = tc_sh("%s -c 'import csv, struct\n"
		               "png=open(\"m.png\",\"rb\").read(24)\n"
		               "W,H=struct.unpack(\">II\",png[16:24])\n"
		               "W,H=(%.17g,%.17g) if %.17g>0 else (W,H)\n"
		               "rows=list(csv.DictReader(open(\"t.csv\")))\n"
		               "last=max(int(r[\"frame\"]) for r in rows)\n"
		               "assert last==299, last\n"
		               "p=[(float(r[\"x\"]),float(r[\"y\"])) for r in rows if int(r[\"frame\"])==last]\n"
		               "seen=[(x,y) for x,y in p if 0<=x<=W and 0<=y<=H]\n"
		               "cells={(min(3,int(4*x/W)),min(3,int(4*y/H))) for x,y in seen}\n"
		               "xs=[x for x,y in seen]; ys=[y for x,y in seen]\n"
		               "sx=(max(xs)-min(xs))/W if xs else 0; sy=(max(ys)-min(ys))/H if ys else 0\n"
		               "print(\"%s: %%d boids, %%d of 16 regions, %%.2f of the width, %%.2f of the height\" %% (len(p),len(cells),sx,sy))\n"
		               "assert len(cells)>=5 and sx>=0.2 and sy>=0.2' > spread.txt 2>&1",
		               tc_python(), fw, fh, fw, name);
		char *why = tc_slurp("spread.txt", NULL);
		cr_expect_eq(st, 0, "-m %s: no flock spread over the picture: %s", name, why ? why : "");
		free(why);
	}
}
