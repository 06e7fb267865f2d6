"""The compiled engine's ``Match``: rounds dealt from one generator, their
totals, the end of the match and its winners (docs/rules.md 2.1, 2.5, 3;
docs/games/block.md B6; docs/games/mexican_train.md M6).

When a match is over, who wins it and who leads the next round are decided
in C++ (``_core._match_over``, ``_match_winners``, ``_next_leader``: the
match code the batch runs), never by the reference, so that the
differential run compares two implementations of them. The rest is the
same contract as ``dominocore.reference.Match``: a finished round is
*settled* (the match keeps its result and its own copy, and hands out
copies), ``play`` runs the built-in bots in C++ and anything else in a
Python loop, and ``to_dict``/``from_dict`` save and restore a match exactly,
the records of either implementation alike (docs/records.md).
"""

from __future__ import annotations

from collections.abc import Sequence as _SequenceABC
from typing import TYPE_CHECKING, Any, Dict, Iterator, List, Optional, Sequence, Tuple, Union, overload

if TYPE_CHECKING:  # typing_extensions is not a runtime dependency
    from typing_extensions import Self

from ..common import policies
from ..common.checks import MAX_SEED, PLAYER_SEED_XOR, Guarded, as_int, check_policies, check_seed, shown
from ..common.errors import IllegalMoveError, StateError
from ..common.results import MATCH_RECORD_VERSION, RoundResult, read_match_record
from ..common.rules import Rules, check_rules
from .codec import _core, core_rules
from .learned import LearnedPlayer, network_for
from .players import GreedyPlayer, SharedRandom
from .round import Round

__all__ = ["Match", "match_winners"]


def match_winners(rules: Rules, results: Sequence[RoundResult]) -> Tuple[int, ...]:
    """The seats that win a match with these round results, the game's rule
    decided in C++ (as ``dominocore.reference.match_winners`` documents):
    the lowest total in Chicken Foot and Mexican Train (then more rounds at
    0, then the lowest non-zero round), the highest in Doubles and Block;
    tied seats share. ``StateError`` unless ``results`` is a list of
    ``RoundResult`` with one score per seat.

    >>> import dominocore as dc
    >>> rules = dc.ChickenFoot(players=2, set=6)
    >>> results = [dc.RoundResult("out", 0, (0, 12), 0, 30), dc.RoundResult("out", 1, (12, 0), 1, 28)]
    >>> dc.match_winners(rules, results), dc.match_winners(dc.Doubles(players=2), results)
    ((0, 1), (0, 1))
    """
    check_rules(rules)
    if isinstance(results, (str, bytes)) or not isinstance(results, _SequenceABC):
        raise StateError(f"results must be a list of RoundResult, got {shown(results)}")
    for k, result in enumerate(results):
        if not isinstance(result, RoundResult):
            raise StateError(f"results[{k}] must be a RoundResult, got {shown(result)}")
        if len(result.points) != rules.players:
            raise StateError(f"results[{k}] has {len(result.points)} points for {rules.players} players")
    return tuple(_core._match_winners(core_rules(rules), list(results)))


class _Rounds(_SequenceABC):
    """``Match.rounds``: a read-only sequence of the rounds dealt, whose
    settled rounds are fresh copies at every read."""

    __slots__ = ("_rounds", "_settled")

    def __init__(self, rounds: Tuple[Round, ...], settled: int) -> None:
        self._rounds, self._settled = rounds, settled

    def __len__(self) -> int:
        return len(self._rounds)

    @overload
    def __getitem__(self, index: int) -> Round: ...
    @overload
    def __getitem__(self, index: slice) -> List[Round]: ...
    def __getitem__(self, index: Union[int, slice]) -> Union[Round, List[Round]]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self._rounds)))]
        k = range(len(self._rounds))[index]  # IndexError, TypeError as a list's
        return self._rounds[k].clone() if k < self._settled else self._rounds[k]

    def __iter__(self) -> Iterator[Round]:
        return (self[k] for k in range(len(self._rounds)))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (_Rounds, list, tuple)):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(list(self))


class Match(Guarded):
    """A whole match dealt by the compiled core, seeded with ``seed``; the API
    of ``dominocore.reference.Match``.

    >>> import dominocore as dc
    >>> m = dc.Match(dc.Doubles(players=2, target=60), seed=3).play("random", rounds=1)
    >>> dc.reference.Match.from_dict(m.to_dict()).play("random").totals == m.play("random").totals
    True
    """

    def __init__(self, rules: Rules, seed: int = 0) -> None:
        check_rules(rules)
        self._rules = rules
        self._seed = check_seed(seed)
        self._deck = _core.SplitMix64(self._seed)  # deals every round in turn
        self._bot_state = self._seed ^ PLAYER_SEED_XOR  # the random seats' shared generator
        self._rounds: List[Round] = []  # every round dealt; all but perhaps the last settled
        self._results: List[RoundResult] = []
        self._handed_out = False  # whether the round in play was given to the caller
        self._winners: Optional[Tuple[int, ...]] = None  # set when the match ends

    # ------------------------------------------------------------ settling

    def _settle(self) -> None:
        """Keep the last round's result once it is over (and the match's own
        copy of it, if the caller holds the original); end the match when
        the core says so."""
        if len(self._results) == len(self._rounds) or not self._rounds[-1].is_over:
            return
        if self._handed_out:
            self._rounds[-1] = self._rounds[-1].clone()
            self._handed_out = False
        result = self._rounds[-1].result
        assert result is not None
        self._results.append(result)
        rules = core_rules(self._rules)
        if _core._match_over(rules, self._results):
            self._winners = tuple(_core._match_winners(rules, self._results))

    @property
    def rules(self) -> Rules:
        """The rules of every round."""
        return self._rules

    @property
    def seed(self) -> int:
        """The match seed."""
        return self._seed

    @property
    def rounds(self) -> Sequence[Round]:
        """Every round dealt so far, in order (``dominocore.reference.Match.rounds``)."""
        self._settle()
        if len(self._results) < len(self._rounds):
            self._handed_out = True
        return _Rounds(tuple(self._rounds), len(self._results))

    @property
    def round(self) -> Optional[Round]:
        """The round dealt last (a copy once it is over), or ``None`` before the first."""
        self._settle()
        if not self._rounds:
            return None
        if len(self._results) == len(self._rounds):
            return self._rounds[-1].clone()
        self._handed_out = True
        return self._rounds[-1]

    @property
    def results(self) -> List[RoundResult]:
        """The results of the finished rounds."""
        self._settle()
        return list(self._results)

    @property
    def totals(self) -> Tuple[int, ...]:
        """Each seat's total over the finished rounds."""
        self._settle()
        return tuple(sum(r.points[s] for r in self._results) for s in range(self._rules.players))

    @property
    def is_over(self) -> bool:
        """Whether the match has ended (``dominocore.reference.Match.is_over``)."""
        self._settle()
        return self._winners is not None

    @property
    def winners(self) -> Tuple[int, ...]:
        """The winning seats (several on a shared win); empty until the match is over."""
        self._settle()
        return self._winners or ()

    # ------------------------------------------------------------ dealing and playing

    def new_round(self) -> Round:
        """Deal the next round and return it; the previous one must be over.
        A finished match refuses (``IllegalMoveError``, reason ``match_over``)."""
        self._settle()
        if self._winners is not None:
            n, won = len(self._rounds), self._winners
            raise IllegalMoveError(
                "match_over",
                f"the match is over after {n} round{'s' * (n != 1)} (won by seat{'s' * (len(won) != 1)} "
                f"{', '.join(map(str, won))}): it deals no more rounds",
            )
        if len(self._results) < len(self._rounds):
            raise IllegalMoveError("round_in_play", "the current round must end before the next is dealt")
        dealt = self._deal()
        self._handed_out = True
        return dealt

    def _deal(self) -> Round:
        """The next round from the match generator, kept (unchecked)."""
        index = len(self._rounds)
        leader = -1
        if self._results:  # Block: the seat the last round says leads (-1: the game decides)
            last_placer = self._rounds[-1]._s._last_placer  # a blocked round's blocker
            leader = _core._next_leader(core_rules(self._rules), self._results[-1], index - 1, last_placer)
        # The games that score during play: the round knows the match totals
        # before it (docs/games/all_fives.md F8).
        carried = list(self.totals) if self._rules.scores_in_play else []
        state = _core.RoundCore(core_rules(self._rules), self._deck, index, leader, carried=carried)
        dealt = Round._wrap(self._rules, state)
        self._rounds.append(dealt)
        self._handed_out = False
        return dealt

    def play(
        self, policy: Any = "random", rounds: Optional[int] = None, policy_options: Optional[Dict[str, Any]] = None
    ) -> Self:
        """Play on and return ``self``: to the end of the match, or ``rounds``
        rounds at most (``dominocore.reference.Match.play`` documents the
        policies). Built-in bots play whole rounds in C++."""
        if policies.is_plain_policy(policy, policy_options):
            names = check_policies(policy, self._rules.players)
            if "learned" in names:  # before any deal: a missing network changes nothing
                network_for(self._rules)
            bots: Any = _core.Bots(names, len(names), 0)
        else:
            entries = policies.resolve_players(policy, self._rules.players, policy_options)
            if "learned" in entries:
                network_for(self._rules)
            bots = policies.MixedBots(entries, SharedRandom(self._bot_state), GreedyPlayer(), LearnedPlayer())
        limit = None if rounds is None else as_int(rounds, "rounds", 0, MAX_SEED)
        played = 0
        while not self.is_over and (limit is None or played < limit):
            in_play = self._rounds[-1] if len(self._results) < len(self._rounds) else self._deal()
            if isinstance(bots, policies.MixedBots):
                try:
                    bots.play_out(in_play)  # a Python loop: some seat is not a built-in bot
                finally:  # the draws made count, even if the play-out was interrupted
                    self._bot_state = bots.state()
            else:
                bots._state = self._bot_state
                try:
                    in_play._s._playout(bots)  # the whole round in C++
                finally:
                    self._bot_state = int(bots._state)
            played += 1
        return self

    # ------------------------------------------------------------ saving

    def to_dict(self) -> Dict[str, Any]:
        """The match as plain JSON-able data (format version 1, docs/records.md)."""
        self._settle()
        return {
            "version": MATCH_RECORD_VERSION,
            "rules": self._rules.to_dict(),
            "seed": self._seed,
            "generator": self._deck.state,
            "bot_generator": self._bot_state,
            "rounds": [r.to_dict() for r in self._rounds],
        }

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> Self:
        """Rebuild a match from ``to_dict()`` output of either implementation,
        checking every part (``StateError``): each round's record, that the
        seed deals exactly these rounds, that only the last may be unfinished
        and that none follows the end, and the generator states."""
        rules, seed, generator, bot_state, records = read_match_record(data)
        match = cls(rules, seed)
        for k, record in enumerate(records):
            if match._winners is not None:
                raise StateError(f"the match record has a round {k}, but the match was over after round {k - 1}")
            try:
                saved = Round.from_dict(record)
            except StateError as exc:
                raise StateError(f"round {k} of the match record: {exc}") from None
            if saved.rules != rules:
                raise StateError(f"round {k} of the match record has rules {saved.rules!r}, the match {rules!r}")
            if saved.round_index != k:
                raise StateError(f"round {k} of the match record has round_index {saved.round_index}")
            if match._deal()._deal_dict() != saved._deal_dict():
                raise StateError(f"round {k} of the match record is not the deal the match seed {seed} deals")
            match._rounds[-1] = saved
            match._settle()
            if saved.result is None and k < len(records) - 1:
                raise StateError(f"round {k} of the match record is not over, but round {k + 1} follows it")
        if match._deck.state != generator:
            raise StateError(
                f"the match record's generator state {generator:#x} is not the one its seed and "
                f"{len(records)} rounds leave ({match._deck.state:#x})"
            )
        match._bot_state = bot_state
        return match

    def __repr__(self) -> str:
        return f"<Match {self._rules!r} seed={self._seed}, {len(self._rounds)} rounds, totals {self.totals}>"
