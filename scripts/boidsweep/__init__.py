"""boidsweep: the parameter sweeps of boids, as a package.

The five commands in scripts/ are thin entry points into it: sweep
(sweepmain), sweep-table (tables), sweep-report (report), chart (chart) and
contact-sheet (sheet).  To understand a sweep, start reading
sweepmain.main(); docs/SWEEPS.md says what every file holds.

  common    messages, Usage and Failure, "did you mean"
  files     files written through temporaries, read without following links
  boids     the binary: finding it, trusting it, its --list-options
  options   the sweep's command line
  grid      the sweep's definition (spec) and its points, in order
  prepare   every point checked by boids --check-configs, cfg/ and grid.jsonl
  sweepdir  the sweep directory: marker, sweep.json, grid.jsonl and grid.idx
  results   each point's state from its summary, marker and log
  progress  the progress line and the watch that follows the runs
  parallel  GNU parallel on this machine or over ssh (--transfer)
  slurm     the job array, --task
  tables    table.csv, stats.csv: the rows and the statistics over seeds
  collect   tables, chart and report at the end of a sweep
  chart     one metric against a parameter, with gnuplot
  report    report.html
  sheet     the contact sheet

Nothing here writes bytecode beside itself: each entry point sets
sys.dont_write_bytecode before it imports the package (a checkout stays
clean, an installed copy may be read-only).
"""
