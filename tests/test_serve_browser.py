"""``dominocore serve`` in a real browser (docs/serve.md): Debian's Chromium,
driven by Playwright, against a ``dominocore serve`` process on loopback.

A person plays a whole round against three bots by clicking; two people in
two browser contexts play each other while a spectator watches; a reload in
the middle of a game restores the seat. Screenshots of each go to
``build/screenshots/`` (CI keeps them). Playwright never downloads a
browser here: it launches ``/usr/bin/chromium``. Where Chromium or
Playwright is missing the module skips, unless ``DOMINOCORE_BROWSER_TESTS=1``
(set by ``.ci/run``), where that is a failure.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from helpers import serve_process

REQUIRED = os.environ.get("DOMINOCORE_BROWSER_TESTS") == "1"
CHROMIUM = "/usr/bin/chromium"
if not REQUIRED:
    pytest.importorskip("playwright.sync_api", reason="the browser tests need playwright")
    pytest.importorskip("starlette", reason="dominocore serve needs the [web] extra")
    if not os.path.exists(CHROMIUM):
        pytest.skip("the browser tests need Debian's chromium (apt-get install chromium)", allow_module_level=True)
else:
    assert os.path.exists(CHROMIUM), "DOMINOCORE_BROWSER_TESTS=1 but /usr/bin/chromium is missing"

from playwright.sync_api import Page, sync_playwright  # noqa: E402

SHOTS = Path(__file__).resolve().parent.parent / "build" / "screenshots"
#: Chromium as root on a machine with no network: no sandbox, and none of its background connections.
ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync",
]  # fmt: skip
TILE = re.compile(r"^\d+-\d+$")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A ``dominocore serve`` process: its base URL."""
    with serve_process(tmp_path_factory.mktemp("serve") / "db.sqlite3") as (_, base, _):
        yield base


@pytest.fixture(scope="module")
def browser():
    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield chromium
        chromium.close()


def new_page(browser) -> Page:
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))  # type: ignore[attr-defined]
    page.set_default_timeout(30_000)
    return page


def create_in_page(page: Page, base: str, game: str, players: int, set_: int, seats):
    """Fill in the form and press Create; the links ``(seat links by seat, spectator link)``."""
    page.goto(base + "/")
    page.select_option("#game", game)
    page.fill("#players", str(players))
    page.dispatch_event("#players", "input")
    page.fill("#set", str(set_))
    for k, kind in enumerate(seats):
        page.select_option(f'#seats select[data-seat="{k}"]', kind)
    page.screenshot(path=str(SHOTS / "create-form.png"))
    page.click("#create")
    page.wait_for_selector("a.spectator-link")
    links = {int(a.get_attribute("data-seat")): a.get_attribute("href") for a in page.query_selector_all("a.seat-link")}
    return links, page.get_attribute("a.spectator-link", "href")


def move_number(page: Page) -> int:
    return int(page.get_attribute("#turn", "data-move-number"))


def hand(page: Page):
    return [t.get_attribute("data-tile") for t in page.query_selector_all("#hand .tile")]


def take_turn(page: Page) -> None:
    """Make one move by clicking, as a person would: a playable tile then a
    highlighted end, else draw, else pass; wait until the move is shown."""
    before = move_number(page)
    if page.locator(".tile.playable").count():
        page.locator(".tile.playable").first.click()
        ends = page.locator(".end.legal")
        assert ends.count() >= 1, "a playable tile highlights at least one end"
        ends.first.click()
    elif page.is_visible("#draw"):
        page.click("#draw")
    else:
        assert page.is_visible("#pass"), "a seat to move can place, draw or pass"
        page.click("#pass")
    page.wait_for_function(f"Number(document.querySelector('#turn').dataset.moveNumber) > {before}")


def my_turn_or_over(page: Page) -> str:
    page.wait_for_function(
        "['your turn', 'round over'].includes(document.querySelector('#turn').textContent)", timeout=60_000
    )
    return page.text_content("#turn")


def test_a_person_plays_a_whole_round_against_three_bots_by_clicking(server, browser):
    page = new_page(browser)
    links, _ = create_in_page(page, server, "chickenfoot:trains", 4, 6, ["human", "greedy", "greedy", "random"])
    assert list(links) == [0]
    page.goto(links[0])
    page.wait_for_selector("#hand .tile")
    assert all(TILE.match(t) for t in hand(page)) and len(hand(page)) >= 5
    moves = 0
    while my_turn_or_over(page) == "your turn":
        take_turn(page)
        moves += 1
        if moves == 3:
            page.screenshot(path=str(SHOTS / "mid-round.png"), full_page=True)
    assert moves >= 3
    assert "points" in page.text_content("#result")
    history = page.query_selector_all("#history li")
    assert len(history) == move_number(page) and len(history) > moves
    assert page.is_visible("#next") and not page.query_selector_all(".tile.playable")
    page.screenshot(path=str(SHOTS / "round-over.png"), full_page=True)
    assert page.errors == []  # type: ignore[attr-defined]


def test_two_people_play_each_other_while_a_spectator_watches(server, browser):
    setup = new_page(browser)
    links, spectator_link = create_in_page(setup, server, "block", 2, 6, ["human", "human"])
    players = [new_page(browser), new_page(browser)]  # each a context of its own: no shared storage
    watcher = new_page(browser)
    for page, link in zip(players, (links[0], links[1])):
        page.goto(link)
    watcher.goto(spectator_link)
    for page in players:
        page.wait_for_selector("#hand .tile")
    watcher.wait_for_selector("#seat-list li")
    turns = 0
    while True:
        mover = next((p for p in players if p.text_content("#turn") == "your turn"), None)
        if mover is None:
            if all(p.text_content("#turn") == "round over" for p in players):
                break
            players[0].wait_for_timeout(50)
            continue
        number = move_number(mover)
        # what the spectator sees: the same move number, no hand, and none of the unplayed tiles
        watcher.wait_for_function(f"document.querySelector('#turn').dataset.moveNumber === '{number}'")
        unplayed = set(hand(players[0])) | set(hand(players[1]))
        assert watcher.query_selector_all("#hand .tile") == []
        drawn = {g.get_attribute("data-tile") for g in watcher.query_selector_all("#layout [data-tile]")}
        assert not drawn & unplayed
        text = watcher.text_content("body")
        assert not any(re.search(rf"(?<![0-9]){t}(?![0-9])", text) for t in unplayed)
        if turns == 2:
            watcher.screenshot(path=str(SHOTS / "spectator.png"), full_page=True)
        take_turn(mover)
        turns += 1
    assert turns >= 4
    watcher.wait_for_function("document.querySelector('#turn').textContent === 'round over'")
    assert "points" in watcher.text_content("#result") and not watcher.is_visible("#next")
    for page in [*players, watcher]:
        assert page.errors == []  # type: ignore[attr-defined]


def test_a_reload_in_the_middle_of_a_game_restores_the_seat(server, browser):
    page = new_page(browser)
    links, _ = create_in_page(page, server, "doubles", 3, 6, ["human", "greedy", "greedy"])
    page.goto(links[0])
    page.wait_for_selector("#hand .tile")
    for _ in range(2):
        if my_turn_or_over(page) != "your turn":
            break
        take_turn(page)
    my_turn_or_over(page)
    before = (hand(page), move_number(page), page.text_content("#history"))
    page.reload()
    page.wait_for_function(f"document.querySelector('#turn').dataset.moveNumber === '{before[1]}'")
    page.wait_for_selector("#hand .tile")
    assert (hand(page), move_number(page), page.text_content("#history")) == before
    page.screenshot(path=str(SHOTS / "after-reload.png"), full_page=True)
