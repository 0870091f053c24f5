/*
 * batch — boids --check-configs FILE: many runs' settings checked (and
 * written) by one process, for scripts/sweep's set-up.
 *
 * FILE ("-": standard input) holds one JSON object a line, each a run's
 * settings as a config file takes them: {"alignment": "1.5", "frames": 1,
 * "box": true}; a value is a string, a number (as written) or true/false
 * (yes/no); a key may repeat (obstacle).  Each line is read as one more
 * config file after the command line's --config files, and before the rest
 * of the command line, by the same parse and resolve step as a run
 * (cli_parse_with()), then the run's checks (outputs, --init, memory) as
 * --print-config makes them.  Standard output gets a line per input line: that
 * run's options hash (the one its summary will hold, summary.h), or "-" for
 * a line that is refused; the refusal is reported as the run would report
 * it, with the line's number: "boids: FILE:LINE: --alignment: ...".  With
 * --config-dir DIR, line K+1's settings are written to DIR/K.cfg
 * (--print-config's text, which `boids --config DIR/K.cfg` reads back to
 * the same settings), through a temporary name, replacing what is there.
 *
 * One line in memory at a time, whatever the number of lines.
 */
#ifndef BOIDS_BATCH_H
#define BOIDS_BATCH_H

#include "config.h"
#include "failure.h"

/*
 * The run's checks past parsing and resolving (main's: outputs, --init,
 * memory), as --print-config makes them, on the settings in c, which they
 * may complete (--init's boid count).  Returns a status (failure.h), with
 * what they refuse in f.
 */
typedef int batch_check(struct config *c, void *arg, struct failure *f);

/*
 * Runs --check-configs for the command line argc/argv, which cli_parse()
 * read into c (c->run.check_configs and config_dir set); each line's
 * settings are parsed into c again and go through check(c, arg, f).  Every
 * line is checked: a refusal by check() is reported with the line's
 * FILE:LINE as the parser's are, and the checking goes on.  Prints the
 * verdicts and returns the exit status: 0 every line accepted, 2 a line
 * refused or bad input (FILE or DIR unusable), 1 a runtime failure (a
 * write, out of memory, check()'s status 1), which ends the checking, 128
 * + the signal after a stop, which ends it too, even while FILE waits for
 * its writer.  When lines were refused, or on a stop, a closing line
 * says how many were checked and refused: "boids: FILE: 2 of 9 lines
 * refused", "boids: FILE: stopped by a signal after 9 lines: 8 accepted,
 * 1 refused".
 */
int batch_check_configs(int argc, char **argv, struct config *c, batch_check *check, void *arg);

#endif
