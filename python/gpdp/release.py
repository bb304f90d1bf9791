"""Certified releases: gpdp.release.run(...) is the `gpdp release` command as a call (secure RNG,
privacy ledger checked and written before any output, output folder published atomically).
See docs/release.md for the input description and the outputs.
"""

from ._core.release import run

__all__ = ["run"]
