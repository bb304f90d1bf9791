"""Excursion-set experiments (paper §5, App. D; docs/mathematics.md §5): synthetic fields, metrics,
ε_L(θ), the whole privacy-utility study of one setting (excursion()), and, for your own data,
privacy-constrained θ selection on public data (search_public_data()) and hexagon aggregation
(hexbin()). The vote and smoothing of released paths are gpdp.release's (the study uses what a
release ships).
Seeded throughout: experiments, never releases.
"""

from ._core.experiments import (
    excursion,
    excursion_epsilon,
    field_1d,
    hexbin,
    integrated_bce,
    intersection_over_union,
    noise_bound_from_nsr,
    plume_2d,
    search_public_data,
    trapezoid_weights,
)

__all__ = [
    "excursion",
    "excursion_epsilon",
    "field_1d",
    "hexbin",
    "integrated_bce",
    "intersection_over_union",
    "noise_bound_from_nsr",
    "plume_2d",
    "search_public_data",
    "trapezoid_weights",
]
