/*
 * The command line as a user meets it: the malformed-invocation table,
 * help, version, config files, --print-config, overwrite rules.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wordexp.h>

#include "cli.h"
#include "common.h"

static void setup(void) { tc_tmpdir(); }
static void teardown(void) { tc_cleanup(); }

TestSuite(cli, .init = setup, .fini = teardown, .timeout = 120);

static int one_line(const char *s)
{
	const char *nl = strchr(s, '\n');
	return nl && nl[1] == 0;
}

/*
 * A row the option parser itself refuses is checked in this process, which
 * saves starting boids (0.15 s of CPU each: it maps 167 shared libraries):
 * cli_parse() must return CLI_ERROR with one line naming the option, which
 * main() prints as "boids: LINE" with exit 2 (the rows that reach main's
 * own checks, and tests elsewhere, hold main to that).  Returns 0 for a row
 * that needs the binary: shell syntax wordexp() leaves to a shell, or one
 * the parser accepts.
 */
static int refused_by_the_parser(const char *args, const char *expect)
{
	wordexp_t we;
	if (strstr(args, "$(") || strchr(args, '`') || strchr(args, '>') || strchr(args, '|') ||
	    wordexp(args, &we, WRDE_NOCMD | WRDE_UNDEF) != 0)
		return 0;
	char **argv = calloc(we.we_wordc + 2, sizeof(*argv));
	cr_assert_not_null(argv);
	argv[0] = "boids";
	for (size_t i = 0; i < we.we_wordc; i++)
		argv[i + 1] = we.we_wordv[i];
	struct config s;
	char err[512];
	int r = cli_parse(&s, (int)we.we_wordc + 1, argv, err, sizeof(err));
	cli_release(&s);
	if (r == CLI_ERROR) {
		cr_expect(strstr(err, expect) != NULL, "'boids %s': message does not name '%s': %s",
		          args, expect, err);
		cr_expect(!strchr(err, '\n') && err[0], "'boids %s': not one line: [%s]", args, err);
	}
	free(argv);
	wordfree(&we);
	return r == CLI_ERROR;
}

Test(cli, every_malformed_invocation_exits_2_naming_the_option)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/tests/bad_args.txt", getenv("BOIDS_SRC") ? getenv("BOIDS_SRC") : SRCDIR);
	FILE *f = fopen(path, "r");
	cr_assert_not_null(f, "cannot open %s", path);
	char line[1024];
	int cases = 0, parsed = 0;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (!line[0] || line[0] == '#')
			continue;
		char *tab = strchr(line, '\t');
		cr_assert_not_null(tab, "bad table line: %s", line);
		*tab = 0;
		const char *expect = line, *args = tab + 1;
		if (refused_by_the_parser(args, expect)) {
			parsed++;
			cases++;
			continue;
		}
		int st = tc_boids("%s", args);
		const char *err = tc_stderr();
		cr_expect_eq(st, 2, "'boids %s' exited %d, not 2 (stderr: %s)", args, st, err);
		cr_expect(strncmp(err, "boids: ", 7) == 0 && one_line(err),
		          "'boids %s' did not print one 'boids: ...' line: [%s]", args, err);
		cr_expect(strstr(err, expect) != NULL,
		          "'boids %s': message does not name '%s': %s", args, expect, err);
		cr_expect_eq(tc_count_files("."), 0, "'boids %s' left a file behind", args);
		cases++;
	}
	fclose(f);
	cr_assert_geq(cases, 40);
	cr_assert_lt(parsed, cases, "some rows must reach the binary's own checks");
}

/*
 * The options the man page documents, with their stated defaults: an
 * independent list to hold the binary's help against.  Calls fn for each
 * entry "\fB\-\-name\fR..." with the name (dashes plain) and its
 * "Default: X" (X up to the end of its line, or NULL).
 */
static int man_options(void (*fn)(const char *name, const char *def, void *ctx), void *ctx)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/docs/boids.1", SRCDIR);
	char *man = tc_slurp(path, NULL);
	cr_assert_not_null(man, "no man page at %s", path);
	int count = 0;
	for (char *line = man; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		if (strncmp(line, ".TP\n", 4) != 0)
			continue;
		char *entry = line + 4, *dd = strstr(entry, "\\fB\\-\\-");
		char *eol = strchr(entry, '\n');
		if (!dd || !eol || dd > eol)
			continue;
		char name[80], *w = name;
		for (char *c = dd + 7; w < name + sizeof(name) - 1; c++) {
			if (c[0] == '\\' && c[1] == '-')
				*w++ = '-', c++;
			else if ((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9'))
				*w++ = *c;
			else
				break;
		}
		*w = 0;
		/* the paragraph runs to the next entry or heading */
		char *end = strstr(entry, "\n.");
		char *d = strstr(entry, "Default: "), def[96] = "";
		if (d && (!end || d < end)) {
			d += 9;
			for (w = def; *d && *d != '\n' && w < def + sizeof(def) - 1; d++)
				if (!(d[0] == '\\' && d[1] == '-'))
					*w++ = *d;
			*w = 0;
		}
		fn(name, *def ? def : NULL, ctx);
		count++;
	}
	free(man);
	return count;
}

static void in_help_all(const char *name, const char *def, void *ctx)
{
	const char *h = ctx;
	char key[96];
	snprintf(key, sizeof(key), "--%s", name);
	const char *at = NULL;
	for (const char *c = strstr(h, key); c && !at; c = strstr(c + 1, key)) /* its entry: "  --x" or "-x, --x" */
		if (!((c[strlen(key)] >= 'a' && c[strlen(key)] <= 'z') || c[strlen(key)] == '-') && c - h >= 2 &&
		    c[-1] == ' ' && (c[-2] == ' ' || c[-2] == ','))
			at = c;
	cr_expect(at, "--help-all does not list %s", key);
	if (!at || !def || strcmp(def, "none") == 0)
		return;
	/* the entry's default, "[X]" or "[X UNITS]", before the next option's entry */
	char want[112];
	snprintf(want, sizeof(want), "[%s", def);
	const char *next = strstr(at + 2, "\n  ");
	while (next && next[3] == ' ')
		next = strstr(next + 1, "\n  "); /* continuation lines */
	const char *d = strstr(at, want);
	while (d && d[strlen(want)] != ']' && d[strlen(want)] != ' ')
		d = strstr(d + 1, want);
	cr_expect(d && (!next || d < next), "--help-all: %s does not show the man page's default %s]",
	          key, want);
}

Test(cli, help_all_lists_every_option_the_man_page_documents)
{
	cr_assert_eq(tc_boids_exec("--help-all"), 0); /* the binary itself, started */
	char *h = strdup(tc_stdout());
	cr_assert_geq(man_options(in_help_all, h), 90);
	cr_assert(strstr(h, "Exit status"));
	cr_assert_str_empty(tc_stderr());
	free(h);
}

Test(cli, help_fits_80_columns_one_line_per_option)
{
	const char *which[] = { "--help", "--help-all" };
	for (int k = 0; k < 2; k++) {
		cr_assert_eq(tc_boids_exec("%s", which[k]), 0);
		const char *h = tc_stdout();
		int lines = 0, options = 0;
		for (const char *l = h; *l; lines++) {
			const char *e = strchr(l, '\n');
			size_t len = e ? (size_t)(e - l) : strlen(l);
			size_t pad = strspn(l, " ");
			int url = (!strncmp(l + pad, "https://", 8) || !strncmp(l + pad, "http://", 7)) &&
			          !memchr(l + pad, ' ', len - pad); /* an address alone on its line cannot wrap */
			cr_expect(url || len <= 80, "%s: a line of %zu columns: %.*s", which[k], len, (int)len, l);
			if (k == 0 && strncmp(l, "  ", 2) == 0 && memchr(l, '-', len)) {
				options++;
				cr_expect(!e || strspn(e + 1, " ") < 26,
				          "--help: an option over two lines: %.*s", (int)len, l);
			}
			l = e ? e + 1 : l + len;
		}
		if (k == 0) {
			cr_expect_leq(lines, 60, "--help is %d lines", lines);
			cr_expect_geq(options, 25, "--help shows %d options", options);
			cr_expect(strstr(h, "--help-all"), "--help points to --help-all");
		}
	}
}

/*
 * --version as ffmpeg -version: the version first, the commit git has for
 * the checkout it was built from, the compiler, and each library's version
 * as the running process has it, each checked against the library itself
 * (Python's ctypes loads it and asks).
 */
Test(cli, version_prints_the_version_commit_compiler_and_libraries)
{
	cr_assert_eq(tc_boids_exec("--version"), 0); /* the binary itself, started */
	const char *out = tc_stdout();
	cr_assert(strncmp(out, "boids " BOIDS_VERSION "\n", strlen(BOIDS_VERSION) + 7) == 0, "%s", out);
	FILE *f = fopen("version.txt", "w");
	cr_assert_not_null(f);
	fputs(out, f);
	fclose(f);
	if (tc_sh("git -C '%s' rev-parse HEAD >head.txt 2>/dev/null", SRCDIR) == 0) {
		char *head = tc_slurp("head.txt", NULL), line[64];
		const char *c = strstr(out, "\ncommit: ");
		cr_assert(c && sscanf(c + 9, "%63[0-9a-f]", line) == 1, "no commit:\n%s", out);
		cr_expect(strlen(line) >= 7 && strncmp(head, line, strlen(line)) == 0, "commit %s, git has %s", line, head);
		free(head);
	}
	cr_expect(strstr(out, "\nbuilt with gcc ") || strstr(out, "\nbuilt with clang "), "%s", out);
	cr_assert_eq(tc_sh("%s -c 'import ctypes, ctypes.util, re\n"
	                   "t=open(\"version.txt\").read()\n"
	                   "def shown(name): return re.search(\"^  \"+name+\" +([^ \\n]+)\", t, re.M).group(1)\n"
	                   "def lib(n): return ctypes.CDLL(ctypes.util.find_library(n))\n"
	                   "def s(l, f): g=getattr(lib(l), f); g.restype=ctypes.c_char_p; return g().decode()\n"
	                   "def v(l, f): x=getattr(lib(l), f)(); return \"%%d.%%d.%%d\" %% (x>>16, x>>8&255, x&255)\n"
	                   "want={\"cairo\": s(\"cairo\",\"cairo_version_string\"), \"pixman\": s(\"pixman-1\",\"pixman_version_string\"),\n"
	                   " \"pango\": s(\"pango-1.0\",\"pango_version_string\"),\n"
	                   " \"libavformat\": v(\"avformat\",\"avformat_version\"), \"libavcodec\": v(\"avcodec\",\"avcodec_version\"),\n"
	                   " \"libavutil\": v(\"avutil\",\"avutil_version\"), \"libswscale\": v(\"swscale\",\"swscale_version\")}\n"
	                   "p=lib(\"png16\"); p.png_get_libpng_ver.restype=ctypes.c_char_p; want[\"libpng\"]=p.png_get_libpng_ver(None).decode()\n"
	                   "u=[ctypes.c_uint() for i in range(3)]; lib(\"hdf5_serial\").H5get_libversion(*map(ctypes.byref, u))\n"
	                   "want[\"hdf5\"]=\".\".join(str(x.value) for x in u)\n"
	                   "for k, w in want.items(): assert shown(k)==w, (k, shown(k), w)\n"
	                   "assert re.search(\"^  x264 +build [0-9]+ \", t, re.M), t\n"
	                   "assert re.search(\"^  libvpx +v[0-9]\", t, re.M), t' || { cat version.txt; exit 1; }",
	                   tc_python()), 0);
	cr_assert_eq(tc_boids_exec("-V"), 0);
	cr_expect(strncmp(tc_stdout(), "boids " BOIDS_VERSION "\n", strlen(BOIDS_VERSION) + 7) == 0);
}

/* The options boids itself lists (--list-options), for the man page test. */
struct listed {
	int n;
	struct { char name[64], def[128]; int has_def, flag, in_man; } o[256];
};

/* The value of "key": "..." in a line of --list-options; 0 when null or absent. */
static int json_field(const char *line, const char *key, char *out, size_t len)
{
	char pat[64];
	snprintf(pat, sizeof(pat), "\"%s\": \"", key);
	const char *at = strstr(line, pat);
	if (!at)
		return 0;
	at += strlen(pat);
	size_t k = 0;
	for (; *at && *at != '"' && k + 1 < len; at++)
		out[k++] = *at == '\\' ? *++at : *at;
	out[k] = 0;
	return 1;
}

static void list_options(struct listed *l)
{
	cr_assert_eq(tc_boids("--list-options"), 0);
	const char *json = tc_stdout();
	l->n = 0;
	for (const char *line = strstr(json, "\n  {"); line && l->n < 256; line = strstr(line + 1, "\n  {")) {
		char one[4096], type[32];
		snprintf(one, sizeof(one), "%.*s", (int)strcspn(line + 1, "\n"), line + 1);
		cr_assert(json_field(one, "name", l->o[l->n].name, sizeof(l->o[l->n].name)), "%s", one);
		l->o[l->n].has_def = json_field(one, "default", l->o[l->n].def, sizeof(l->o[l->n].def));
		l->o[l->n].flag = json_field(one, "type", type, sizeof(type)) && strcmp(type, "flag") == 0;
		l->o[l->n].in_man = 0;
		l->n++;
	}
}

/* One man page entry: boids must have it, with the default the page states. */
static void in_list(const char *name, const char *def, void *ctx)
{
	struct listed *l = ctx;
	int i = 0;
	while (i < l->n && strcmp(l->o[i].name, name) != 0)
		i++;
	cr_expect(i < l->n, "the man page documents --%s, which boids --list-options does not list", name);
	if (i == l->n)
		return;
	l->o[i].in_man = 1;
	if (!l->o[i].has_def || !*l->o[i].def || l->o[i].flag)
		return;
	size_t k = strlen(l->o[i].def);
	cr_expect(def && strncmp(def, l->o[i].def, k) == 0 && strchr(" .,;)", def[k]),
	          "--%s: the man page says 'Default: %s', boids --list-options \"%s\"", name,
	          def ? def : "(none)", l->o[i].def);
}

/*
 * The man page (written by hand) and the binary list the same options,
 * with the same defaults: each entry of docs/boids.1 is an option boids
 * has, and each option boids lists has its entry.
 */
Test(cli, man_page_documents_exactly_the_binarys_options)
{
	static struct listed l;
	list_options(&l);
	cr_assert_geq(l.n, 100, "boids --list-options lists %d options", l.n);
	cr_assert_geq(man_options(in_list, &l), 100);
	for (int i = 0; i < l.n; i++)
		cr_expect(l.o[i].in_man, "boids has --%s, the man page lacks it", l.o[i].name);
}

Test(cli, print_config_reproduces_the_settings)
{
	cr_assert_eq(tc_boids("--print-config -n 42 --align-weight 0.05 --edges wrap --background red "
	                      "--flock-weight 0.1 --duration 2 -r 25 --seed 9"), 0);
	char *first = strdup(tc_stdout());
	FILE *f = fopen("saved.cfg", "w");
	fputs(first, f);
	fclose(f);
	cr_assert(strstr(first, "boids = 42\n"));
	cr_assert(strstr(first, "frames = 50\n"), "duration 2 s at 25 fps is 50 frames");
	cr_assert(strstr(first, "background = #ff0000\n"));
	cr_assert_eq(tc_boids("--config saved.cfg --print-config"), 0);
	cr_assert_str_eq(tc_stdout(), first);
	free(first);
}

Test(cli, command_line_wins_over_the_config_file)
{
	FILE *f = fopen("a.cfg", "w");
	fputs("# a comment\nboids = 7\nfps = 12\n\nedges = wrap\n", f);
	fclose(f);
	cr_assert_eq(tc_boids("-n 9 --print-config --config a.cfg"), 0);
	cr_assert(strstr(tc_stdout(), "boids = 9\n"));
	cr_assert(strstr(tc_stdout(), "fps = 12\n"));
	cr_assert(strstr(tc_stdout(), "edges = wrap\n"));
}

Test(cli, a_flag_takes_yes_or_no_in_its_long_form)
{
	FILE *f = fopen("b.cfg", "w");
	fputs("ground = no\noverwrite = yes\n", f);
	fclose(f);
	cr_assert_eq(tc_boids("--box=no --ground --overwrite=off --print-config --config b.cfg"), 0);
	cr_assert(strstr(tc_stdout(), "box = no\n"), "--box=no: %s", tc_stdout());
	cr_assert(strstr(tc_stdout(), "ground = yes\n"), "--ground wins over the file's no");
	cr_assert(strstr(tc_stdout(), "overwrite = no\n"), "--overwrite=off wins over the file's yes");
	cr_assert_eq(tc_boids("--print-config"), 0);
	cr_assert(strstr(tc_stdout(), "box = yes\n") && strstr(tc_stdout(), "ground = yes\n"),
	          "3D's box and ground are on by default");
	cr_assert_eq(tc_boids("--box=sometimes --print-config"), 2);
}

Test(cli, config_errors_name_file_and_line)
{
	FILE *f = fopen("bad.cfg", "w");
	fputs("boids = 7\n# fine\nbodis = 3\n", f);
	fclose(f);
	cr_assert_eq(tc_boids("--config bad.cfg"), 2);
	cr_assert(strstr(tc_stderr(), "bad.cfg:3: unknown key 'bodis'"), "%s", tc_stderr());
	f = fopen("bad2.cfg", "w");
	fputs("fps = 30\nboids = 12abc\n", f);
	fclose(f);
	cr_assert_eq(tc_boids("--config bad2.cfg"), 2);
	cr_assert(strstr(tc_stderr(), "bad2.cfg:2: --boids"), "%s", tc_stderr());
	f = fopen("bad3.cfg", "w");
	fputs("just words\n", f);
	fclose(f);
	cr_assert_eq(tc_boids("--config bad3.cfg"), 2);
	cr_assert(strstr(tc_stderr(), "bad3.cfg:1:"), "%s", tc_stderr());
	cr_assert_eq(tc_count_files("."), 3);
}

Test(cli, existing_output_is_refused_without_y)
{
	cr_assert_eq(tc_sh("echo keep > t.csv"), 0);
	cr_assert_eq(tc_boids("--no-render -f 3 --trajectory t.csv"), 2);
	cr_assert(strstr(tc_stderr(), "'t.csv' exists (use -y to overwrite)"), "%s", tc_stderr());
	char *t = tc_slurp("t.csv", NULL);
	cr_assert_str_eq(t, "keep\n");
	free(t);
	/* --no-clobber cancels a -y given before it */
	cr_assert_eq(tc_boids("-y --no-clobber --no-render -f 3 --trajectory t.csv"), 2);
	cr_assert_eq(tc_boids("-y --no-render -f 3 --trajectory t.csv"), 0);
	t = tc_slurp("t.csv", NULL);
	cr_assert(strncmp(t, "frame,id,x,y,vx,vy\n", 19) == 0);
	free(t);
	cr_assert_eq(tc_count_files("."), 1, "a temporary file was left behind");
}

Test(cli, no_render_writes_only_the_trajectory)
{
	cr_assert_eq(tc_boids("--no-render -f 5 -n 10 --trajectory t.csv -q"), 0);
	cr_assert_eq(tc_count_files("."), 1);
	cr_assert_str_empty(tc_stderr());
	cr_assert_str_empty(tc_stdout());
}

Test(cli, summary_line_unless_quiet)
{
	cr_assert_eq(tc_boids("--no-render -f 5 --trajectory t.csv"), 0);
	cr_assert(strstr(tc_stderr(), "5 frames of 100 boids"), "%s", tc_stderr());
	cr_assert(one_line(tc_stderr()));
	cr_assert_eq(tc_boids("-y --no-render -f 5 --trajectory t.csv --quiet"), 0);
	cr_assert_str_empty(tc_stderr());
}

Test(cli, progress_always_draws_a_bar_and_never_does_not)
{
	cr_assert_eq(tc_boids("--no-render -f 3 --progress always -q"), 0);
	cr_assert(strstr(tc_stderr(), "3/3 frames"), "%s", tc_stderr());
	cr_assert_eq(tc_boids("--no-render -f 3 --progress never"), 0);
	cr_assert_null(strstr(tc_stderr(), "3/3 frames"));
}

Test(cli, summary_is_valid_json_with_every_parameter)
{
	cr_assert_eq(tc_boids("--no-render -q -f 20 -n 50 --seed 5 --summary s.json --metrics m.csv"), 0);
	/* an independent parser: python's json module */
	cr_assert_eq(tc_sh("%s -c 'import json,sys; d=json.load(open(\"s.json\")); "
	                   "assert d[\"seed\"]==5 and d[\"frames\"]==20 and d[\"output\"] is None; "
	                   "assert d[\"parameters\"][\"boids\"]==50 and d[\"parameters\"][\"edges\"]==\"bounce\"; "
	                   "m=d[\"metrics\"]; assert set(m)=={\"polarization\",\"milling\",\"mean_speed\",\"nn_distance\",\"gyration_radius\",\"clusters\"}; "
	                   "assert all(0<=m[k][\"final\"]<=1 for k in (\"polarization\",\"milling\"))'", tc_python()), 0);
	/* "parameters" holds every key --print-config writes, nothing else */
	cr_assert_eq(tc_boids("--print-config"), 0);
	FILE *cfg = fopen("run.cfg", "w");
	cr_assert(cfg && fputs(tc_stdout(), cfg) >= 0 && fclose(cfg) == 0);
	cr_assert_eq(tc_sh("%s -c 'import json,re; d=json.load(open(\"s.json\")); "
	                   "keys={m.group(1) for m in re.finditer(r\"^([a-z0-9-]+) = \", open(\"run.cfg\").read(), re.M)}; "
	                   "assert len(keys) > 100 and set(d[\"parameters\"]) == keys, keys ^ set(d[\"parameters\"])'",
	                   tc_python()), 0);
	/* 20 frames: header + 20 rows; the summary's final is the last row */
	cr_assert_eq(tc_sh("test $(wc -l < m.csv) -eq 21"), 0);
	cr_assert_eq(tc_sh("%s -c 'import json,csv; d=json.load(open(\"s.json\")); r=list(csv.DictReader(open(\"m.csv\")))[-1]; "
	                   "assert float(r[\"polarization\"])==d[\"metrics\"][\"polarization\"][\"final\"]'", tc_python()), 0);
}

/* The summary's start time: ISO 8601 in UTC, between the test's clock before and after the run. */
Test(cli, summary_says_when_the_run_started)
{
	struct timespec before, after;
	clock_gettime(CLOCK_REALTIME, &before);
	cr_assert_eq(tc_boids("--no-render -q -f 5 -n 20 --summary s.json"), 0, "%s", tc_stderr());
	clock_gettime(CLOCK_REALTIME, &after);
	cr_assert_eq(tc_sh("%s -c 'import json,datetime,re\n"
	                   "s=json.load(open(\"s.json\"))[\"started\"]\n"
	                   "assert re.fullmatch(r\"\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z\", s), s\n"
	                   "t=datetime.datetime.strptime(s, \"%%Y-%%m-%%dT%%H:%%M:%%S.%%fZ\").replace(tzinfo=datetime.timezone.utc).timestamp()\n"
	                   "assert %lld.%03ld - 0.001 <= t <= %lld.%03ld, (s, t)'",
	                   tc_python(), (long long)before.tv_sec, before.tv_nsec / 1000000, (long long)after.tv_sec,
	                   after.tv_nsec / 1000000), 0);
}

Test(cli, summary_to_stdout_and_a_name_used_twice)
{
	cr_assert_eq(tc_boids("--no-render -q -f 3 --summary -"), 0);
	cr_assert(strncmp(tc_stdout(), "{\n  \"version\"", 13) == 0, "%s", tc_stdout());
	cr_assert_eq(tc_boids("--no-render -f 3 --summary x.csv --trajectory x.csv"), 2);
	cr_assert(strstr(tc_stderr(), "--summary: 'x.csv' is also the --trajectory"), "%s", tc_stderr());
	cr_assert_eq(tc_boids("-o - --summary -"), 2);
	cr_assert_eq(tc_count_files("."), 0);
}

Test(cli, config_format_edges)
{
	/* quoting keeps blanks; print-config writes what reads back */
	cr_assert_eq(tc_boids("--print-config -o ' my video.mp4' --trajectory 'a;b.csv' --metrics 'm.csv '"), 0,
	             "%s", tc_stderr());
	char *cfg = strdup(tc_stdout());
	cr_assert(strstr(cfg, "output = \" my video.mp4\"\n"), "%s", cfg);
	cr_assert(strstr(cfg, "trajectory = a;b.csv\n"), "%s", cfg);
	cr_assert(strstr(cfg, "metrics = \"m.csv \"\n"), "%s", cfg);
	FILE *f = fopen("q.cfg", "w");
	fputs(cfg, f);
	fclose(f);
	cr_assert_eq(tc_boids("--config q.cfg --print-config"), 0);
	cr_assert_str_eq(tc_stdout(), cfg);
	free(cfg);

	/* a long line is one line; an indented line is its own setting */
	char dir[201];
	memset(dir, 'd', 200);
	dir[200] = 0;
	cr_assert_eq(mkdir(dir, 0755), 0); /* a name the run accepts: 300 bytes in two parts */
	f = fopen("l.cfg", "w");
	fprintf(f, "# comment\n  ; another\n\noutput = %s/", dir);
	for (int i = 0; i < 100; i++)
		fputc('x', f);
	fprintf(f, ".mp4\n    boids = 5\nfps=12\n");
	fclose(f);
	cr_assert_eq(tc_boids("--config l.cfg --print-config"), 0, "%s", tc_stderr());
	cr_assert(strstr(tc_stdout(), "boids = 5\n"));
	cr_assert(strstr(tc_stdout(), "fps = 12\n"));
	cr_assert(strstr(tc_stdout(), "xxx.mp4\n"));

	/* errors name the right line */
	static const struct { const char *text, *want; } bad[] = {
		{ "boids = 5\nnonsense\nbodis = 1\n", "e.cfg:2: expected 'key = value'" },
		{ "boids = 5\n[section]\n", "e.cfg:2: expected" },
		{ "\n\noutput = \"abc\n", "e.cfg:3: output: no closing quote" },
		{ "output = \"a\" b\n", "e.cfg:1: output: text after the closing quote" },
		{ "output = \"a\\qb\"\n", "e.cfg:1: output: unknown escape" },
		{ "help = yes\n", "e.cfg:1: unknown key 'help'" },
		{ "boids = 5 # not a comment\n", "e.cfg:1: --boids" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		f = fopen("e.cfg", "w");
		fputs(bad[i].text, f);
		fclose(f);
		cr_expect_eq(tc_boids("--config e.cfg"), 2, "case %zu", i);
		cr_expect(strstr(tc_stderr(), bad[i].want), "case %zu: %s", i, tc_stderr());
	}
}

Test(cli, messages_stay_on_one_line)
{
	cr_assert_eq(tc_boids("--boids \"$(printf '12\\nboids: fake')\""), 2);
	const char *e = tc_stderr();
	cr_assert(strchr(e, '\n') == e + strlen(e) - 1, "%s", e);
	cr_assert(strstr(e, "'12?boids: fake'"), "%s", e);
}

Test(cli, numbers_print_plainly_and_tiny_ones_are_numbers)
{
	cr_assert_eq(tc_boids("--print-config --wall-pad 50 --flock-weight 1e-310 --align-weight 0.00001"), 0, "%s", tc_stderr());
	cr_assert(strstr(tc_stdout(), "wall-pad = 50\n"));
	cr_assert(strstr(tc_stdout(), "align-weight = 1e-05\n"), "%s", tc_stdout());
}

Test(cli, command_line_duration_wins_over_a_files_frames)
{
	cr_assert_eq(tc_boids("--print-config"), 0);
	FILE *cfg = fopen("run.cfg", "w");
	cr_assert(cfg && fputs(tc_stdout(), cfg) >= 0 && fclose(cfg) == 0);
	cr_assert_eq(tc_boids("--config run.cfg --duration 1 --print-config"), 0, "%s", tc_stderr());
	cr_assert(strstr(tc_stdout(), "frames = 30\n"), "%s", tc_stdout());
	cr_assert_eq(tc_sh("printf 'duration = 2\\n' > d.cfg"), 0);
	cr_assert_eq(tc_boids("--config d.cfg -f 7 --print-config"), 0);
	cr_assert(strstr(tc_stdout(), "frames = 7\n"));
}

Test(cli, small_flocks_and_standard_output_for_side_files)
{
	/* the default 3 predators shrink to fit a flock of 2; asked for, they are an error */
	cr_assert_eq(tc_boids("-q -n 2 -f 1 --no-render --trajectory t.csv"), 0, "%s", tc_stderr());
	cr_assert_eq(tc_boids("-n 2 --predators 3 -f 1 --no-render"), 2);
	/* - is standard output for the trajectory and the metrics too */
	cr_assert_eq(tc_boids("-q -n 4 -f 2 --no-render --trajectory -"), 0);
	cr_assert(strncmp(tc_stdout(), "frame,id,x,y,vx,vy\n", 19) == 0);
	cr_assert_eq(tc_boids("-q -f 2 --no-render --metrics - --trajectory -"), 2);
	cr_assert_eq(tc_boids("--no-render -o x.mp4"), 2);
	cr_assert_eq(tc_count_files("."), 1);
}

/* cli_parse() of `--name value` plus extra words; returns its result, err the message. */
static int parse_one(const char *name, const char *value, const char *extra, char *err, size_t len)
{
	char opt[96];
	snprintf(opt, sizeof(opt), "--%s", name);
	char *argv[8] = { "boids", opt, (char *)value };
	int argc = 3;
	wordexp_t we = { 0 };
	if (extra && extra[0]) {
		cr_assert_eq(wordexp(extra, &we, WRDE_NOCMD), 0);
		for (size_t i = 0; i < we.we_wordc && argc < 7; i++)
			argv[argc++] = we.we_wordv[i];
	}
	struct config c;
	int r = cli_parse(&c, argc, argv, err, len);
	cli_release(&c);
	if (extra && extra[0])
		wordfree(&we);
	return r;
}

/* One value of one option: accepted (parses), or refused for its range. */
static void hold_bound(const char *name, const char *value, int accept, const char *why)
{
	/* the other options a value needs to stand alone (a cross-option rule, not its range) */
	static const struct { const char *name, *extra; } needs[] = {
		{ "min-speed", "--max-speed 1e6" },      /* not above --max-speed */
		{ "max-speed", "--min-speed 0" },
		{ "gl-speed-min", "--gl-speed-max 1e6" }, /* not above --gl-speed-max */
		{ "gl-speed-max", "--gl-speed-min 0" },
		{ "duration", "--fps 10" },               /* 1e7 s is 1e8 frames at 10 fps */
		{ "scale", "--size 256x256" },            /* x64 is a 16384x16384 picture */
		{ "trajectory-every", "--trajectory t.h5" }, /* the trajectory's options need one */
		{ "trajectory-compress", "--trajectory t.h5" },
		{ "init-frame", "--init t.csv" },         /* --init-frame needs an --init */
	};
	const char *extra = NULL;
	char err[512];

	for (size_t i = 0; i < sizeof(needs) / sizeof(*needs); i++)
		if (strcmp(needs[i].name, name) == 0)
			extra = needs[i].extra;
	int r = parse_one(name, value, extra, err, sizeof(err));
	if (accept) {
		cr_expect_eq(r, CLI_RUN, "--%s %s (%s) is listed as accepted: %s", name, value, why, err);
		return;
	}
	char range[128];
	snprintf(range, sizeof(range), "--%s: %s is out of range", name, value);
	cr_expect(r == CLI_ERROR && strstr(err, range), "--%s %s (%s) is listed as refused: %s",
	          name, value, why, r == CLI_ERROR ? err : "accepted");
}

/*
 * Every bound --list-options states, held against the parser on both
 * sides: the bound itself accepted (refused when it says exclusive), one
 * step past it refused, and one step inside an exclusive bound accepted.
 * A step is 1 for whole numbers, the next double for numbers; a size
 * holds its bounds for the width and the height.
 */
Test(cli, every_listed_bound_holds_against_the_parser)
{
	cr_assert_eq(tc_boids("--list-options"), 0);
	FILE *f = fopen("o.json", "w");
	fputs(tc_stdout(), f);
	fclose(f);
	cr_assert_eq(tc_sh("'%s' -c 'import json\n"
	                   "for o in json.load(open(\"o.json\"))[\"options\"]:\n"
	                   "  for side in (\"min\", \"max\"):\n"
	                   "    if o[side] is not None:\n"
	                   "      print(o[\"name\"], o[\"type\"], side, repr(float(o[side])), int(o[side + \"_exclusive\"]))\n"
	                   "' > bounds.txt", tc_python()), 0);
	char line[256], name[64], type[16], side[4];
	double v;
	int excl, rows = 0, exclusive = 0;
	f = fopen("bounds.txt", "r");
	cr_assert_not_null(f);
	while (fgets(line, sizeof(line), f)) {
		cr_assert_eq(sscanf(line, "%63s %15s %3s %lf %d", name, type, side, &v, &excl), 5, "%s", line);
		int lo = strcmp(side, "min") == 0;
		double out = lo ? -INFINITY : INFINITY, in = -out;
		char at[64], past[64], inside[64];
		if (strcmp(type, "number") == 0) {
			snprintf(at, sizeof(at), "%.17g", v);
			snprintf(past, sizeof(past), "%.17g", nextafter(v, out));
			snprintf(inside, sizeof(inside), "%.17g", nextafter(v, in));
		} else if (strcmp(type, "integer") == 0) {
			snprintf(at, sizeof(at), "%.0f", v);
			snprintf(past, sizeof(past), "%.0f", lo ? v - 1 : v + 1);
			snprintf(inside, sizeof(inside), "%.0f", lo ? v + 1 : v - 1);
		} else {
			/* a size WxH, or a box WxH[xD] (--field): each side within the bounds */
			cr_assert(strcmp(type, "size") == 0 || strcmp(type, "box") == 0, "--%s: a bound on a %s",
			          name, type);
			long b = (long)v, p = lo ? b - 1 : b + 1;
			snprintf(at, sizeof(at), "%ldx%ld", b, b);
			snprintf(past, sizeof(past), "%ldx%ld", p, b);
			snprintf(inside, sizeof(inside), "%ldx%ld", b, p);
			/* the height too: the message names the whole value */
			hold_bound(name, inside, 0, "one step past, in the height");
			snprintf(inside, sizeof(inside), "%ldx%ld", b, b);
		}
		hold_bound(name, at, !excl, "the bound itself");
		hold_bound(name, past, 0, "one step past it");
		/* a tiny --duration or --scale parses, then makes 0 frames or a 0x0
		 * picture, refused by the frame and picture limits their messages state */
		if (excl && strcmp(name, "duration") != 0 && strcmp(name, "scale") != 0)
			hold_bound(name, inside, 1, "one step inside an exclusive bound");
		rows++;
		exclusive += excl;
	}
	fclose(f);
	cr_assert_gt(rows, 100, "only %d bounds listed", rows);
	cr_assert_geq(exclusive, 20, "only %d exclusive bounds: the 23 options that refuse 0", exclusive);
}

/*
 * --print-config refuses what the run refuses, with the same line, and
 * prints what the run uses: it runs the run's checks without its work.
 */
Test(cli, print_config_refuses_what_the_run_refuses)
{
	cr_assert_eq(tc_sh("printf 'frame,id,x,y,vx,vy,z,vz\\n0,0,1,2,3,4,5,6\\n0,1,1,2,3,4,5,6\\n' > t3.csv && "
	                   "printf 'x,vx,y\\n1,2,3\\n' > bad.csv && echo old > v.mp4"), 0);
	static const char *const refused[] = {
		"--init t3.csv --dims 2",                   /* a 3D file in a plane */
		"--init missing.csv",                       /* an input that is not there */
		"--init bad.csv",                           /* a column missing */
		"-o v.mp4",                                 /* an output there, without -y */
		"-o s.png --metrics s.png -y",              /* one file, two roles */
		"-o s.png --poster 5 -f 3",                 /* a poster past the last frame */
		"--codec libx265 -o v.webm",                /* a codec the container refuses */
		"-n 10000000 --trail 1000 -o w.mp4",        /* more memory than the machine has */
		"-o nodir/v.mp4",                           /* a directory that does not exist */
	};
	for (size_t i = 0; i < sizeof(refused) / sizeof(*refused); i++) {
		int st = tc_boids("-q %s", refused[i]);
		char *run = strdup(tc_stderr());
		cr_expect_eq(st, 2, "'%s': the run exits %d: %s", refused[i], st, run);
		st = tc_boids("-q %s --print-config", refused[i]);
		cr_expect_eq(st, 2, "'%s --print-config' exits %d", refused[i], st);
		cr_expect_str_eq(tc_stderr(), run, "'%s': --print-config says something else", refused[i]);
		cr_expect_str_eq(tc_stdout(), "", "'%s': a config was printed", refused[i]);
		free(run);
	}
	cr_assert_eq(tc_count_files("."), 3, "a file was made");

	/* what it prints is what the run uses: the file's boid count and dims */
	cr_assert_eq(tc_boids("--init t3.csv -n 50 --print-config"), 0, "%s", tc_stderr());
	cr_assert(strstr(tc_stdout(), "\nboids = 2\n") && strstr(tc_stdout(), "\ndims = 3\n"), "%s", tc_stdout());
	cr_assert_eq(tc_boids("--config /dev/null --init t3.csv -n 50 -q --no-render -f 1 --summary s.json"), 0,
	             "%s", tc_stderr());
	char *j = tc_slurp("s.json", NULL);
	cr_assert(strstr(j, "\"boids\": 2,") && strstr(j, "\"dims\": 3,"), "%s", j);
	free(j);

	/* a FIFO is not opened (that would wait for a writer and take the run's data): it says so */
	cr_assert_eq(mkfifo("p.csv", 0644), 0);
	cr_assert_eq(tc_boids("--init p.csv -n 50 --print-config"), 0, "%s", tc_stderr());
	cr_assert(strstr(tc_stdout(), "\nboids = 50\n"), "%s", tc_stdout());
	cr_assert(strstr(tc_stderr(), "--init 'p.csv' is not a regular file: not read here"), "%s", tc_stderr());
}
