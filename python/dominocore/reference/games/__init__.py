"""The games of the reference, one module of hooks each, and their registry.

The engine (``reference/round.py`` and ``reference/match.py``) never asks
which game is running: it calls the hooks of the module ``GAMES[rules.game]``.
Every module defines the same names (docs/adding-a-game.md):

``set_up(rules, rng, round_index, leader) -> Deal``
    Shuffle with the round's generator and deal: the tile the set-up places
    (``centre``, or ``None``), the starter, the hands and the yard. ``leader``
    is the seat a match chose to lead (Block), or ``None``.
``check_deal(rules, centre, round_index)``
    Raise ``StateError`` for a centre a hand-built deal may not have.
``place_centre(round, centre, starter)``
    Lay out a dealt round: the centre/hub/lead ends, its layout entry, any
    obligation they open, who moves first. Both ``set_up``'s deals and
    hand-built ones (``Round.from_deal``) go through it.
``next_leader(rules, previous_result, last_mover)``
    The ``leader`` a match passes to the next round's ``set_up``, or ``None``.
    ``last_mover`` is the seat that made the finished round's last move (with
    no move: its starter if the set-up placed a tile for it, else -1); Block's
    ``lead="puerto_rico"`` asks it for the blocker (docs/games/partnership.md
    P4), the other games and leads ignore it.
``double_opens(round, tile, number, train) -> end ids``
    What a double placed on an open end of ``number`` creates (toes,
    spinner sides, one end, an unsatisfied double), and any obligation or unlock.
``may_attach(round, seat, tile, end) -> reason code or None``
    Whether ``seat`` may put ``tile`` on the open end ``end`` (one the
    obligation allows): ``None``, or the first reason code that refuses it
    (``not_your_train``, ``no_match``, ``locked``), in docs/engine.md order.
    ``seat=None`` asks for any seat (the blocked test).
``after_place(round, mover, tile, train)`` and ``after_pass(round, mover)``
    What follows a placement or a pass: the next seat, an extra turn, markers.
``score_round(round, reason, out_seat) -> points``
    Each seat's points when the round ends.
``match_over(rules, totals, rounds_played)`` and ``match_winners(rules, results)``
    When a match ends and which seats win it.
``action_of(round, move)``, ``action_move(round, action)``
    The game's fixed action space (its size is ``rules.num_actions``): a
    legal placement's id, and the legal placement a Place id stands for
    (``None`` if none). The engine gives ``Draw`` and ``Pass`` the last two
    ids. The distinct listing keeps the first move in canonical order of each id.
``write_extra_planes(round, seat, take)``
    The game's own observation planes (``rules.observation_extra_planes()``)
    as ``seat`` observes them (Block's ``teammates``: its team), written into
    the slices ``take(size)`` hands out.
``score_placement(round, mover, tile) -> points``
    What the placement just made scores during play, read from the layout
    after it (docs/games/all_fives.md F5); the engine gives the points to the
    mover's side. 0 in the games that score only at the end.
``move_points(rules, layout, ends, move) -> points``
    What ``move`` would score now, from a layout (``Placement``s) and its
    open ends (id -> number), those of a round or of a ``PlayerView``: the
    greedy policy's first key (all_fives.md F13). 0 where nothing scores in play.

The hooks change the round only through its small engine API for games
(``_open``, ``_open_more``, ``_set_arms``, ``_oblige``, ``_mark``,
``_lay_setup_tile``, ``_turn_to``, ``_unlock``, ``_keep_out_of_play``); they
read its state attributes.
"""

from __future__ import annotations

from types import ModuleType
from typing import Dict

from . import all_fives, block, chickenfoot, doubles, fives_and_threes, mexican_train

__all__ = ["GAMES", "game_of"]

#: The hooks of every game, by game id.
GAMES: Dict[str, ModuleType] = {
    "chickenfoot": chickenfoot,
    "doubles": doubles,
    "block": block,
    "mexican_train": mexican_train,
    "all_fives": all_fives,
    "fives_and_threes": fives_and_threes,
}


def game_of(rules) -> ModuleType:
    """The module of hooks of the game ``rules`` describe."""
    return GAMES[rules.game]
