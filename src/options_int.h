/*
 * options_int — the option table's rows by id, for the files of the
 * command line (values.c, resolve.c, cli.c, cli_print.c) and the tests:
 * enum cli_id (OPT_ and the option's name in capitals), cli_table[], and
 * whether an option was given.  Not part of the API: include/options.h is.
 */
#ifndef BOIDS_OPTIONS_INT_H
#define BOIDS_OPTIONS_INT_H

#include <stddef.h>

#include "config.h"
#include "options.h"

#define BIG 1e300  /* "no bound" */
#define LIM 1e6    /* bound of model numbers: keeps every sum finite */

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

#endif
