"""Georeferenced arrays: gpdp results on a 2-D grid as xarray.DataArray, and GeoTIFF output.

    import gpdp, gpdp.geo
    grid = gpdp.Grid("178460:181540:78,329620:333740:104")
    da = gpdp.geo.to_xarray(post.mean(grid.points()), grid, crs="EPSG:28992", name="mean")
    da = gpdp.geo.read_release("demo-out/release")      # released value(s), vote, in_set
    gpdp.geo.to_geotiff(da, "mean.tif")                  # Cloud-Optimized GeoTIFF, CRS embedded

Values are in grid order (first axis fastest, as Grid.points()); the DataArray has dims
("y", "x") with y decreasing (north-up, like map.tif), or ("band", "y", "x"). The CRS follows the
rioxarray convention: when rioxarray is installed, ``da.rio.write_crs(crs)``; otherwise the same
CF layout by hand (a scalar "spatial_ref" coordinate with ``crs_wkt``, and
``attrs["grid_mapping"] = "spatial_ref"``), which rioxarray reads. xarray is needed only here
(``pip install xarray``); gpdp itself does not depend on it.
"""

import csv
import json
import os

import numpy as np

from ._core import Grid
from ._core import gis as _gis

__all__ = ["to_xarray", "read_release", "to_geotiff"]


def _xarray():
    try:
        import xarray
    except ImportError as e:  # pragma: no cover - exercised only without xarray
        raise ImportError("gpdp.geo needs xarray: pip install xarray") from e
    return xarray


def _north_up(values, grid):
    nx, ny = grid.shape
    return np.asarray(values, dtype=np.float64).reshape(ny, nx)[::-1, :]


def _with_crs(da, crs):
    if crs is None:
        return da
    try:
        import rioxarray  # noqa: F401
    except ImportError:
        xr = _xarray()
        wkt = _gis.crs_wkt(crs)
        da = da.assign_coords(spatial_ref=xr.DataArray(0, attrs={"crs_wkt": wkt, "spatial_ref": wkt}))
        da.attrs["grid_mapping"] = "spatial_ref"
        return da
    return da.rio.write_crs(crs)


def to_xarray(values, grid, *, crs=None, name=None, attrs=None, bands=None):
    """values: (size,) in grid order, or (size, k) for k bands named by ``bands``."""
    xr = _xarray()
    if isinstance(grid, str):
        grid = Grid(grid)
    if grid.dim != 2:
        raise ValueError(f"to_xarray needs a 2-D grid, got {grid.dim}-D")
    x, y = grid.axes
    values = np.asarray(values, dtype=np.float64)
    coords = {"y": y[::-1], "x": x}
    if values.ndim == 1:
        da = xr.DataArray(_north_up(values, grid), dims=("y", "x"), coords=coords, name=name)
    else:
        stack = np.stack([_north_up(values[:, b], grid) for b in range(values.shape[1])])
        names = list(bands) if bands is not None else [f"band_{b + 1}" for b in range(values.shape[1])]
        da = xr.DataArray(stack, dims=("band", "y", "x"), coords={"band": names, **coords}, name=name)
    da.attrs.update(attrs or {})
    if crs is not None:
        da.attrs["crs"] = crs
    return _with_crs(da, crs)


def read_release(folder):
    """The released field(s) of a 2-D grid release folder (draws.csv + certificate.json) as a
    DataArray with bands value_1..value_L (response units), vote_fraction and in_set; cells
    outside a mask are NaN. The CRS is the release's declared one (none without --crs)."""
    with open(os.path.join(folder, "certificate.json")) as f:
        cert = json.load(f)
    ev = cert["evaluation"]
    if not ev.get("grid_spec"):
        raise ValueError(f"{folder}: not a release on a grid")
    grid = Grid(ev["grid_spec"])
    if grid.dim != 2:
        raise ValueError(f"{folder}: read_release needs a 2-D grid release")
    crs = (cert.get("crs") or {}).get("declared")
    with open(os.path.join(folder, "draws.csv"), newline="") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], np.array(rows[1:], dtype=np.float64)
    names = [h for h in header if h.startswith("value_")] + ["vote_fraction", "in_set"]
    cols = [header.index(n) for n in names]
    full = np.full((grid.size, len(names)), np.nan)
    # Points are grid nodes: place each row by its coordinates (masked grids list only some).
    x, y = grid.axes
    ix = np.rint((body[:, 0] - x[0]) / (x[1] - x[0])).astype(int)
    iy = np.rint((body[:, 1] - y[0]) / (y[1] - y[0])).astype(int)
    full[iy * len(x) + ix, :] = body[:, cols]
    attrs = {"release": cert.get("release_uid", ""), "threshold": cert["threshold"]["t"]}
    return to_xarray(full, grid, crs=crs, name="release", attrs=attrs, bands=names)


def to_geotiff(da, path, *, metadata=None):
    """Writes a ("y", "x") or ("band", "y", "x") DataArray on a regular grid (as made by
    to_xarray or read_release) as a Cloud-Optimized GeoTIFF (GDAL's COG driver), float64,
    NaN as nodata, the CRS of ``attrs["crs"]`` embedded, band descriptions from the band names."""
    x = np.asarray(da["x"].values, dtype=np.float64)
    y = np.asarray(da["y"].values, dtype=np.float64)[::-1]
    grid = Grid(f"{float(x[0])!r}:{float(x[-1])!r}:{len(x)},{float(y[0])!r}:{float(y[-1])!r}:{len(y)}")
    data = da.values if da.ndim == 3 else da.values[np.newaxis]
    names = [str(b) for b in da["band"].values] if da.ndim == 3 else [str(da.name or "value")]
    bands = [(n, np.ascontiguousarray(d[::-1, :]).reshape(-1)) for n, d in zip(names, data)]
    blob = _gis.cog_geotiff(grid, da.attrs.get("crs"), bands, {k: str(v) for k, v in (metadata or {}).items()})
    with open(path, "wb") as f:
        f.write(blob)
    return path
