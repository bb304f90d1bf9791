"""What every gpdp.distributed command with the CLI's options does around its driver: parse the
flags into the library's request (options.py), answer --print-request, open the executor named by
--scheduler, and hand the driver `map_tasks` bound to it (one stderr line per finished task unless
`task_progress(request, front_end)` says no; by default: unless --quiet)."""

import functools

from . import options
from .scheduler import map_tasks, open_executor


def _unless_quiet(request, front_end):
    return not front_end["quiet"]


def run(args, command, drive, task_progress=_unless_quiet):
    """Returns drive(request, front_end, map_tasks) (the command's exit status), or 0 after
    --print-request."""
    request, front_end = options.parse(args, command)
    if options.print_request(request, front_end):
        return 0
    progress = {} if task_progress(request, front_end) else {"progress": None}
    with open_executor(args.scheduler) as executor:
        return drive(request, front_end, functools.partial(map_tasks, executor, **progress))
