"""python -m gpdp.distributed audit: `gpdp audit` with its restarts as tasks on workers.

Same flags (the library's definition, options.py) and same report (text, or JSON with --json) as
the CLI. The coordinator runs the library's auditor; every local search (one gradient-ascent
start, one Subplex restart) is an "audit.ascent" / "audit.subplex" task. The starts are drawn on
the coordinator from the seeded generator and the results merged in start order, so the report
(the best witness included) is the CLI's whatever the number of workers.
"""

import functools
import sys

from . import options
from .scheduler import map_tasks, open_executor


def add_arguments(parser):
    options.add_arguments(parser, "audit")


def run(args):
    from gpdp import _core

    request, front_end = options.parse(args, "audit")
    if options.print_request(request, front_end):
        return 0
    progress = {"progress": None} if front_end["quiet"] else {}
    with open_executor(args.scheduler) as executor:
        report, violation = _core.privacy.run_audit(
            request, functools.partial(map_tasks, executor, **progress))
    sys.stdout.write(report)
    if violation:
        print("gpdp.distributed audit: VIOLATION: a concrete neighbouring pair exceeds the proven "
              "bound (see the orders marked violation)", file=sys.stderr)
        return 1
    return 0
