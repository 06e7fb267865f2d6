"""``dominocore serve`` in a real browser (docs/serve.md): Debian's Chromium,
driven by Playwright's sync API, against a ``dominocore serve`` process on
loopback.

- a person creates a table with the page's form and plays a whole round
  against three greedy bots by clicking tiles and ends (or draw, pass), then
  deals the next round;
- two people, each in a browser context of their own, play each other while a
  spectator watches: the spectator is never shown a hand, a button, or a tile
  that is still in a hand, and neither player is shown the other's tiles;
- a reload in the middle of a game restores the same hand, move number and
  history; a server killed and started again is reconnected to by itself;
- the form shows the server's refusal; a match of bots watched to its end
  shows the winners and a record that downloads.

Screenshots of each go to ``build/screenshots/`` (CI keeps them).
Playwright never downloads a browser here: it launches ``/usr/bin/chromium``.
Where Chromium, Playwright or the ``[web]`` extra is missing the module
skips, unless ``DOMINOCORE_BROWSER_TESTS=1`` (``.ci/run`` sets it), where
that is a failure.
"""

from __future__ import annotations

import json
import os
import re
import urllib.request
from pathlib import Path

import pytest
from helpers import TILE, free_port, serve_process, tiles_in

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


# ---------------------------------------------------------------- the server


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One ``dominocore serve`` process for the module: its base URL."""
    with serve_process(tmp_path_factory.mktemp("serve") / "db.sqlite3") as (_, base, _):
        yield base


def create_by_api(base: str, rules, seats, seed: int = 1):
    """A table made through the API (where the form is not what is tested)."""
    body = json.dumps({"rules": rules, "seats": seats, "seed": seed}).encode()
    request = urllib.request.Request(f"{base}/api/tables", body, {"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


@pytest.fixture(scope="module")
def browser():
    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield chromium
        chromium.close()


@pytest.fixture
def open_page(browser):
    """``open_page(width=1280, height=900)``: a page in a browser context of
    its own (no shared storage), which records the page's uncaught errors;
    every context is closed after the test, and no page may have failed."""
    contexts, pages = [], []

    def open_(width: int = 1280, height: int = 900) -> Page:
        context = browser.new_context(viewport={"width": width, "height": height})
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(20_000)
        page.errors = []  # type: ignore[attr-defined]
        page.on("pageerror", lambda exc: page.errors.append(str(exc)))  # type: ignore[attr-defined]
        pages.append(page)
        return page

    yield open_
    errors = [e for page in pages for e in page.errors]  # type: ignore[attr-defined]
    for context in contexts:
        context.close()
    assert errors == [], errors


# ---------------------------------------------------------------- the page


def shot(page: Page, name: str, full_page: bool = True) -> None:
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full_page)


def create_in_page(page: Page, base: str, game: str, players: int, set_, seats, shot_name=None):
    """Fill in the form and press Create: ``({seat: link}, spectator link)``."""
    page.goto(base + "/")
    page.wait_for_selector("#create-page:not([hidden])")
    assert not page.is_visible("#table-page") and not page.is_visible("#error")  # hidden means hidden
    page.select_option("#game", game)
    page.fill("#players", str(players))
    if set_ is not None:
        page.fill("#set", str(set_))
    for k, kind in enumerate(seats):
        page.select_option(f'#seats select[data-seat="{k}"]', kind)
    assert page.locator("#seats select").count() == players
    if shot_name:
        shot(page, shot_name)
    page.click("#create")
    page.wait_for_selector("a.spectator-link")
    links = {int(a.get_attribute("data-seat")): a.get_attribute("href") for a in page.query_selector_all("a.seat-link")}
    spectator = page.get_attribute("a.spectator-link", "href")
    for link in [*links.values(), spectator]:
        assert re.fullmatch(re.escape(base) + r"/play#[A-Za-z0-9_-]{16,}", link), link
    return links, spectator


def move_number(page: Page) -> int:
    return int(page.get_attribute("#turn", "data-move-number"))


def hand(page: Page):
    return [t.get_attribute("data-tile") for t in page.query_selector_all("#hand button.tile")]


#: The page's text nodes, hidden ones included, one a line. Not the body's text_content: it runs
#: adjacent nodes together: a hand of buttons labelled "4-4", "1-5", "2-6" reads "4-41-52-6", in
#: which tiles_in finds 4-41 and 6-52, tiles that no node wrote (CI once found 0-1 so, a tile of
#: the other hand, and failed a round that leaked nothing).
TEXT_NODES = """() => {
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const texts = [];
  while (walker.nextNode()) texts.push(walker.currentNode.nodeValue);
  return texts.join("\\n");
}"""


def tiles_in_text(page: Page):
    """Every tile written in the page's text (hidden elements included), as 'low-high'."""
    return {f"{low}-{high}" for low, high in tiles_in(page.evaluate(TEXT_NODES))}


def wait_turn_or_result(page: Page, timeout: float = 30_000) -> str:
    """Wait until it is this seat's turn or the round is over: 'turn' or 'over'."""
    page.wait_for_function(
        "document.querySelector('#turn').textContent.includes('your turn')"
        " || document.querySelector('#result').textContent !== ''",
        timeout=timeout,
    )
    return "over" if page.text_content("#result") else "turn"


def take_turn(page: Page, check_selection: bool = False) -> str:
    """One move by clicking, as a person would: a playable tile then one of
    the ends it lights, else draw, else pass. Waits until the move is shown;
    returns what was done ('place', 'draw' or 'pass')."""
    before = move_number(page)
    assert page.locator("button.end.legal").count() == 0, "no end is lit before a tile is chosen"
    playable = page.locator("button.tile.playable")
    if playable.count():
        tile = playable.first
        if check_selection:  # choose, unchoose, choose again
            tile.click()
            assert "selected" in (tile.get_attribute("class") or "")
            lit = page.locator("button.end.legal").evaluate_all("bs => bs.map(b => b.dataset.end)")
            assert lit and sorted(lit) == sorted(
                page.locator("#layout g.end.legal").evaluate_all("gs => gs.map(g => g.dataset.end)")
            )
            tile.click()
            assert page.locator("button.end.legal").count() == 0 and page.locator("button.tile.selected").count() == 0
        tile.click()
        ends = page.locator("button.end.legal")
        assert ends.count() >= 1, "a playable tile lights at least one end"
        assert all(ends.nth(i).is_enabled() for i in range(ends.count()))
        assert page.locator("button.end:not(.legal):enabled").count() == 0
        ends.first.click()
        done = "place"
    elif page.is_visible("#draw"):
        page.click("#draw")
        done = "draw"
    else:
        assert page.is_visible("#pass"), "a seat to move can place, draw or pass"
        page.click("#pass")
        done = "pass"
    page.wait_for_function(f"Number(document.querySelector('#turn').dataset.moveNumber) !== {before}")
    return done


# ---------------------------------------------------------------- the tests


def test_a_person_plays_a_whole_round_against_three_bots_by_clicking(server, open_page):
    page = open_page()
    links, _ = create_in_page(
        page, server, "chickenfoot:trains", 4, 6, ["human", "greedy", "greedy", "greedy"], shot_name="create-form"
    )
    assert list(links) == [0], "one link: the one human seat"
    page.goto(links[0])
    page.wait_for_selector("#hand button.tile")
    assert not page.is_visible("#create-page") and page.locator("#layout svg").count() == 1
    assert len(hand(page)) >= 5 and all(TILE.fullmatch(t) for t in hand(page))
    kinds = page.locator("#seat-list li .kind").all_text_contents()
    assert kinds == ["human", "greedy", "greedy", "greedy"]
    done = []
    while wait_turn_or_result(page) == "turn":
        assert page.is_visible("#controls") and not page.is_visible("#next")
        done.append(take_turn(page, check_selection=not done))
        if len(done) == 3:
            shot(page, "mid-round")
    assert done.count("place") >= 1
    result = page.text_content("#result")
    assert "points: seat 0 (you) " in result and re.search(r"went out|blocked", result)
    assert page.text_content("#turn") == "round over"
    history = page.locator("#history li").all_text_contents()
    assert len(history) == move_number(page) > len(done)
    assert len([h for h in history if h.startswith("seat 0 (you): ")]) == len(done)
    assert (
        page.locator("button.tile.playable").count() == 0
        and not page.is_visible("#draw")
        and not page.is_visible("#pass")
    )
    assert page.locator("#scores tr").count() == 3  # the head, the round, the totals
    shot(page, "round-over")
    # the next round, dealt from the page
    assert page.is_visible("#next") and page.is_enabled("#next")
    page.click("#next")
    page.wait_for_function("document.querySelector('#result').textContent === ''")
    page.wait_for_selector("#hand button.tile")
    assert "round 1" in page.text_content("#title")
    assert not page.is_visible("#next") and not page.is_visible("#error")


def test_two_people_play_each_other_while_a_spectator_watches(server, open_page):
    setup = open_page()
    links, spectator_link = create_in_page(setup, server, "block", 2, 6, ["human", "human"])
    assert sorted(links) == [0, 1]
    players = [open_page(), open_page()]  # each in a context of its own
    watcher = open_page()
    for page, link in zip(players, (links[0], links[1])):
        page.goto(link)
    watcher.goto(spectator_link)
    for page in players:
        page.wait_for_selector("#hand button.tile")
    watcher.wait_for_selector("#seat-list li")
    assert "spectator" in watcher.text_content("#title")

    def check_what_each_sees() -> None:
        hands = [set(hand(p)) for p in players]
        unplayed = hands[0] | hands[1]
        # the spectator: no hand, no button, no tile still in a hand (in its text or in the picture)
        assert watcher.locator(".tile:not(#layout *)").count() == 0  # the picture's placed tiles only
        assert watcher.locator("#hand > *, #ends > *").count() == 0
        assert watcher.locator("button:visible").count() == 0 and not watcher.is_visible("#controls")
        assert not tiles_in_text(watcher) & unplayed
        drawn = {n.get_attribute("data-tile") for n in watcher.query_selector_all("[data-tile]")}
        assert not drawn & unplayed
        # each player: none of the other's tiles
        for k, page in enumerate(players):
            assert hands[k] <= tiles_in_text(page)  # the text check sees tiles: its own hand's labels
            assert not tiles_in_text(page) & hands[1 - k]
            assert not {n.get_attribute("data-tile") for n in page.query_selector_all("[data-tile]")} & hands[1 - k]

    turns = 0
    while True:
        if all(p.text_content("#result") for p in players):
            break
        mover = next((p for p in players if "your turn" in p.text_content("#turn")), None)
        if mover is None:  # a message still on its way
            players[0].wait_for_timeout(30)
            continue
        number = move_number(mover)
        for page in [watcher, *players]:  # everyone has seen the same move
            page.wait_for_function(f"document.querySelector('#turn').dataset.moveNumber === '{number}'")
        other = players[1 - players.index(mover)]
        assert "your turn" not in other.text_content("#turn") and other.locator("button.tile:enabled").count() == 0
        check_what_each_sees()
        if turns == 2:
            shot(watcher, "spectator")
            shot(mover, "two-people-mover")
        take_turn(mover)
        turns += 1
    assert turns >= 4
    final = move_number(players[0])
    watcher.wait_for_function(f"document.querySelector('#turn').dataset.moveNumber === '{final}'")
    check_what_each_sees()
    assert "points" in watcher.text_content("#result") and not watcher.is_visible("#next")
    assert watcher.locator("#history li").count() == final
    shot(watcher, "spectator-round-over")
    if "match over" in players[0].text_content("#turn"):
        assert watcher.is_visible("#record") and watcher.is_visible("#winners")
        return
    # either person deals the next round; all three see it
    players[1].click("#next")
    for page in [*players, watcher]:
        page.wait_for_function("document.querySelector('#result').textContent === ''")
    assert "round 1" in watcher.text_content("#title")
    check_what_each_sees()


def test_a_reload_in_the_middle_of_a_game_restores_the_seat(server, open_page):
    page = open_page()
    links, _ = create_in_page(page, server, "doubles", 3, 6, ["human", "greedy", "greedy"])
    page.goto(links[0])
    page.wait_for_selector("#hand button.tile")
    for _ in range(2):
        if wait_turn_or_result(page) != "turn":
            break
        take_turn(page)
    wait_turn_or_result(page)
    assert move_number(page) > 0
    before = (hand(page), move_number(page), page.locator("#history li").all_text_contents())
    page.reload()
    page.wait_for_function(f"document.querySelector('#turn').dataset.moveNumber === '{before[1]}'")
    page.wait_for_selector("#hand button.tile")
    assert (hand(page), move_number(page), page.locator("#history li").all_text_contents()) == before
    assert not page.is_visible("#error")
    shot(page, "after-reload")
    page.set_viewport_size({"width": 390, "height": 844})  # a phone: one column
    shot(page, "phone", full_page=False)


def test_the_page_reconnects_by_itself_to_a_server_started_again(tmp_path, open_page):
    db, port = tmp_path / "db.sqlite3", free_port()
    with serve_process(db, port) as (process, base, _):
        answer = create_by_api(
            base, {"game": "chickenfoot", "rule_set": "trains", "players": 2, "set": 6}, ["human", "greedy"]
        )
        page = open_page()
        page.goto(f"{base}/play#{answer['seats'][0]}")
        page.wait_for_selector("#hand button.tile")
        assert wait_turn_or_result(page) == "turn"
        take_turn(page)
        assert wait_turn_or_result(page) == "turn"
        before = (hand(page), move_number(page))
        process.kill()  # SIGKILL: no goodbye to the page
        process.wait(timeout=30)
        page.wait_for_selector("#conn:not([hidden])")
        assert "reconnecting" in page.text_content("#conn")
        assert page.locator("button.tile:enabled, button.end:enabled, #draw:enabled, #pass:enabled").count() == 0
        shot(page, "reconnecting")
    with serve_process(db, port):  # the same database on the same port
        page.wait_for_selector("#conn", state="hidden", timeout=30_000)
        page.wait_for_function("document.querySelector('#turn').textContent.includes('your turn')")
        assert (hand(page), move_number(page)) == before
        take_turn(page)  # and the table plays on
        assert move_number(page) > before[1]


def test_the_form_shows_the_servers_refusal(server, open_page):
    page = open_page()
    page.goto(server + "/")
    page.select_option("#game", "block")
    assert page.input_value("#set") == "6"
    page.select_option("#game", "mexican_train")
    assert page.input_value("#set") == "12"
    page.select_option("#game", "block")
    page.fill("#players", "8")
    assert page.locator("#seats select").count() == 8
    tables = page.request.get(server + "/api/health").json()["tables"]
    page.click("#create")
    page.wait_for_selector("#error:not([hidden])")
    assert re.fullmatch(r"bad_message: .*\bplayers\b.*", page.text_content("#error")), page.text_content("#error")
    assert not page.is_visible("#links") and page.locator("a.seat-link").count() == 0
    assert page.is_enabled("#create")  # the form can be sent again
    assert page.request.get(server + "/api/health").json()["tables"] == tables  # nothing was created
    shot(page, "refused")
    # a token that grants nothing
    page.goto(server + "/play#not-a-token")
    page.wait_for_selector("#error:not([hidden])")
    assert page.text_content("#error").startswith("bad_token: ")


def test_a_match_of_bots_watched_to_its_end(server, open_page):
    page = open_page()
    links, spectator = create_in_page(page, server, "all_fives", 2, None, ["greedy", "random"])
    assert links == {}
    page.goto(spectator)
    page.wait_for_selector("#winners:not(:empty)", timeout=60_000)
    assert page.text_content("#turn") == "match over"
    assert re.match(r"Match over\. Winners?: seat [01]", page.text_content("#winners"))
    assert page.locator("button:visible").count() == 0
    assert page.locator("#scores tr").count() >= 3
    shot(page, "match-over")
    record = page.locator("#record")
    assert record.is_visible() and record.get_attribute("download") is not None
    with page.expect_download() as download:  # the link, clicked
        record.click()
    assert download.value.suggested_filename.startswith("dominocore-")
    data = json.loads(Path(download.value.path()).read_text())
    assert data["format"] == "dominocore-record" and data["kind"] == "match"
    assert len(data["rounds"]) == page.locator("#scores tr").count() - 2  # the rounds the page shows
