/*
 * summary — run summary as JSON; see include/summary.h.
 */
#include "summary.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void put_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

static void put_number(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.17g", v);
	else
		fputs("null", f);
}

/* Is the formatted value of a numeric option a plain JSON number? */
static int is_number(const struct cli_option *o, const char *v)
{
	if (o->type != CLI_LONG && o->type != CLI_U64 && o->type != CLI_DOUBLE)
		return 0;
	return strcmp(v, "auto") != 0;
}

int summary_write(FILE *f, const struct summary *s)
{
	size_t n;
	const struct cli_option *opts = cli_options(&n);
	char v[4096];

	errno = 0;
	fprintf(f, "{\n  \"version\": \"%s\",\n  \"seed\": %llu,\n  \"parameters\": {", BOIDS_VERSION,
	        (unsigned long long)s->set->seed);
	int first = 1;
	for (size_t i = 0; i < n; i++) {
		if (opts[i].flags & CLI_NOCONFIG)
			continue;
		fprintf(f, "%s\n    ", first ? "" : ",");
		put_string(f, opts[i].name);
		fputs(": ", f);
		first = 0;
		if (opts[i].type == CLI_STRING) { /* straight from the settings: no length limit */
			const char *str = *(char *const *)(const void *)((const char *)s->set + opts[i].offset);
			put_string(f, str ? str : "");
			continue;
		}
		cli_format_value(s->set, &opts[i], v, sizeof(v));
		if (is_number(&opts[i], v))
			fputs(v, f);
		else
			put_string(f, v);
	}
	fprintf(f, "\n  },\n  \"frames\": %ld,\n  \"wall_time_s\": ", s->frames);
	put_number(f, s->wall_time);
	fputs(",\n  \"output\": ", f);
	if (s->output)
		put_string(f, s->output);
	else
		fputs("null", f);
	fputs(",\n  \"metrics\": ", f);
	if (!s->have_metrics) {
		fputs("null", f);
	} else {
		fputc('{', f);
		for (size_t i = 0; i < METRICS_COUNT; i++) {
			fprintf(f, "%s\n    \"%s\": { \"final\": ", i ? "," : "", metrics_name(i));
			put_number(f, metrics_value(&s->final, i));
			fputs(", \"mean\": ", f);
			put_number(f, s->mean[i]);
			fputs(" }", f);
		}
		fputs("\n  }", f);
	}
	fputs("\n}\n", f);
	if (ferror(f))
		return errno ? -errno : -EIO;
	return 0;
}
