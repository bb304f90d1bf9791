"""The map page of `gpdp serve` in a real browser: headless Chromium (Debian's chromium and
chromium-driver, driven by Selenium) opens the page, which draws the release on a Leaflet map
(Debian's libjs-leaflet, served by gpdp itself): the released values reprojected from RD New to the
web map and the excursion polygons as layers; the test zooms and pans, asks the path by a click, along
a drawn line and in a drawn box, and every value the page shows must be the value the API returns for
that point; typed coordinates of a released grid node show draws.csv's value. The server listens on
127.0.0.1 only, on a port it picks itself; every wait is bounded and the server is always killed.
Set GPDP_SERVE_SCREENSHOT=FILE.png to keep a screenshot of the page (docs/img/serve-map.png)."""

import json
import math
import os
import pathlib
import re
import shutil
import subprocess
import time
import urllib.request

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"


@pytest.fixture()
def served_meuse(cli, tmp_path):
    """A masked-grid release of the Meuse zinc data (as in the demo, coarser), served by
    `gpdp serve`; yields (base URL, release folder)."""
    t = f"{math.log(720):.6f}"
    cli("release", "--data", REPO / "data/meuse.csv", "--x", "x,y", "--y", "zinc",
        "--transform", "log", "--center", t, "--scale", "1.5", "--M-Y", "1",
        "--crs", "EPSG:28992", "--domain", "178440:181560,329600:333760",
        "--kernel", "exp", "--ell", "300", "--sigma", "0.5",
        "--target-epsilon", "1", "--solve", "r", "--delta", "0.0039",
        "--grid2d", "178480:181520:39,329640:333720:52", "--mask", REPO / "data/meuse_grid.csv",
        "--threshold", t, "--dataset", "meuse-zinc", "--ledger", tmp_path / "ledger.sqlite",
        "--keep-path", tmp_path / "zinc.gpdp", "--out", tmp_path / "release")
    config = tmp_path / "serve.json"
    config.write_text(json.dumps({
        "releases": [{"id": "meuse-zinc", "release_dir": "release", "path": "zinc.gpdp",
                      "data": str(REPO / "data/meuse.csv")}],
        "limits": {"rate_per_second": 0, "new_points_per_client": 1000}}))
    err = open(tmp_path / "serve.err", "w+")
    server = subprocess.Popen([cli.path, "serve", "--config", config, "--listen", "127.0.0.1:0"],
                              stdout=subprocess.DEVNULL, stderr=err)
    try:
        deadline = time.monotonic() + 60
        port = None
        while port is None and time.monotonic() < deadline and server.poll() is None:
            found = re.search(r"http://127\.0\.0\.1:(\d+)/", (tmp_path / "serve.err").read_text())
            port = int(found.group(1)) if found else None
            time.sleep(0.05)
        assert port, f"gpdp serve did not start: {(tmp_path / 'serve.err').read_text()}"
        yield f"http://127.0.0.1:{port}", tmp_path / "release"
    finally:
        server.kill()
        server.wait(timeout=30)
        err.close()


def post_points(base, points):
    req = urllib.request.Request(f"{base}/v1/releases/meuse-zinc/query",
                                 data=json.dumps({"points": points}).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.load(r)


@pytest.fixture()
def browser():
    from selenium import webdriver
    options = webdriver.ChromeOptions()
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                 "--window-size=1280,1000"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=webdriver.ChromeService(executable_path=CHROMEDRIVER),
                              options=options)
    driver.set_page_load_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()


def wait_for(driver, condition, timeout=90):
    from selenium.webdriver.support.ui import WebDriverWait
    return WebDriverWait(driver, timeout).until(condition)


def wait_done(browser, result, before):
    """Waits until the page has a NEW answer (or an error) after `before` (the last data-points)."""
    wait_for(browser, lambda d: result.get_attribute("data-status") == "error" or (
        result.get_attribute("data-status") == "done"
        and result.get_attribute("data-points") != before))
    assert result.get_attribute("data-status") == "done", result.text
    return (json.loads(result.get_attribute("data-points")),
            json.loads(result.get_attribute("data-values")))


def expect_api_agrees(base, points, values):
    """The API, asked the same points again, draws nothing and returns the page's values."""
    answer = post_points(base, points)
    assert answer["new_points"] == 0
    assert answer["value"] == values


def test_map_page_layers_pan_zoom_and_asking_the_path(served_meuse, browser):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    base, release = served_meuse
    browser.get(base + "/")
    wait_for(browser, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready"))
    certificate = json.loads((release / "certificate.json").read_text())
    shown_epsilon = float(browser.find_element(By.ID, "epsilon").text)
    assert shown_epsilon == pytest.approx(certificate["guarantee"]["epsilon"], rel=1e-5)
    assert browser.find_element(By.ID, "delta").text == str(certificate["guarantee"]["delta"])
    assert browser.find_element(By.ID, "risk").text

    # The layers: Leaflet's map, the released values as an image (loaded, placed over the
    # release's domain in latitude/longitude) and the excursion polygons; a layer control.
    the_map = browser.find_element(By.ID, "map")
    assert "leaflet-container" in the_map.get_attribute("class")
    wait_for(browser, lambda d: d.execute_script(
        "const i = document.querySelector('img.released-map');"
        "return i !== null && i.complete && i.naturalWidth > 0;"))
    display = json.loads(urllib.request.urlopen(
        f"{base}/v1/releases/meuse-zinc/display.json", timeout=60).read())
    assert display["lat_lng"] and display["polygons"] == "excursion.geojson"
    (south, west), (north, east) = display["bounds"]
    assert 50.9 < south < north < 51.05 and 5.6 < west < east < 5.9  # the Meuse floodplain
    assert len(browser.find_elements(By.CSS_SELECTOR, "path.excursion")) > 0
    labels = [e.text for e in browser.find_elements(By.CSS_SELECTOR,
                                                    ".leaflet-control-layers-overlays label")]
    assert any("released values" in t for t in labels) and any("excursion" in t for t in labels)

    # Zoom and pan.
    zoom = browser.execute_script("return gpdpMap.getZoom();")
    browser.find_element(By.CSS_SELECTOR, ".leaflet-control-zoom-in").click()
    wait_for(browser, lambda d: d.execute_script("return gpdpMap.getZoom();") == zoom + 1)
    time.sleep(0.5)  # the zoom animation (Leaflet takes no drag during it)
    centre = browser.execute_script("const c = gpdpMap.getCenter(); return [c.lat, c.lng];")
    drag = ActionChains(browser).move_to_element(the_map).click_and_hold()
    for _ in range(6):
        drag.move_by_offset(10, 7)
    drag.release().perform()
    wait_for(browser, lambda d: d.execute_script(
        "const c = gpdpMap.getCenter(); return [c.lat, c.lng];") != centre, timeout=10)
    moved = browser.execute_script("const c = gpdpMap.getCenter(); return [c.lat, c.lng];")
    assert moved[0] > centre[0] and moved[1] < centre[1]  # dragged right and down: view NW

    # A click asks the path at that point: the page shows the API's value for it (the point in
    # RD New, as the server transformed the click's longitude/latitude).
    result = browser.find_element(By.ID, "result")
    before = result.get_attribute("data-points")
    ActionChains(browser).move_to_element_with_offset(the_map, -40, -30).click().perform()
    points, values = wait_done(browser, result, before)
    assert len(points) == 1 and "newly drawn" in result.text
    x, y = points[0]
    assert 178440 <= x <= 181560 and 329600 <= y <= 333760
    assert result.find_element(By.CLASS_NAME, "value").text == result.get_attribute("data-value")
    expect_api_agrees(base, points, values)

    # Along a drawn line: as many points as the limits allow (at most 50 here), one request.
    browser.find_element(By.ID, "mode-line").click()
    before = result.get_attribute("data-points")
    ActionChains(browser).move_to_element_with_offset(the_map, -120, 80).click().perform()
    ActionChains(browser).move_to_element_with_offset(the_map, 100, -60).click().perform()
    points, values = wait_done(browser, result, before)
    assert len(points) == 50
    expect_api_agrees(base, points, values)

    # In a drawn box: a 10 x 10 lattice of points (the request limit is 100).
    browser.find_element(By.ID, "mode-box").click()
    before = result.get_attribute("data-points")
    ActionChains(browser).move_to_element_with_offset(the_map, -60, -60).click().perform()
    ActionChains(browser).move_to_element_with_offset(the_map, 20, 10).click().perform()
    points, values = wait_done(browser, result, before)
    assert len(points) == 100
    expect_api_agrees(base, points, values)
    assert len(browser.find_elements(By.CSS_SELECTOR, "#history tbody tr")) == 151

    # Typed coordinates of a released grid node: the page shows draws.csv's value.
    rows = (release / "draws.csv").read_text().splitlines()
    header = rows[0].split(",")
    node = rows[len(rows) // 2].split(",")
    for i, value in enumerate(node[:2]):
        field = browser.find_element(By.ID, f"coord{i}")
        field.clear()
        field.send_keys(value)
    browser.find_element(By.CSS_SELECTOR, "#ask button").click()
    wait_for(browser, lambda d: result.get_attribute("data-status") == "done"
             and json.loads(result.get_attribute("data-point")) == [float(v) for v in node[:2]])
    assert float(result.get_attribute("data-value")) == float(node[header.index("value_1")])
    assert "already released" in result.text

    shot = os.environ.get("GPDP_SERVE_SCREENSHOT")
    if shot:
        browser.save_screenshot(shot)
