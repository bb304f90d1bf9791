"""python -m gpdp.distributed audit-study: `gpdp-lab audit-study` with its searches as tasks on workers.

Same flags (the library's definition, options.py) as the CLI. The coordinator runs the library's
study (privacy/audit_study.hpp): every audit of the table, all rows at once, each local search
(one gradient-ascent start, one Subplex restart) an "audit.ascent" / "audit.subplex" task, one
task list per round over all rows. The starts are drawn on the coordinator and the results merged
in start order, so the markdown table (stdout) and the --out JSON are the CLI's whatever the
number of workers (the rows' "seconds" aside). Exit status 2 when a row violates a lemma, as the
CLI.
"""

import sys

from . import options, shared_command


def add_arguments(parser):
    options.add_arguments(parser, "audit-study")


def run(args):
    from gpdp import _core

    def drive(request, front_end, tasks):
        markdown, violation = _core.privacy.audit_study(request, tasks, quiet=front_end["quiet"])
        sys.stdout.write(markdown)
        if violation:
            print("gpdp.distributed audit-study: VIOLATION: a row of the study exceeds a proven "
                  "bound (marked in the table)", file=sys.stderr)
            return 2
        return 0

    # The study's own progress lines (one per row) replace the per-task ones.
    return shared_command.run(args, "audit-study", drive, task_progress=lambda *_: False)
