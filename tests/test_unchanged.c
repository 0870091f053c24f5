/*
 * Behaviour kept through refactoring: the bytes of every model's trajectory
 * and first frames, and of the default clip, as boids 1.0.0 wrote them
 * (commit b790717, Debian 12's libx264 for the MP4).  A change of design
 * must leave these hashes alone; a change of behaviour must say so here,
 * with the reason, when it updates one.
 *
 * Updated (issue 40, "every model's default shows a flock"): processing's
 * and steering's defaults.  Processing's article is silent on speed and
 * borders, and its listing read literally races its flock onto the wrap
 * edges, so its defaults now take its published sketch's limits
 * (--proc-max-force 5 --proc-max-speed 3); steering's swarm of 100 clumps
 * on its target, so its default is 300 boids.  Their old hashes stand
 * below under the old settings given as flags (the_former_defaults_by_flag):
 * only the defaults moved, no rule.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "common.h"

/* SHA-256 of a file in the current directory, as sha256sum prints it. */
static void sha256_of(const char *file, char out[65])
{
	cr_assert_eq(tc_sh("sha256sum '%s' > .sum", file), 0, "sha256sum %s", file);
	char *text = tc_slurp(".sum", NULL);
	cr_assert_not_null(text);
	cr_assert(strlen(text) >= 64);
	memcpy(out, text, 64);
	out[64] = '\0';
	free(text);
}

static void expect_hash(const char *args, const char *file, const char *want)
{
	char got[65];

	cr_assert_eq(tc_boids("%s -q", args), 0, "boids %s: %s", args, tc_stderr());
	sha256_of(file, got);
	cr_expect_str_eq(got, want, "boids %s: %s changed", args, file);
}

static void setup(void)
{
	tc_tmpdir();
}

TestSuite(unchanged, .init = setup, .fini = tc_cleanup);

Test(unchanged, every_models_trajectory)
{
	static const struct {
		const char *model, *hash;
	} t[] = {
		{ "harden", "d60045a71e7f185c5c113301f946b4881171ed29b9efb5f8d0a8ce227641e60e" },
		{ "processing", "448a29f6c59545bb320a782330af76d62a7a836cea6deb90db1544409dcda0de" },
		{ "steering", "ba926c5fc3780bceb92e35b4f2c538ebec87f68eb7585196ce3ffd86242e070c" },
		{ "canvas", "1e716f7eb414c188eede84be4ccb3091986efd6bbf95c9c7b35440b7f14a8053" },
		{ "opengl", "adb8318f18edfc783c73b974fd7dbc043f4a8121a4b21cc309e606b36c2f215b" },
	};
	char args[256];

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		snprintf(args, sizeof(args), "-m %s --frames 30 --no-render --trajectory t.csv -y", t[i].model);
		expect_hash(args, "t.csv", t[i].hash);
	}
}

Test(unchanged, every_models_frames)
{
	static const struct {
		const char *model, *hash;
	} t[] = {
		{ "harden", "0befbdd4238c0ee52cdcac2f46f33d7d4dc21571d6a9c0a4ab2da301d2134676" },
		{ "processing", "f269a17f76e78343e0b6fb31cfa329c4b5700fa496cf52f92632fc5a6b58f0cc" },
		{ "steering", "837ae6f4f20056308ac734a0ecba3c928049290b0846e9a9ba7d7823c22d4826" },
		{ "canvas", "7665b2b181e80715bf7e30bce42356b1e9a0212fa862767d19ba10d60854d63d" },
		{ "opengl", "4773b2a51110bef5e44a1121fc130e428699cfb75ad383f94b0ba0cd23bdb0d7" },
	};
	char args[256];

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		snprintf(args, sizeof(args), "-m %s --frames 3 -o f.y4m -y", t[i].model);
		expect_hash(args, "f.y4m", t[i].hash);
	}
}

Test(unchanged, options_across_modules)
{
	/* trail, obstacle, fixed target, another shape: sim, render and video at once */
	expect_hash("-m steering --trail 4 --obstacle 320,180,40 --target 100,100 --shape arrow "
	            "--frames 3 -o f.y4m",
	            "f.y4m", "a8a336e27c47433ee80bb2ea59b3ea7466665299e1fbc6a820c07ebf90543cb9");
	expect_hash("-m harden --update synchronous --edges both --obstacle 300,180,30 --frames 20 "
	            "-n 300 --no-render --trajectory t.csv",
	            "t.csv", "d6cf6d50d71188a6b608ec3f5eaa2128f58b8dd4d3545505ad91094fe0394314");
}

/* processing's and steering's defaults before issue 40, given as flags: their bytes of before */
Test(unchanged, the_former_defaults_by_flag)
{
	static const char processing[] = "-m processing --proc-max-force 0 --proc-max-speed 0";
	char args[256];

	snprintf(args, sizeof(args), "%s --frames 30 --no-render --trajectory t.csv -y", processing);
	expect_hash(args, "t.csv", "23692b0bdca76bdbd74635f2134b1269a071217c4caeae140bccef366e6fddd3");
	snprintf(args, sizeof(args), "%s --frames 3 -o f.y4m -y", processing);
	expect_hash(args, "f.y4m", "26b24dfa80b20122d29ac45e3dbe03b9fb81c8342ff52a3c78c950a70ccd06d5");
	expect_hash("-m steering -n 100 --frames 30 --no-render --trajectory t.csv -y", "t.csv",
	            "f001c937eb1d077db801ac07e3625ac932cc16990dbb8c2d950b048c1f24752a");
	expect_hash("-m steering -n 100 --frames 3 -o f.y4m -y", "f.y4m",
	            "6a613b2631e3414a8760879845f7c0280540d12cb748c8122ad7e3db355422b0");
	expect_hash("-m steering -n 100 --trail 4 --obstacle 320,180,40 --target 100,100 --shape arrow "
	            "--frames 3 -o f.y4m -y",
	            "f.y4m", "d40945d832393d84bd98aab7e878205fb83f35fcc8be0d1379d78a3ff623dec5");
}

Test(unchanged, synchronous_canvas_at_any_thread_count)
{
	static const char want[] = "181869da6cfb081d2e891de31d138fec1cb97ebbe53642df3d3f473980974b62";

	expect_hash("-m canvas --update synchronous --frames 10 -n 500 --threads 1 --no-render "
	            "--trajectory t.csv -y", "t.csv", want);
	expect_hash("-m canvas --update synchronous --frames 10 -n 500 --threads 2 --no-render "
	            "--trajectory t.csv -y", "t.csv", want);
}

Test(unchanged, default_clip)
{
	/* the README's clip, shortened: libx264 is deterministic at any thread count */
	static const char want[] = "cb04cff5b7bc947cbf55873952abc73857016e990cec14cee1379addefa00791";

	expect_hash("--frames 10 -o flock.mp4", "flock.mp4", want);
	expect_hash("--frames 10 -o flock.mp4 -y --threads 1", "flock.mp4", want);
}

/*
 * Past 2^18 boids the sequential pass asks for later boids' cells ahead of
 * time (grid_hint_cells() and grid_hint_runs() in a plane, a line at a
 * time in a box), and harden's still pass writes no grid items and steers
 * into s->nvx...: none of that may change a byte.  The hashes are those of
 * boids at commit 837cc22, before those three changes; the runs are 262,144
 * boids at the default density, frames 0 and 2.
 */
Test(unchanged, past_the_prefetch_threshold)
{
	expect_hash("-n 262144 --field 24576x24576 -f 3 --trajectory-every 2 --no-render --trajectory h.csv -y",
	            "h.csv", "5551ee1fe9e3476a8d406ebc41e64926aa282ee3ae1a31d864372cf6c7f2a69f");
	expect_hash("-n 262144 --field 24576x24576x1500 --dims 3 -f 3 --trajectory-every 2 --no-render "
	            "--trajectory h3.csv -y",
	            "h3.csv", "12cd05e6e3da1145cead19f62598af0ab4c010b4318b6e7b554fc1743fffa4f1");
	expect_hash("-m canvas -n 262144 --field 24576x24576 -f 3 --trajectory-every 2 --no-render "
	            "--trajectory c.csv -y",
	            "c.csv", "c6a6e6c4134fd85388aad48a938adc137f2e2711c48c38511c106f17ead5f04b");
}
