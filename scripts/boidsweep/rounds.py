"""--replicates auto: seeds added in rounds to the points still in
contention for the goal, until the best is told apart or MAX is reached.

The looks come after the seeds of spec["auto"]["looks"] (4, 8, 16, 32 for
MAX 32); at each, answer.with_goal() tests the best against every other
point at level 0.05 divided by the number of looks (Bonferroni over the
looks, stats.against_best() over the pairs of the points compared), so that the whole sequence calls a
difference that is not real with a chance under 5%.  A round's points are
stored in spec["rounds"] (sweep.json), each {"seeds", "points"}: its
points are its contenders' values (without the seed) with each new seed.
"""
from .answer import with_goal
from .grid import swept_names


def next_round(spec, rows):
    """The next round {"seeds", "points"}, or (None, why) when the sweep
    stops: the best told apart, or the last look done."""
    auto, look = spec["auto"], len(spec.get("rounds") or [])
    found = with_goal(spec, rows, spec["goal"], len(auto["looks"]))
    if found["settled"]:
        return None, f"look {look + 1} of at most {len(auto['looks'])}: the best is told apart from every other point"
    if look + 1 >= len(auto["looks"]):
        return None, f"look {look + 1}, the last ({auto['max']} seeds): stopped without telling the best apart"
    if not found.get("best"):
        return None, "no complete run to compare"
    if not found.get("runner_up"):
        return None, f"look {look + 1}: one point only, nothing to tell it apart from"
    names = [k for k in swept_names(spec) if k != "seed"]
    by_label = {}
    for r in rows:   # each point's values (not the seed), by the label answer() gives it
        label = ",".join(f"{k}={r.get(k)}" for k in names) or "every run"
        by_label.setdefault(label, [[k, str(r.get(k))] for k in names])
    keep = [c for c in found["contenders"] if c in by_label]
    seeds = [str(s) for s in range(auto["looks"][look] + 1, auto["looks"][look + 1] + 1)]
    return {"seeds": seeds, "points": [by_label[c] for c in keep]}, \
        f"look {look + 1} of at most {len(auto['looks'])}: {len(keep)} point{'s' if len(keep) != 1 else ''} " \
        f"still in contention, {len(seeds)} more seeds each ({seeds[0]} to {seeds[-1]})"
