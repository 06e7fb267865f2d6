"""Chicken Foot (docs/games/chickenfoot.md): its rules class, with the rule
sets ``"trains"`` (a train per seat out of the round's double) and
``"cross"`` (four arms), and everything else particular to it."""

from __future__ import annotations

from typing import Any, Dict, Optional

from ..common.checks import as_int
from ..common.errors import RulesError
from ..common.rules import Rules, choice_option, flag_option, hand_size_option, is_zero

__all__ = ["ChickenFoot", "RULE_SETS"]

#: The rule sets, the default first.
RULE_SETS = ("trains", "cross")
# docs/rules.md 2.6: hand sizes for double-9 by player count.
_TRAINS_HANDS_D9 = {2: 21, 3: 14, 4: 11, 5: 8, 6: 7, 7: 6, 8: 5}


class ChickenFoot(Rules):
    """Chicken Foot, rule set ``"trains"`` (seed 000) or ``"cross"`` (seed 003).

    >>> r = ChickenFoot(players=4)
    >>> r.set, r.hand_size, r.slots, r.reserve, r.drawn_tile
    (9, 11, 4, 1, 'must')
    >>> ChickenFoot(players=3, rule_set="cross").hand_size
    7
    """

    game = "chickenfoot"
    title = "Chicken Foot"
    player_range = (2, 8)
    option_choices = {"rule_set": RULE_SETS}
    openspiel_parameters = {
        "rule_set": "trains",
        "players": 4,
        "set": 9,
        "hand_size": 0,
        "trains": 0,
        "double_blank_50": False,
        "round_index": 0,
        "implementation": "default",
    }
    points_are_costs = True
    branch_word = "toe"
    branch_mark = "(a chicken foot)"

    __slots__ = ()

    def __init__(
        self,
        players: int = 4,
        set: int = 9,
        rule_set: str = "trains",
        hand_size: Optional[int] = None,
        trains: Optional[int] = None,
        double_blank_50: Optional[bool] = None,
        **unknown: Any,
    ) -> None:
        n, p, t = self._set_and_players(set, players, unknown)
        choice_option(rule_set, "rule_set", RULE_SETS)
        if rule_set == "trains":
            most_trains = min(8, n)
            if p > most_trains:
                raise RulesError(
                    f"a double-{n} set is too small for one train per player with {p} players "
                    f"(at most {most_trains} trains)"
                )
            slots = p if trains is None else as_int(trains, "trains", p, most_trains)
            reserve = 2 if p == 2 else 1
            default_hand = _TRAINS_HANDS_D9[p] * (t - 1) // 54
            dealt = t - 1  # the start double is out of the deal
            double_blank_50 = False if double_blank_50 is None else flag_option(double_blank_50, "double_blank_50")
            drawn = "must"
        else:
            if trains is not None:
                raise RulesError("the cross has four arms: the 'trains' option belongs to rule_set='trains'")
            if double_blank_50 is not None and double_blank_50 is not True:
                raise RulesError("the cross always counts the double-blank as 50 (double_blank_50 must be True)")
            double_blank_50 = True
            slots, reserve, default_hand, dealt, drawn = 4, 0, 7, t, "may"
        h = hand_size_option(
            hand_size, default_hand, dealt - reserve, p, f"{p} hands must leave {reserve} tiles in the yard"
        )
        self._freeze(
            rule_set=rule_set,
            set=n,
            players=p,
            hand_size=h,
            slots=slots,
            drawn_tile=drawn,
            reserve=reserve,
            double_blank_50=double_blank_50,
            target=None,
            max_rounds=None,
        )

    # `trains` takes the round's double out before the deal and finds the
    # starter on a shuffle of its own (docs/rules.md 2.6); the cross deals
    # every tile and, when no hand holds the double, draws for it (2.7).
    @property
    def centre_out_of_deal(self) -> bool:  # type: ignore[override]
        return self.rule_set == "trains"

    @property
    def searches_starter(self) -> bool:  # type: ignore[override]
        return self.rule_set == "trains"

    @property
    def searches_yard(self) -> bool:  # type: ignore[override]
        return self.rule_set == "cross"

    @property
    def line_word(self) -> str:  # type: ignore[override]
        return "train" if self.rule_set == "trains" else "arm"

    @classmethod
    def from_openspiel(cls, options: Dict[str, Any]) -> Rules:
        """As ``Rules.from_openspiel``; under ``rule_set="cross"`` the
        double-blank always counts 50 (docs/rules.md 2.7), so
        ``double_blank_50`` is not read there; ``trains=0`` means one train per seat."""
        if not isinstance(options, dict):
            raise TypeError(f"OpenSpiel options must be a dict, got {type(options).__name__}")
        options = dict(options)
        if isinstance(options.get("rule_set"), str) and options["rule_set"] == "cross":
            options["double_blank_50"] = None
        if is_zero(options.get("trains")):
            options["trains"] = None
        return super().from_openspiel(options)

    def to_dict(self) -> Dict[str, Any]:
        d: Dict[str, Any] = {
            "game": self.game,
            "rule_set": self.rule_set,
            "set": self.set,
            "players": self.players,
            "hand_size": self.hand_size,
        }
        if self.rule_set == "trains":
            d["trains"] = self.slots
        d["double_blank_50"] = self.double_blank_50
        return d
