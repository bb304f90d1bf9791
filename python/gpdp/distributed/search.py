"""python -m gpdp.distributed search: `gpdp search` with its θ evaluations as tasks on workers.

Same flags (the library's definition, options.py) and same report (text or --json, the --out file)
as the CLI: the coordinator runs the library's driver (experiments/public_search_run.hpp), whose
search sends one "public_search.ell" task per length-scale ℓ of each round to the workers (the
public data travel in the tasks).
"""

import functools
import json
import sys

from . import options
from .scheduler import map_tasks, open_executor


def add_arguments(parser):
    options.add_arguments(parser, "search")


def run(args):
    from gpdp import _core

    request, front_end = options.parse(args, "search")
    if options.print_request(request, front_end):
        return 0
    quiet = front_end["quiet"]
    # Per-task lines as the CLI's progress: none with --quiet or a JSON report.
    progress = {"progress": None} if quiet or json.loads(request).get("json") else {}
    with open_executor(args.scheduler) as executor:
        report = _core.experiments.run_public_search(
            request, functools.partial(map_tasks, executor, **progress), quiet)
    sys.stdout.write(report)
    return 0
