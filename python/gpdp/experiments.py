"""Excursion-set experiments (paper §5, App. D; SPEC §5): synthetic fields, metrics, the
vote release, ε_L(θ), and the whole privacy-utility study of one setting (excursion()).
Seeded throughout: experiments, never releases.
"""

from ._core.experiments import (
    excursion,
    excursion_epsilon,
    field_1d,
    integrated_bce,
    intersection_over_union,
    noise_bound_from_nsr,
    plume_2d,
    smooth_paths,
    trapezoid_weights,
    vote_release,
)

__all__ = [
    "excursion",
    "excursion_epsilon",
    "field_1d",
    "integrated_bce",
    "intersection_over_union",
    "noise_bound_from_nsr",
    "plume_2d",
    "smooth_paths",
    "trapezoid_weights",
    "vote_release",
]
