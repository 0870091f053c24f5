"""boidsweep: the parameter sweeps of boids, as a package.

The six commands in scripts/ are thin entry points into it: sweep
(command), sweep-table and sweep-report (sweepmain), chart (chart),
contact-sheet (sheet) and hysteresis (hysteresis).  To understand a sweep, start reading
command.main(), then sweepmain.do_sweep(); docs/SWEEPS.md says what every
file a sweep writes holds.

  common      messages, Usage and Failure, "did you mean", the entry points' run()
  files       files written through temporaries, read without following links
  boids       the binary: finding it, trusting it, its --list-options
  command     scripts/sweep: its options checked, its mode run
  sweepmain   a sweep run and collected, sweep-table, sweep-report
  options     the sweep's command line
  grid        the sweep's definition (spec) and its points, in order
  design      ranges, samples (lhs, sobol, Saltelli's), the goal, auto replicates
  prepare     every point checked by boids --check-configs, cfg/ and grid.jsonl
  sweepdir    the sweep directory: marker, sweep.json, grid.jsonl and grid.idx
  results     each point's state from its summary, marker and log
  progress    the progress line and the watch that follows the runs
  parallel    GNU parallel on this machine or over ssh
  hosts       the machines of --sshloginfile, checked before a sweep
  transfer    --transfer: each run's files back as a tar, unpacked as data
  slurm       the job array, --task
  rounds      --replicates auto: the next round's points and seeds
  tables      table.csv, stats.csv: the rows and the statistics over seeds
  stats       intervals inside a metric's range, Welch, the correction for the best, power (SciPy)
  answer      the answer to --goal (answer.json, the report's first section)
  sensitivity Sobol indices from Saltelli's design, with bootstrap intervals
  collect     tables, answer, chart and report at the end of a sweep
  chart       one metric against a parameter, with gnuplot
  figures     the report's posters and charts
  report      report.html
  sheet       the contact sheet
  hysteresis  scripts/hysteresis: one parameter up and back down, each run
              from the last frame of the one before (collective memory)

Nothing here writes bytecode beside itself: each entry point sets
sys.dont_write_bytecode before it imports the package (a checkout stays
clean, an installed copy may be read-only).
"""
