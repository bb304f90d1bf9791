"""python -m gpdp.distributed release-batch: many releases (one per dataset) from one manifest.

The coordinator (this process) keeps the ledger on its own disk: it checks and RECORDS each release
in the ledger before dispatching its draw, and publishes only what the ledger accepted. The
workers receive what they need to draw (the prepared records and public parameters, as plain
data), draw with the secure RNG, snap, and return the snapped draws; they never see the ledger.
A coordinator stopped at any point (even kill -9) is resumed by running the same command again.
The manifest's schema: docs/release.md, "Batch releases"; who must be trusted: docs/security.md.
"""

import json
import sys

from .scheduler import map_tasks, open_executor

HELP = "Run a batch of releases (one per dataset) from a manifest; draws on the workers"

# Exit status when the batch ran but some release was not published (refused, failed, abandoned).
NOT_ALL_PUBLISHED = 3


def add_arguments(parser):
    parser.add_argument("--manifest", required=True, help="The batch's JSON manifest")
    parser.add_argument(
        "--ledger", default="",
        help="Budget ledger (SQLite on this machine's local disk; default: the manifest's)")
    parser.add_argument("--ledger-key", default="", help="Key of the ledger (default <ledger>.key)")
    parser.add_argument(
        "--budget-epsilon", type=float,
        help="Total ε budget of each dataset without one (fixed at its first release)")
    parser.add_argument("--budget-delta", type=float, help="Total δ budget (with --budget-epsilon)")
    parser.add_argument(
        "--wave", type=int, default=0,
        help="Releases recorded per dispatch (default 0: all at once); smaller waves lose less "
        "budget to a crash, larger ones keep more workers busy")
    parser.add_argument("--json", action="store_true", help="Print the outcome as JSON")
    parser.add_argument("--report", default="", help="Also write the outcome JSON to this file")


def _overrides(args):
    if (args.budget_epsilon is None) != (args.budget_delta is None):
        raise ValueError("--budget-epsilon and --budget-delta go together")
    if args.budget_epsilon is None:
        return ""
    return json.dumps({"budget-epsilon": args.budget_epsilon, "budget-delta": args.budget_delta})


class Events:
    """The coordinator's step events (JSON text, one per step: reserved, dispatched, drawn, folder,
    published, ...): one line each on stderr."""

    def __call__(self, text):
        event = json.loads(text)
        print("  " + _describe(event), file=sys.stderr, flush=True)
        return event


def _describe(event):
    name = event["event"]
    if name == "settled":
        return (f"earlier run: release {event['release_id']} ({event['dataset']}) was "
                f"{event['was']}, now {event['now']}: {event['note']}")
    if name in ("dispatched", "drawn"):
        return f"{name}: releases {', '.join(map(str, event['release_ids']))}"
    who = f"releases[{event['release']}] ({event['dataset']})"
    if name in ("reserved", "resumed", "folder"):
        label = {"reserved": "recorded in the ledger before its draw",
                 "resumed": "resumes its reservation (never drawn)",
                 "folder": "folder in place"}[name]
        return f"{who}: {label}, release {event['release_id']}"
    status, message = event.get("status", name), event.get("message", "")
    rid = f", release {event['release_id']}" if event.get("release_id") is not None else ""
    return f"{who}: {status}{rid}" + (f": {message}" if message else "")


def _report(outcome):
    lines = [f"ledger {outcome['ledger']}"]
    for r in outcome["releases"]:
        eps = f", ε = {r['epsilon']:.4g}" if r.get("epsilon") is not None else ""
        rid = f" (release {r['release_id']})" if r.get("release_id") is not None else ""
        message = f": {r['message']}" if r["message"] else ""
        lines.append(f"releases[{r['index']}] {r['dataset']} -> {r['out']}: {r['status']}{rid}"
                     f"{eps}{message}")
    counts = {}
    for r in outcome["releases"]:
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    lines.append(", ".join(f"{n} {s}" for s, n in sorted(counts.items())))
    return "\n".join(lines)


def run(args):
    from gpdp import _core

    overrides = _overrides(args)
    with open_executor(args.scheduler) as executor:
        text = _core.release.batch(
            manifest=args.manifest, overrides=overrides, ledger=args.ledger,
            ledger_key=args.ledger_key, wave=args.wave,
            map_tasks=lambda tasks: map_tasks(executor, tasks, progress=None),
            on_event=Events())
    outcome = json.loads(text)
    if args.report:
        with open(args.report, "w") as f:
            f.write(text + "\n")
    print(json.dumps(outcome, indent=2) if args.json else _report(outcome))
    published = ("published", "already-published")
    return 0 if all(r["status"] in published for r in outcome["releases"]) else NOT_ALL_PUBLISHED
