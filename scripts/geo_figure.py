#!/usr/bin/env python3
"""Draws a release's excursion.geojson (WGS 84) over its map.tif warped to longitude/latitude.

    python3 scripts/geo_figure.py RELEASE_DIR OUT.png

Uses GDAL's command-line tools (gdal-bin: gdalwarp, gdal_translate) for the raster and
matplotlib for the picture: an independent reader of both files, so the picture shows where a GIS
puts them. Prints the GeoJSON's longitude/latitude extent.
"""

import json
import os
import subprocess
import sys
import tempfile

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def warped_band(tif, band=1):
    with tempfile.TemporaryDirectory() as tmp:
        warped = os.path.join(tmp, "lonlat.tif")
        subprocess.run(["gdalwarp", "-q", "-t_srs", "EPSG:4326", "-r", "near", "-dstnodata", "nan",
                        tif, warped], check=True)
        xyz = subprocess.run(["gdal_translate", "-q", "-b", str(band), "-of", "XYZ", warped,
                              "/vsistdout/"], check=True, capture_output=True, text=True).stdout
    a = np.array([line.split() for line in xyz.splitlines() if line.strip()], dtype=float)
    xs, ys = np.unique(a[:, 0]), np.unique(a[:, 1])
    img = a[:, 2].reshape(len(ys), len(xs))  # rows top-down (y decreasing), as written
    dx, dy = xs[1] - xs[0], ys[1] - ys[0]
    return img, (xs[0] - dx / 2, xs[-1] + dx / 2, ys[0] - dy / 2, ys[-1] + dy / 2)


def main(folder, out_png):
    img, extent = warped_band(os.path.join(folder, "map.tif"))
    with open(os.path.join(folder, "excursion.geojson")) as f:
        fc = json.load(f)
    fig, ax = plt.subplots(figsize=(7.5, 8.2))
    lim = np.nanmax(np.abs(img - np.nanmedian(img)))
    im = ax.imshow(img, extent=extent, cmap="RdBu_r", vmin=np.nanmedian(img) - lim,
                   vmax=np.nanmedian(img) + lim, interpolation="nearest")
    lons, lats = [], []
    for feature in fc["features"]:
        for polygon in feature["geometry"]["coordinates"]:
            for k, ring in enumerate(polygon):
                r = np.array(ring)
                lons += list(r[:, 0])
                lats += list(r[:, 1])
                ax.plot(r[:, 0], r[:, 1], color="black" if k == 0 else "dimgray", lw=1.0)
    ax.set_xlabel("longitude (° E, WGS 84)")
    ax.set_ylabel("latitude (° N, WGS 84)")
    ax.set_aspect(1 / np.cos(np.radians(np.mean(extent[2:]))))
    cert = json.load(open(os.path.join(folder, "certificate.json")))
    ax.set_title("map.tif (band 1, warped to EPSG:4326 by gdalwarp) and excursion.geojson\n"
                 f"declared CRS {cert.get('crs', {}).get('declared', 'none')}; "
                 f"ε = {cert['guarantee']['epsilon']:.3g}", fontsize=10)
    fig.colorbar(im, ax=ax, shrink=0.7, label="released value (map.tif band 1)")
    fig.tight_layout()
    fig.savefig(out_png, dpi=90)
    print(f"excursion.geojson extent: longitude {min(lons):.4f} to {max(lons):.4f} ° E, "
          f"latitude {min(lats):.4f} to {max(lats):.4f} ° N")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
