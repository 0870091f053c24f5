/*
 * values — one setting's value by its row of the option table (options.h):
 * parsed from what a user typed into its field of struct config
 * (cli_set_value(): the command line, the config files and the resolve step
 * set values through it), and formatted back as a user would type it
 * (cli_format_value(): --print-config, --summary, the HDF5 settings, the
 * captions' fields); a user's value cut short for a message, and the
 * messages of a refused value (cli_errf()).
 */
#ifndef BOIDS_VALUES_H
#define BOIDS_VALUES_H

#include <stddef.h>

#include "config.h"
#include "options.h"

/* Writes option o's value in c as a user would type it into buf. */
void cli_format_value(const struct config *c, const struct cli_option *o, char *buf, size_t len);

/*
 * A user's value quoted in a message: at most len - 4 bytes of s (never
 * half a UTF-8 character), then "…", so that a huge value never pushes the
 * reason out of a bounded message.  Returns s itself when short enough,
 * else buf.  CLI_CUT(s) keeps CLI_CUT_CHARS (60) bytes of a value,
 * CLI_CUT_PATH(s) 200 of a file name; each gets a buffer of its own that
 * lives until the end of the enclosing block.
 */
#define CLI_CUT_CHARS 60
const char *cli_cut(char *buf, size_t len, const char *s);
#define CLI_CUT(s) cli_cut((char[CLI_CUT_CHARS + 4]){ 0 }, CLI_CUT_CHARS + 4, (s))
#define CLI_CUT_PATH(s) cli_cut((char[204]){ 0 }, 204, (s))

/* Formats a message into err (a user's control characters become '?'); returns -1. */
int cli_errf(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Parses v as row o's value into its field of c.  0, -1 (err says why) or -ENOMEM. */
int cli_set_value(struct config *c, const struct cli_option *o, const char *v, char *err, size_t errlen);
/* v as one of a CLI_ENUM row's names into *out.  0 or -1 (err says why). */
int cli_parse_enum(const struct cli_option *o, const char *v, int *out, char *err, size_t errlen);
/* The name of a CLI_ENUM row's value ("?" for none of them). */
const char *cli_enum_name(const struct cli_option *o, int value);
/* One obstacle as --obstacle reads it: X,Y,R in 2D, X,Y,Z,R in 3D. */
void cli_format_obstacle(const struct config *c, const struct sim_obstacle *o, char *buf, size_t len);

#endif
