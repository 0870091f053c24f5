/*
 * summary — run summary as JSON; see include/summary.h.
 */
#include "summary.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "report.h"
#include "sha256.h"

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
	if (o->type != CLI_LONG && o->type != CLI_INT && o->type != CLI_COUNT && o->type != CLI_U64 &&
	    o->type != CLI_DOUBLE)
		return 0;
	return strcmp(v, "auto") != 0;
}

/* Keys of --print-config that the options hash leaves out. */
static int hash_skips(const char *line, size_t len)
{
	static const char *const skip[] = { "output", "trajectory", "metrics", "summary",
		                            "overwrite", "progress", "quiet" };
	size_t k = strcspn(line, " =");
	if (len == 0 || line[0] == '#' || k > len)
		return 1;
	for (size_t i = 0; i < sizeof(skip) / sizeof(*skip); i++)
		if (strlen(skip[i]) == k && strncmp(line, skip[i], k) == 0)
			return 1;
	return 0;
}

void summary_hash_config_text(char *text, size_t size, char out[72])
{
	size_t kept = 0;
	unsigned char digest[32];

	/* the lines that identify the run, each with its newline, packed in place */
	for (char *line = text; line < text + size;) {
		char *nl = memchr(line, '\n', (size_t)(text + size - line));
		size_t len = nl ? (size_t)(nl - line) : (size_t)(text + size - line);
		if (!hash_skips(line, len)) {
			memmove(text + kept, line, len);
			kept += len;
			text[kept++] = '\n';
		}
		line += len + 1;
	}
	sha256(text, kept, digest);
	memcpy(out, "sha256:", 7);
	for (int i = 0; i < 32; i++)
		snprintf(out + 7 + 2 * i, 3, "%02x", digest[i]);
}

int summary_options_hash(const struct config *set, char out[72])
{
	char *text;
	size_t size;
	int err = cli_config_text(set, &text, &size);

	if (!err)
		summary_hash_config_text(text, size, out);
	free(text);
	return err;
}

/* "parameters": every setting --print-config shows, numbers as numbers. */
static void put_parameters(FILE *f, const struct config *set)
{
	size_t n;
	const struct cli_option *opts = cli_options(&n);
	char v[4096];
	int first = 1;

	fputs(",\n  \"parameters\": {", f);
	for (size_t i = 0; i < n; i++) {
		if (opts[i].flags & CLI_NOCONFIG)
			continue;
		fprintf(f, "%s\n    ", first ? "" : ",");
		report_json_string(f, opts[i].name);
		fputs(": ", f);
		first = 0;
		if (opts[i].type == CLI_STRING) { /* straight from the settings: no length limit */
			const char *str = *(char *const *)(const void *)((const char *)set + opts[i].offset);
			report_json_string(f, str ? str : "");
			continue;
		}
		cli_format_value(set, &opts[i], v, sizeof(v));
		if (is_number(&opts[i], v))
			fputs(v, f);
		else
			report_json_string(f, v);
	}
	fputs("\n  }", f);
}

/* "metrics": each one's final and mean, or null. */
static void put_metrics(FILE *f, const struct summary *s)
{
	fputs(",\n  \"metrics\": ", f);
	if (!s->have_metrics) {
		fputs("null", f);
		return;
	}
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

/* "outputs": each output's file, frames and error; then the run's "error". */
static void put_outputs(FILE *f, const struct summary *s)
{
	fputs(",\n  \"outputs\": {", f);
	for (size_t i = 0; i < s->noutputs; i++) {
		const struct summary_output *o = &s->outputs[i];
		fprintf(f, "%s\n    \"%s\": { \"file\": ", i ? "," : "", o->option);
		report_json_string(f, o->file);
		fprintf(f, ", \"frames\": %ld, \"error\": ", o->frames);
		if (o->error)
			report_json_string(f, o->error);
		else
			fputs("null", f);
		fputs(" }", f);
	}
	fputs(s->noutputs ? "\n  }" : "}", f);
	fputs(",\n  \"error\": ", f);
	if (s->error)
		report_json_string(f, s->error);
	else
		fputs("null", f);
}

int summary_write(FILE *f, const struct summary *s)
{
	static const char *const status_names[] = { "complete", "interrupted", "failed" };
	char hash[72] = "", host[256] = "";
	/* first: a summary without its hash could not be matched to its sweep */
	int err = summary_options_hash(s->set, hash);
	if (err)
		return err;

	errno = 0;
	fprintf(f, "{\n  \"version\": \"%s\",\n  \"seed\": %llu,\n", BOIDS_VERSION,
	        (unsigned long long)s->set->run.seed);
	fprintf(f, "  \"status\": \"%s\",\n  \"signal\": ", status_names[s->status]);
	if (s->signal)
		fprintf(f, "%d", s->signal);
	else
		fputs("null", f);
	fprintf(f, ",\n  \"frames_asked\": %ld,\n  \"started\": ", s->frames_asked);
	struct tm tm;
	if (s->started.tv_sec > 0 && gmtime_r(&s->started.tv_sec, &tm))
		fprintf(f, "\"%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ\"", tm.tm_year + 1900, tm.tm_mon + 1,
		        tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, s->started.tv_nsec / 1000000);
	else
		fputs("null", f);
	fputs(",\n  \"host\": ", f);
	if (gethostname(host, sizeof(host) - 1) != 0)
		host[0] = 0;
	report_json_string(f, host);
	fputs(",\n  \"options_hash\": ", f);
	report_json_string(f, hash);
	put_parameters(f, s->set);
	fprintf(f, ",\n  \"frames\": %ld,\n  \"wall_time_s\": ", s->frames);
	put_number(f, s->wall_time);
	fputs(",\n  \"output\": ", f);
	if (s->output)
		report_json_string(f, s->output);
	else
		fputs("null", f);
	put_outputs(f, s);
	put_metrics(f, s);
	fputs("\n}\n", f);
	/* Flushed here, so the write that fails reports its own errno
	 * (ENOSPC, EPIPE), not a stale one or EIO. */
	if (fflush(f) != 0 || ferror(f))
		return errno ? -errno : -EIO;
	return 0;
}
