"""python -m gpdp.distributed audit: `gpdp-lab audit` with its restarts as tasks on workers.

Same flags (the library's definition, options.py) and same report (text, or JSON with --json) as
the CLI. The coordinator runs the library's auditor; every local search (one gradient-ascent
start, one Subplex restart) is an "audit.ascent" / "audit.subplex" task. The starts are drawn on
the coordinator from the seeded generator and the results merged in start order, so the report
(the best witness included) is the CLI's whatever the number of workers.
"""

import sys

from . import options, shared_command


def add_arguments(parser):
    options.add_arguments(parser, "audit")


def run(args):
    from gpdp import _core

    def drive(request, front_end, tasks):
        report, violation = _core.privacy.run_audit(request, tasks)
        sys.stdout.write(report)
        if violation:
            print("gpdp.distributed audit: VIOLATION: a concrete neighbouring pair exceeds the "
                  "proven bound (see the orders marked violation)", file=sys.stderr)
            return 1
        return 0

    return shared_command.run(args, "audit", drive)
