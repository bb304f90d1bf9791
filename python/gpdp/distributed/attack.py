"""python -m gpdp.distributed attack: `gpdp-lab attack` with its seeds as tasks on workers.

Same flags (the library's definition, options.py) and same report (text or --json, --roc,
--roc-csv files) as the CLI: the coordinator runs the library's attack driver, which sends one
"attack.lira" task per seed to the workers.
"""

import sys

from . import options, shared_command


def add_arguments(parser):
    options.add_arguments(parser, "attack")


def run(args):
    from gpdp import _core

    def drive(request, front_end, tasks):
        sys.stdout.write(_core.attack.run_attack(request, tasks))
        return 0

    return shared_command.run(args, "attack", drive)
