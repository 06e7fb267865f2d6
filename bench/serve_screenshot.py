"""The README's screenshot of ``dominocore serve``: a person's table in the
middle of a Chicken Foot round against three bots, in Debian's Chromium.

    python bench/serve_screenshot.py [--out docs/serve-screenshot.png] [--seed 7] [--moves 6]

It starts a server on a free port with a fresh database, creates the table
(seeded: the deal and the plain bots repeat, while the IS-MCTS seat thinks
for a time budget and may choose otherwise), plays the person's first moves
by clicking as a person would, plays on to a turn where a tile fits, selects
it (its ends light up) and saves the page.
"""

from __future__ import annotations

import argparse
import tempfile

from playwright.sync_api import sync_playwright
from serve_process import create_table, running_server

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]  # fmt: skip
MY_TURN = "document.querySelector('#turn').textContent === 'your turn'"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default="docs/serve-screenshot.png")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--moves", type=int, default=6, help="the person's moves before the picture")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, running_server(f"{tmp}/db") as (_, base):
        table = {
            "rules": {"game": "chickenfoot", "rule_set": "trains", "players": 4, "set": 9},
            "seats": ["human", "greedy", "ismcts-0.1", "random"],
            "seed": args.seed,
        }
        token = create_table(base, table)["seats"][0]
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 860})
            page.goto(f"{base}/play#{token}")
            for k in range(args.moves + 20):  # the person's moves, then on to a turn where a tile fits
                page.wait_for_function(f"{MY_TURN} || document.querySelector('#result').textContent !== ''")
                playable = page.locator("button.tile.playable")
                if page.text_content("#result") or (k >= args.moves and playable.count()):
                    break
                before = page.get_attribute("#turn", "data-move-number")
                if playable.count():
                    playable.first.click()
                    page.locator("button.end.legal").first.click()
                else:
                    page.click("#draw" if page.is_visible("#draw") else "#pass")
                page.wait_for_function(f"document.querySelector('#turn').dataset.moveNumber !== '{before}'")
            if page.locator("button.tile.playable").count():
                page.locator("button.tile.playable").first.click()  # a tile selected: its legal ends lit
            page.screenshot(path=args.out, full_page=True)  # the layout's height varies with the round
            browser.close()
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
