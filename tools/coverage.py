#!/usr/bin/env python3
"""Line coverage by directory of src/, from gcovr's JSON summary.

Usage: python3 tools/coverage.py SUMMARY.json [TARGET_PERCENT]

Prints one line per directory (lines covered, lines, percent), then the
whole; says whether the whole reaches TARGET_PERCENT (85 when not given).
Fails (exit 1) only when the summary holds no source file, so a run that
measured nothing cannot look like a report.
"""
import json
import sys
from collections import OrderedDict


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    target = float(argv[2]) if len(argv) > 2 else 85.0
    with open(argv[1], encoding="utf-8") as f:
        summary = json.load(f)
    dirs = OrderedDict()
    for entry in sorted(summary.get("files", []), key=lambda e: e["filename"]):
        name = entry["filename"]
        parts = name.split("/")
        key = "/".join(parts[:-1]) + "/" if len(parts) > 1 else "./"
        covered, total = dirs.get(key, (0, 0))
        dirs[key] = (covered + entry["line_covered"], total + entry["line_total"])
    if not dirs:
        print("coverage: no source file in the summary: nothing was measured", file=sys.stderr)
        return 1
    width = max(len(k) for k in dirs) + 2
    print("%-*s %8s %8s %7s" % (width, "directory", "covered", "lines", "%"))
    all_cov = all_tot = 0
    for key, (covered, total) in dirs.items():
        all_cov += covered
        all_tot += total
        pct = 100.0 * covered / total if total else 100.0
        print("%-*s %8d %8d %6.1f%%" % (width, key, covered, total, pct))
    pct = 100.0 * all_cov / all_tot if all_tot else 0.0
    print("%-*s %8d %8d %6.1f%%" % (width, "overall", all_cov, all_tot, pct))
    print("coverage: %.1f%% of lines overall (aim: %.0f%%: %s)"
          % (pct, target, "reached" if pct >= target else "not yet"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
