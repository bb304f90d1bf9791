"""The map page of `gpdp serve` in a real browser: headless Chromium (Debian's chromium and
chromium-driver, driven by Selenium) opens the page, clicks the map, and must show the value that
the API returns for that point; typed coordinates of a released grid node show draws.csv's value.
The server listens on 127.0.0.1 only, on a port it picks itself; every wait is bounded and the
server is always killed. Set GPDP_SERVE_SCREENSHOT=FILE.png to keep a screenshot of the page."""

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
        "limits": {"rate_per_second": 0}}))
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


def post_query(base, point):
    req = urllib.request.Request(f"{base}/v1/releases/meuse-zinc/query",
                                 data=json.dumps({"points": [point]}).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.load(r)


@pytest.fixture()
def browser():
    from selenium import webdriver
    options = webdriver.ChromeOptions()
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                 "--window-size=1280,900"):
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


def test_click_on_the_map_shows_the_value_the_api_returns(served_meuse, browser):
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

    canvas = browser.find_element(By.ID, "map")
    assert canvas.is_displayed()
    # Click a little left of and above the centre of the map (offsets from the centre).
    ActionChains(browser).move_to_element_with_offset(canvas, -40, -60).click().perform()
    result = browser.find_element(By.ID, "result")
    wait_for(browser, lambda d: result.get_attribute("data-status") in ("done", "error"))
    assert result.get_attribute("data-status") == "done", result.text
    point = json.loads(result.get_attribute("data-point"))
    shown = float(result.get_attribute("data-value"))
    assert "newly drawn" in result.text
    # The API, asked the same point, returns exactly the value the page shows (the path
    # remembers it), and the page's text is that value.
    answer = post_query(base, point)
    assert answer["new_points"] == 0
    assert answer["value"][0] == shown
    assert result.find_element(By.CLASS_NAME, "value").text == result.get_attribute("data-value")

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
