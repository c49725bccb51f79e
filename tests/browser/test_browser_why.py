"""End to end in real headless Chromium and the real Neo4j Browser served by the local
server: the `why` link opens the graph, styled by graphmem (versions captioned by value
and coloured by status, records by their text), and the guide plays from the service."""

from __future__ import annotations

import shutil
import time
from pathlib import Path
from urllib.parse import quote

import pytest

from graphmem import Fact, Record
from graphmem.browser import STATUS_COLOURS

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
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1400,900",
        f"--user-data-dir={tmp_path / 'profile'}",
    ):
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


def _connected(driver, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout  # connected: the editor's prompt names the database
    while time.monotonic() < deadline and "neo4j$" not in driver.page_source:
        time.sleep(0.25)


def _graph_texts(driver, wanted: list[str], timeout: float = 30) -> str:
    """The words drawn in the Graph view (SVG captions), once all of ``wanted`` show."""
    from selenium.webdriver.common.by import By

    deadline = time.monotonic() + timeout
    words = ""
    while time.monotonic() < deadline:
        words = " ".join(e.text for e in driver.find_elements(By.CSS_SELECTOR, "svg text"))
        if all(w in words for w in wanted):
            break
        time.sleep(0.25)
    return words


def _fills(driver) -> set[str]:
    from selenium.webdriver.common.by import By

    return {
        (e.get_attribute("fill") or "").upper()
        for e in driver.find_elements(By.CSS_SELECTOR, "svg circle")
    }


def test_why_link_shows_a_readable_graph(memory, browser):
    if not memory.config.neo4j_http_url:
        pytest.skip("the server's HTTP address is not known")
    if not memory.config.neo4j_http_url.startswith("http://127.0.0.1"):
        pytest.skip("graphmem's Browser settings are written for the local server only")
    memory.ingest(
        [
            Record(
                "Our quarterly review is in the Birch room.",
                id="m0",
                facts=(Fact("quarterly review", "room", "Birch room"),),
            ),
            Record(
                "The quarterly review moved to the Aurora room.",
                id="m1",
                facts=(Fact("quarterly review", "room", "Aurora room", "update"),),
            ),
        ]
    )
    why = memory.why("quarterly review", "room")
    assert why.browser_url and "preselectAuthMethod=NO_AUTH" in why.browser_url
    assert "\\u241f" in why.browser_url.replace("%5Cu241f", "\\u241f")  # no box glyph
    browser.get(why.browser_url)
    run = _wait_for(browser, "[data-testid='editor-Run']")[0]
    _connected(browser)
    time.sleep(1)  # the post-connect :style runs first
    browser.execute_script("arguments[0].click()", run)
    # The Graph view (the default) draws captions as SVG text: values and record text.
    words = _graph_texts(browser, ["Aurora", "Birch", "moved to"])
    assert "Aurora" in words and "Birch" in words, words
    assert "moved to" in words and "quarterly" in words, words
    fills = _fills(browser)
    assert STATUS_COLOURS["Current"] in fills and STATUS_COLOURS["Superseded"] in fills, fills
    assert "usage data" not in browser.page_source.lower()  # no telemetry consent banner
    SHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SHOTS / "browser_why.png"))


def test_the_guide_plays_from_the_service(neo4j_server, browser):
    if not (neo4j_server.http_url or "").startswith("http://127.0.0.1"):
        pytest.skip("graphmem's Browser settings are written for the local server only")
    from graphmem import MemoryConfig
    from graphmem.service.app import ServiceThread, Settings, create_app

    settings = Settings(memory=MemoryConfig(neo4j_uri=neo4j_server.bolt_url))
    with ServiceThread(create_app(settings)) as service:
        guide = f"{service.url}/browser/guide.html?ns=alice"
        url = (
            f"{neo4j_server.http_url}/browser/?dbms={quote(neo4j_server.bolt_url, safe='')}"
            f"&preselectAuthMethod=NO_AUTH&cmd=edit&arg={quote(':play ' + guide, safe='')}"
        )
        browser.get(url)
        run = _wait_for(browser, "[data-testid='editor-Run']")[0]
        _connected(browser)  # after connecting, Browser knows the server's allowed hosts
        time.sleep(1)
        browser.execute_script("arguments[0].click()", run)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and "Each slide is a query" not in browser.page_source:
            time.sleep(0.25)
        SHOTS.mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(str(SHOTS / "browser_guide.png"))
        page = browser.page_source
        assert "Why does memory hold this value? Each slide is a query you can run." in page
        assert ':param ns =&gt; "alice"' in page or ':param ns => "alice"' in page
