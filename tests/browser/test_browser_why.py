"""End to end: the `why` link opens Neo4j Browser (served by the real local server),
headless Chromium clicks Run, and the evidence record's text is on the page."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from graphmem import Fact, Record

pytestmark = pytest.mark.integration

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
SHOTS = Path(__file__).resolve().parents[2] / ".cache" / "screenshots"


@pytest.fixture
def browser(tmp_path):
    if not (CHROMIUM and CHROMEDRIVER):
        pytest.skip("Debian's chromium and chromium-driver are not installed")
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    opts = Options()
    opts.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--window-size=1400,1000",
                f"--user-data-dir={tmp_path / 'profile'}"):
        opts.add_argument(arg)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    yield driver
    driver.quit()


def _wait_for(driver, css: str, timeout: float = 30):
    from selenium.webdriver.common.by import By

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = driver.find_elements(By.CSS_SELECTOR, css)
        if found:
            return found
        time.sleep(0.25)
    raise AssertionError(f"{css} did not appear")


def test_why_link_shows_the_evidence_in_neo4j_browser(memory, browser):
    if not memory.config.neo4j_http_url:
        pytest.skip("the server's HTTP address is not known")
    memory.ingest([
        Record("The quarterly review moved to the Aurora room.", id="m1",
               facts=(Fact("quarterly review", "room", "Aurora room"),)),
    ])
    why = memory.why("quarterly review", "room")
    assert why.browser_url and "preselectAuthMethod=NO_AUTH" in why.browser_url
    browser.get(why.browser_url)
    run = _wait_for(browser, "[data-testid='editor-Run']")[0]
    deadline = time.monotonic() + 30  # connected: the editor's prompt names the database
    while time.monotonic() < deadline and "neo4j$" not in browser.page_source:
        time.sleep(0.25)
    browser.execute_script("arguments[0].click()", run)
    # Table view lists every returned node with its properties, the record text among them.
    table = _wait_for(browser, "[data-testid='cypherFrameSidebarTable']")[0]
    browser.execute_script("arguments[0].click()", table)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and "moved to the Aurora room" not in browser.page_source:
        time.sleep(0.25)
    SHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SHOTS / "browser_why.png"))
    assert "The quarterly review moved to the Aurora room." in browser.page_source
