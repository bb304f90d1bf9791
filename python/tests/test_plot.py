"""gpdp.plot draws what it is given (checked on the matplotlib artists) and refuses bad input."""

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest

import gpdp
import gpdp.plot


def test_excursion_map_2d_image_matches_values():
    grid = gpdp.Grid("0:1:4,0:2:3")
    values = np.arange(12, dtype=float)
    ax = gpdp.plot.excursion_map(grid, values, colorbar=False)
    image = ax.images[0].get_array()
    assert image.shape == (3, 4)
    np.testing.assert_array_equal(image[0], [0, 1, 2, 3])  # first axis fastest = along x1
    assert ax.images[0].get_extent() == [0.0, 1.0, 0.0, 2.0]
    with pytest.raises(ValueError, match="12 points"):
        gpdp.plot.excursion_map(grid, values[:5])


def test_epsilon_and_roc_curves():
    ax = gpdp.plot.epsilon_curve([1, 2, 3], [0.5, 0.8, 1.0], target=1.0)
    np.testing.assert_array_equal(ax.lines[0].get_ydata(), [0.5, 0.8, 1.0])
    roc = np.array([[0.0, 0.0], [0.01, 0.2], [1.0, 1.0]])
    ax = gpdp.plot.roc({"attack": roc}, epsilon=1.0, delta=1e-5)
    np.testing.assert_array_equal(ax.lines[0].get_xydata(), roc)
    mech = gpdp.privacy.GpMechanism(kernel=gpdp.Kernel.exponential(1.0), n=10, r=1.0, lemma="b7")
    ax = gpdp.plot.rdp_curve(mech)
    x, y = ax.lines[0].get_xdata(), ax.lines[0].get_ydata()
    np.testing.assert_allclose(y, mech.rdp(x))
