"""Certified releases: gpdp.release.run(...) is the `gpdp release` command as a call (secure RNG,
privacy ledger checked and written before any output, output folder published atomically).
See docs/release.md for the input description and the outputs.

The post-processing a release applies to its paths is here too (the utility study uses the same):
vote_fraction(paths, level), vote_set(fractions, cutoff), smooth_fields(fields, grid, bandwidth).
"""

from ._core.release import run, smooth_fields, vote_fraction, vote_set

__all__ = ["run", "smooth_fields", "vote_fraction", "vote_set"]
