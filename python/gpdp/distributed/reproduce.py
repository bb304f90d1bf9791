"""python -m gpdp.distributed reproduce TARGET: `gpdp-lab reproduce TARGET` with its task lists run on
workers. The coordinator (this process) runs the library's driver, the same code as the CLI, and
writes the same files into --out."""

import functools
import os

from gpdp import _core

from .scheduler import map_tasks, open_executor, worker_count


def add_arguments(parser):
    targets = _core.reproduce_targets()
    parser.add_argument(
        "target", choices=[name for name, _ in targets], metavar="TARGET",
        help="; ".join(f"{name}: {what}" for name, what in targets),
    )
    parser.add_argument("--out", required=True, help="Output folder (created if missing)")
    parser.add_argument("--quick", action="store_true",
                        help="Reduced sizes for a quick look (the output says so)")
    parser.add_argument("--pairs", type=int, default=0,
                        help="Number of (f*, D) pairs (0 = the paper's)")
    parser.add_argument("--seed", type=int, default=20260616,
                        help="Seed of the experiment (seeded, not private) (default: %(default)s)")
    parser.add_argument("--conversion", default="mironov", choices=["mironov", "cks"],
                        help="RDP -> (eps, delta) conversion (default: %(default)s)")
    parser.add_argument("--sensitivity", default="",
                        help="Delta_n lemma of the privacy constraint (default: the paper's)")
    parser.add_argument("--data-dir", default="", help="Folder holding fig4-lucas's data set")


def run(args):
    os.makedirs(args.out, exist_ok=True)
    with open_executor(args.scheduler) as executor:
        _core.reproduce(
            args.target, functools.partial(map_tasks, executor), out_dir=args.out,
            quick=args.quick, pairs=args.pairs, seed=args.seed,
            workers=worker_count(args.scheduler, executor), conversion=args.conversion,
            sensitivity=args.sensitivity, data_dir=args.data_dir,
        )
