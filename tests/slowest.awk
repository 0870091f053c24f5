# The ten slowest tests of a Criterion XML report (--xml=FILE), slowest
# first, in seconds of wall time: printed after every `make test`, so a
# test that grows slow is seen the day it does.
#
#   awk -f tests/slowest.awk build/tests/times.xml
/<testsuite / {
	match($0, /name="[^"]*"/)
	suite = substr($0, RSTART + 6, RLENGTH - 7)
}
/<testcase / {
	match($0, /name="[^"]*"/)
	name = substr($0, RSTART + 6, RLENGTH - 7)
	match($0, /time="[^"]*"/)
	t[suite "::" name] = substr($0, RSTART + 6, RLENGTH - 7) + 0
	total += t[suite "::" name]
	n++
}
END {
	if (!n)
		exit
	printf "the 10 slowest of %d tests (%.1f s of test time in all):\n", n, total
	for (k = 0; k < 10 && k < n; k++) {
		best = ""
		for (name in t)
			if (best == "" || t[name] > t[best])
				best = name
		printf "  %6.2f s  %s\n", t[best], best
		delete t[best]
	}
}
