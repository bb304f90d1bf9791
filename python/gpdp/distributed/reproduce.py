"""python -m gpdp.distributed reproduce TARGET: `gpdp-lab reproduce TARGET` with its task lists run on
workers. The flags are the library's table (options.py; --print-request prints the request the CLI
prints for the same argv); the coordinator (this process) runs the library's driver, the same code
as the CLI, and writes the same files into --out."""

import functools

from . import options
from .scheduler import map_tasks, open_executor, worker_count


def add_arguments(parser):
    from gpdp import _core

    names = [name for name, _ in _core.reproduce_targets()]
    options.add_arguments(parser, "reproduce", choices={"target": names})


def run(args):
    from gpdp import _core

    request, front_end = options.parse(args, "reproduce")
    if options.print_request(request, front_end):
        return 0
    target, listing = _core.reproduce_request(request)  # checked before the workers start
    if listing or not target:  # as the CLI: the targets, by name
        for name, what in sorted(_core.reproduce_targets()):
            print(f"{name:<14} {what}")
        if not listing:
            raise ValueError("reproduce: name a target (listed above)")
        return 0
    with open_executor(args.scheduler) as executor:
        _core.reproduce(request, functools.partial(map_tasks, executor),
                        workers=worker_count(args.scheduler, executor))
    return 0
