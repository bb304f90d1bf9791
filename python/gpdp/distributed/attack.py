"""python -m gpdp.distributed attack: `gpdp attack` with its seeds as tasks on workers.

Same flags (the library's definition, options.py) and same report (text or --json, --roc,
--roc-csv files) as the CLI: the coordinator runs the library's attack driver, which sends one
"attack.lira" task per seed to the workers.
"""

import functools
import sys

from . import options
from .scheduler import map_tasks, open_executor


def add_arguments(parser):
    options.add_arguments(parser, "attack")


def run(args):
    from gpdp import _core

    request, front_end = options.parse(args, "attack")
    if options.print_request(request, front_end):
        return 0
    progress = {"progress": None} if front_end["quiet"] else {}
    with open_executor(args.scheduler) as executor:
        report = _core.attack.run_attack(request, functools.partial(map_tasks, executor, **progress))
    sys.stdout.write(report)
    return 0
