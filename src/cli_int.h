/*
 * cli_int — what the files of the command line share and nothing else
 * sees, bottom up: the option table (options.c), the value parsers and
 * message helper (values.c), the resolve step (resolve.c), the defaults
 * and the config format's blanks (cli.c, for cli_print.c).  Not part of
 * the API: include/cli.h is.
 */
#ifndef BOIDS_CLI_INT_H
#define BOIDS_CLI_INT_H

#include <stddef.h>

#include "cli.h"

#define BIG 1e300  /* "no bound" */
#define LIM 1e6    /* bound of model numbers: keeps every sum finite */
#define CUT(s) CLI_CUT(s)

/* ---- options.c */

/* Each option's id, OPT_ and its name in capitals ("encoder-threads": OPT_ENCODER_THREADS):
 * its row's index in cli_table[] and in run.given[]. */
enum cli_id {
#define OPT(id, ...) OPT_##id,
#include "options.def"
#undef OPT
	OPT_COUNT
};

extern const struct cli_option cli_table[]; /* every option, in --help's order, by id */
#define CLI_NOPTS ((size_t)OPT_COUNT)
/* Row o's index in cli_table[] (and in run.given[]). */
size_t cli_index(const struct cli_option *o);
/* Was option id set?  0 no, 1 by a config file, 2 on the command line.  The
 * resolve step's question: what main decides later it passes on in run.user. */
int cli_given(const struct config *c, enum cli_id id);

/* ---- values.c */

/* Formats a message into err (a user's control characters become '?'); returns -1. */
int cli_errf(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Parses v as row o's value into its field of c.  0, -1 (err says why) or -ENOMEM. */
int cli_set_value(struct config *c, const struct cli_option *o, const char *v, char *err, size_t errlen);
/* v as one of a CLI_ENUM row's names into *out.  0 or -1 (err says why). */
int cli_parse_enum(const struct cli_option *o, const char *v, int *out, char *err, size_t errlen);
/* The name of a CLI_ENUM row's value ("?" for none of them). */
const char *cli_enum_name(const struct cli_option *o, int value);

/* ---- cli.c */

/* Fills c with every setting's default (memset first).  0, CLI_ERROR or CLI_NOMEM. */
int cli_defaults(struct config *c, char *err, size_t errlen);
/* A blank of the config format: space or tab. */
int cli_is_blank(char c);

/* ---- resolve.c */

/* The resolve step, after every setting is read.  0 or -1 (err says why). */
int cli_resolve(struct config *c, char *err, size_t errlen);

#endif
