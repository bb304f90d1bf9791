"""`python -m gpdp.distributed release-batch` whose coordinator kills itself (SIGKILL) right after
its K-th EVENT (reserved, dispatched, drawn, folder, published): a crash at an exact point of the
protocol, for test_release_batch.py.

    python batch_killed_at.py EVENT:K release-batch --manifest ... --scheduler ...
"""

import os
import signal
import sys

from gpdp.distributed import __main__ as distributed
from gpdp.distributed import release_batch


class KillingEvents(release_batch.Events):
    def __init__(self, kill_at):
        event, _, count = kill_at.partition(":")
        self.kill, self.seen = (event, int(count or 1)), {}

    def __call__(self, text):
        name = super().__call__(text)["event"]
        self.seen[name] = self.seen.get(name, 0) + 1
        if self.kill == (name, self.seen[name]):
            os.kill(os.getpid(), signal.SIGKILL)


if __name__ == "__main__":
    kill_at = sys.argv[1]
    release_batch.Events = lambda: KillingEvents(kill_at)
    sys.exit(distributed.main(sys.argv[2:]))
