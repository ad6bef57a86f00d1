# slower.awk: reads `benchstat -format csv baseline latest` and names every
# tracked benchmark whose median time per op (or ratio to its plain
# alternative: x_plain, x_floor, x_own; or the probe's own share,
# probe_ms/op) is more than 15 % above the baseline's (LIMIT=0.15 to
# change), significant or not: most sets run
# -count 3, where benchstat's test cannot reach p < 0.05, so a slowdown is
# named with its p-value and left to the reader to weigh. Exits 0 always:
# a record that people read, not a gate.
BEGIN { FS = ","; if (LIMIT == "") LIMIT = 0.15; n = 0 }
/^,/ { if ($2 != "") unit = $2; next }
$1 != "geomean" && unit ~ /^(sec\/op|x_plain|x_floor|x_own|probe_ms\/op)$/ && NF >= 7 && $2 != "" && $4 != "" {
	base = $2 + 0; now = $4 + 0
	if (base > 0 && now / base - 1 > LIMIT) {
		printf "  %-60s %-11s %12.4g -> %12.4g  %+6.1f%%  (%s)\n", $1, unit, base, now, (now / base - 1) * 100, $7
		n++
	}
}
END {
	if (n == 0) printf "no tracked benchmark is more than %d%% slower than the baseline\n", LIMIT * 100
	else printf "%d tracked benchmarks more than %d%% slower than the baseline: say so, with the reason, in the closing note\n", n, LIMIT * 100
}
