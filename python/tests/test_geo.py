"""gpdp.geo: grid values as xarray.DataArray with coordinates and CRS, and GeoTIFF output read back
by GDAL's own command-line reader (gdalinfo)."""

import json
import shutil
import subprocess

import numpy as np
import pytest

import gpdp
import gpdp.geo

xr = pytest.importorskip("xarray")


def test_to_xarray_is_north_up_with_coordinates_and_crs():
    grid = gpdp.Grid("178460:178580:4,329620:329700:3")  # 40 m cells, RD New
    values = np.arange(grid.size, dtype=float)  # grid order: x fastest, y increasing
    da = gpdp.geo.to_xarray(values, grid, crs="EPSG:28992", name="mean")
    assert da.dims == ("y", "x")
    np.testing.assert_array_equal(da["x"].values, [178460, 178500, 178540, 178580])
    np.testing.assert_array_equal(da["y"].values, [329700, 329660, 329620])  # north-up
    # The value at node (x = 178500, y = 329620) is grid point 1.
    assert da.sel(x=178500, y=329620).item() == 1.0
    assert da.attrs["crs"] == "EPSG:28992"
    if hasattr(da, "rio"):
        assert da.rio.crs.to_epsg() == 28992
    else:
        assert "RD New" in da["spatial_ref"].attrs["crs_wkt"]
        assert da.attrs["grid_mapping"] == "spatial_ref"


def test_to_xarray_bands_and_refusals():
    grid = gpdp.Grid("0:1:3,0:1:2")
    da = gpdp.geo.to_xarray(np.ones((6, 2)), grid, bands=["a", "b"])
    assert da.dims == ("band", "y", "x")
    assert list(da["band"].values) == ["a", "b"]
    assert "spatial_ref" not in da.coords  # no CRS declared, none invented
    with pytest.raises(ValueError):
        gpdp.geo.to_xarray(np.ones(3), gpdp.Grid("0:1:3"))
    with pytest.raises(gpdp.InputError):
        gpdp.geo.to_xarray(np.ones(6), grid, crs="EPSG:4979")  # 3-D CRS


@pytest.mark.skipif(shutil.which("gdalinfo") is None, reason="gdal-bin not installed")
def test_to_geotiff_opens_in_gdal_with_crs_extent_and_nodata(tmp_path):
    grid = gpdp.Grid("178460:178580:4,329620:329700:3")
    values = np.arange(grid.size, dtype=float)
    values[5] = np.nan
    da = gpdp.geo.to_xarray(values, grid, crs="EPSG:28992", name="mean")
    path = gpdp.geo.to_geotiff(da, tmp_path / "mean.tif", metadata={"NOTE": "test"})
    info = json.loads(subprocess.run(["gdalinfo", "-json", str(path)], check=True,
                                     capture_output=True, text=True).stdout)
    assert info["size"] == [4, 3]
    assert info["geoTransform"] == [178440.0, 40.0, 0.0, 329720.0, 0.0, -40.0]
    assert "28992" in info["coordinateSystem"]["wkt"]
    band = info["bands"][0]
    assert band["description"] == "mean"
    assert band["noDataValue"] == "NaN"
    assert info["metadata"][""]["NOTE"] == "test"
    # gdallocationinfo: the value at the pixel of node (178500, 329620) is grid point 1.
    out = subprocess.run(["gdallocationinfo", "-valonly", "-geoloc", str(path), "178500", "329620"],
                         check=True, capture_output=True, text=True).stdout
    assert float(out) == 1.0
