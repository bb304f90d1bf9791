"""python -m gpdp.distributed search: `gpdp search` with its θ evaluations as tasks on workers.

Same flags (the library's definition, options.py) and same report (text or --json, the --out file)
as the CLI: the coordinator runs the library's driver (experiments/public_search_run.hpp), whose
search sends one "public_search.ell" task per length-scale ℓ of each round to the workers (the
public data travel in the tasks).
"""

import json
import sys

from . import options, shared_command


def add_arguments(parser):
    options.add_arguments(parser, "search")


def run(args):
    from gpdp import _core

    def drive(request, front_end, tasks):
        sys.stdout.write(_core.experiments.run_public_search(request, tasks, front_end["quiet"]))
        return 0

    # Per-task lines as the CLI's progress: none with --quiet or a JSON report.
    return shared_command.run(
        args, "search", drive,
        task_progress=lambda request, front_end: not (front_end["quiet"]
                                                      or json.loads(request).get("json")))
