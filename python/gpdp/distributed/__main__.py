"""python -m gpdp.distributed COMMAND ...: gpdp's drivers on a cluster (docs/scale.md).

Each command is a module of this package with add_arguments(parser) and run(args); register one
with a single line in COMMANDS below.
"""

import argparse
import importlib
import sys

from .options import in_flags

# command -> (module, one-line help)
COMMANDS = {
    "reproduce": ("gpdp.distributed.reproduce", "gpdp-lab reproduce TARGET with its tasks on workers"),
    "release-batch": ("gpdp.distributed.release_batch", "Many releases from a manifest, draws on workers"),
    "attack": ("gpdp.distributed.attack", "gpdp-lab attack with its seeds as tasks on workers"),
    "audit": ("gpdp.distributed.audit", "gpdp-lab audit with its restarts as tasks on workers"),
    "audit-study": ("gpdp.distributed.audit_study", "gpdp-lab audit-study with its searches as tasks on workers"),
    "search": ("gpdp.distributed.search", "gpdp search with its θ evaluations as tasks on workers"),
}


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m gpdp.distributed",
        description="Run gpdp's experiments as task lists on Dask or a process pool.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (module_name, help_text) in sorted(COMMANDS.items()):
        module = importlib.import_module(module_name)
        # No abbreviated flags: the CLI (CLI11) takes none, and the same argv must mean the same.
        command = sub.add_parser(name, help=help_text, description=help_text, allow_abbrev=False)
        command.add_argument(
            "--scheduler", default="local:2",
            help="local:N (Dask LocalCluster, N worker processes), tcp://HOST:PORT (a running "
            "Dask scheduler) or processes:N (a process pool) (default: %(default)s)",
        )
        module.add_arguments(command)
        command.set_defaults(run=module.run)
    args = parser.parse_args(argv)
    try:
        return args.run(args) or 0
    except (RuntimeError, ValueError, OSError) as e:
        print(f"gpdp.distributed {args.command}: {in_flags(e, args.command)}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
