"""Mexican Train (docs/games/mexican_train.md): its rules class and
everything else particular to it."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from ..common.checks import as_int
from ..common.rules import Rules, choice_option, flag_option, hand_size_option
from ..common.tiles import Tile

__all__ = ["MexicanTrain"]

#: What a seat may do with a drawn tile that fits (M4), the default first.
DRAWN_TILE = ("must", "may")
# docs/games/mexican_train.md M1: hand sizes for double-12 by player count.
_MEXICAN_HANDS_D12 = {2: 15, 3: 15, 4: 15, 5: 12, 6: 12, 7: 10, 8: 10}


class MexicanTrain(Rules):
    """Mexican Train (docs/games/mexican_train.md): a train per seat plus the
    public Mexican train, all from the round's engine double in the hub;
    markers, doubles that must be satisfied, N+1 rounds, lowest total wins.

    >>> r = MexicanTrain(players=4)
    >>> r.set, r.hand_size, r.slots, r.reserve, r.drawn_tile, r.num_actions
    (12, 15, 5, 0, 'must', 457)
    """

    game = "mexican_train"
    title = "Mexican Train"
    player_range = (2, 8)
    openspiel_parameters = {
        "players": 4,
        "set": 12,
        "hand_size": 0,
        "drawn_tile": "must",
        "double_blank_50": False,
        "round_index": 0,
        "implementation": "default",
    }
    option_choices = {"drawn_tile": DRAWN_TILE}
    points_are_costs = True
    has_seat_trains = True
    centre_out_of_deal = True
    layout = "hub"
    centre_word = "engine"

    __slots__ = ()

    def __init__(
        self,
        players: int = 4,
        set: int = 12,
        hand_size: Optional[int] = None,
        drawn_tile: str = "must",
        double_blank_50: bool = False,
        **unknown: Any,
    ) -> None:
        n, p, t = self._set_and_players(set, players, unknown)
        default = max(1, _MEXICAN_HANDS_D12[p] * (t - 1) // 90)
        h = hand_size_option(
            hand_size, default, t - 1, p, f"{p} hands of it exceed the {t - 1} tiles left once the engine is out"
        )
        self._freeze(
            set=n,
            players=p,
            hand_size=h,
            slots=p + 1,  # one hub end per train: the seats' trains, then the Mexican train
            drawn_tile=choice_option(drawn_tile, "drawn_tile", DRAWN_TILE),
            reserve=0,
            double_blank_50=flag_option(double_blank_50, "double_blank_50"),
            target=None,
            max_rounds=None,
        )

    @property
    def num_actions(self) -> int:
        """``T*(p+1) + 2``: tile x train, then Draw and Pass (docs/games/mexican_train.md M7)."""
        return self.tile_count * (self.players + 1) + 2

    def describe_action(self, action: int) -> str:
        """What an action id stands for: a tile on a train, ``draw`` or ``pass`` (M7)."""
        action = as_int(action, "action", 0, self.num_actions - 1)
        t, trains = self.tile_count, self.players + 1
        if action == t * trains:
            return "draw"
        if action == t * trains + 1:
            return "pass"
        tile, train = divmod(action, trains)
        name = "the Mexican train" if train == self.players else f"train {train}"
        return f"{Tile.from_index(tile)} on {name}"

    def observation_extra_planes(self) -> List[Tuple[str, Tuple[int, ...]]]:
        """``train_ends``: each train's open end by number, or none (docs/information.md 3)."""
        return [("train_ends", (self.players + 1, self.set + 2))]

    def to_dict(self) -> Dict[str, Any]:
        return {
            "game": self.game,
            "set": self.set,
            "players": self.players,
            "hand_size": self.hand_size,
            "drawn_tile": self.drawn_tile,
            "double_blank_50": self.double_blank_50,
        }
