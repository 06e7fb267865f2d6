"""A match: its rounds dealt from one generator, totals, the end and the winners.

When a match ends, who wins it and who leads each round are the game's
hooks (``match_over``, ``match_winners``, ``next_leader``).
"""

from __future__ import annotations

from typing import Any, List, Optional, Sequence, Tuple, Union

from ..common.checks import Guarded, check_seed
from ..common.errors import IllegalMoveError
from ..common.rules import Rules, check_rules
from .games import game_of
from .players import players_for
from .rng import SplitMix64
from .round import Round, RoundResult

__all__ = ["Match", "match_winners"]


def match_winners(rules: Rules, results: Sequence[RoundResult]) -> Tuple[int, ...]:
    """The seats that win a finished match with these round results: the
    game's ``match_winners`` hook.

    Chicken Foot and Mexican Train (docs/rules.md 2.5): lowest total, then
    more rounds scored at 0, then the lowest single non-zero round score;
    seats still tied share. Doubles and Block: the highest total (the seat
    that reached the target, or after ``max_rounds`` rounds every seat with
    the highest total).
    """
    return game_of(rules).match_winners(rules, results)


class Match(Guarded):
    """A whole match, dealt from one generator seeded with ``seed``.

    >>> from dominocore.reference import Doubles, Match
    >>> m = Match(Doubles(players=2, target=20), seed=3).play("greedy")
    >>> m.is_over, max(m.totals) >= 20, len(m.winners)
    (True, True, 1)
    """

    # The implementation behind the match: the compiled one swaps these two.
    _round_type: Any = Round
    _rng_type: Any = SplitMix64

    def __init__(self, rules: Rules, seed: int = 0) -> None:
        check_rules(rules)
        self._seed = check_seed(seed)
        self._rng = self._rng_type(self._seed)
        self._rounds: List[Round] = []
        # Totals of every round but the last, kept as rounds are dealt: the
        # accounting costs O(1) a round, however long the match.
        self._banked = [0] * rules.players
        self._rules = rules

    @property
    def rules(self) -> Rules:
        """The rules of every round."""
        return self._rules

    @property
    def seed(self) -> int:
        """The match seed."""
        return self._seed

    @property
    def rounds(self) -> List[Round]:
        """Every round dealt so far (the last may still be in play)."""
        return list(self._rounds)

    @property
    def round(self) -> Optional[Round]:
        """The round dealt last, or ``None`` before the first."""
        return self._rounds[-1] if self._rounds else None

    @property
    def results(self) -> List[RoundResult]:
        """The results of the finished rounds."""
        return [r.result for r in self._rounds if r.result is not None]

    @property
    def totals(self) -> Tuple[int, ...]:
        """Each seat's total over the finished rounds."""
        last = self._rounds[-1].result if self._rounds else None
        if last is None:
            return tuple(self._banked)
        return tuple(b + x for b, x in zip(self._banked, last.points))

    @property
    def is_over(self) -> bool:
        """Whether the match has ended: N+1 rounds in Chicken Foot and Mexican
        Train; in Doubles and Block a total at the target, or ``max_rounds``
        rounds played."""
        if not self._rounds or not self._rounds[-1].is_over:
            return False
        return game_of(self._rules).match_over(self._rules, self.totals, len(self._rounds))

    @property
    def winners(self) -> Tuple[int, ...]:
        """The winning seats (several on a shared win); empty until the match is over."""
        return match_winners(self._rules, self.results) if self.is_over else ()

    def new_round(self) -> Round:
        """Deal the next round (led, in Block, by the last round's winner);
        the previous one must be over."""
        if self.is_over:
            raise IllegalMoveError("match_over", "the match is over: no more rounds")
        if self._rounds and not self._rounds[-1].is_over:
            raise IllegalMoveError("round_in_play", "the current round must end before the next is dealt")
        # Block: the seat to lead comes from the round before (None: the game decides).
        leader = game_of(self._rules).next_leader(self._rules, self._rounds[-1].result) if self._rounds else None
        round_ = self._round_type._from_generator(self._rules, self._rng, len(self._rounds), leader)
        self._banked = list(self.totals)
        self._rounds.append(round_)
        return round_

    def play(self, policy: Union[str, Sequence[str]] = "random") -> "Match":
        """Play the rest of the match with the bots of docs/rules.md 1.6 and return ``self``.

        ``policy`` is ``"random"``, ``"greedy"`` or one of these per seat; the
        random seats share a generator seeded from the match seed.
        """
        bots = self._bots(policy)
        while not self.is_over:
            round_ = self._rounds[-1] if self._rounds and not self._rounds[-1].is_over else self.new_round()
            self._play_out(round_, bots)
        return self

    # The two steps of play() that the compiled implementation runs in C++.
    def _bots(self, policy: Union[str, Sequence[str]]) -> Any:
        return players_for(policy, self._rules.players, self._seed)

    @staticmethod
    def _play_out(round_: Any, bots: Any) -> None:
        while not round_.is_over:
            round_.push(bots[round_.current_player].choose(round_))

    def __repr__(self) -> str:
        return f"<Match {self._rules!r} seed={self._seed}, {len(self._rounds)} rounds, totals {self.totals}>"
