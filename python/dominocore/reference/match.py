"""A match: its rounds dealt from one generator, totals, the end and the winners.

When a match ends, who wins it and who leads each round are the game's
hooks (``match_over``, ``match_winners``, ``next_leader``).

A match **settles** a round once it sees it over (any property or method of
the match looks): it keeps the round's result and its own copy of the round.
From then on nothing done to a ``Round`` object changes the match: ``rounds``
and ``round`` hand out fresh copies of settled rounds, so popping a move of a
finished round (or of a finished match's last round) changes the copy only.
A finished match stays finished and refuses ``new_round``.

``to_dict``/``from_dict`` save and restore a match exactly (docs/records.md):
its rounds (the one in play included, as ``Round.to_dict`` records), the
state of the generator that deals them and the state of the generator its
random seats share, so a restored match deals and plays on exactly as the
original would have.
"""

from __future__ import annotations

from collections.abc import Sequence as _SequenceABC
from typing import TYPE_CHECKING, Any, Dict, Iterator, List, Optional, Sequence, Tuple, Union, overload

if TYPE_CHECKING:  # typing_extensions is not a runtime dependency
    from typing_extensions import Self

from ..common.checks import MAX_SEED, Guarded, as_int, check_policies, check_seed, shown
from ..common.errors import IllegalMoveError, StateError
from ..common.policies import MixedBots, is_plain_policy, resolve_players
from ..common.results import MATCH_RECORD_VERSION, RoundResult, read_match_record
from ..common.rules import Rules, check_rules
from .games import game_of
from .learned import network_for
from .players import GreedyPlayer, LearnedPlayer, SharedRandom
from .rng import PLAYER_SEED_XOR, SplitMix64
from .round import Round

__all__ = ["Match", "match_winners", "MATCH_RECORD_VERSION"]


def match_winners(rules: Rules, results: Sequence[RoundResult]) -> Tuple[int, ...]:
    """The seats that win a finished match with these round results: the
    game's ``match_winners`` hook.

    Chicken Foot and Mexican Train (docs/rules.md 2.5): lowest total, then
    more rounds scored at 0, then the lowest single non-zero round score;
    seats still tied share. Doubles and Block: the highest total (the seat
    that reached the target, or after ``max_rounds`` rounds every seat with
    the highest total). ``results`` holds one ``RoundResult`` per round
    (``StateError`` for anything else).

    >>> import dominocore as dc
    >>> rules = dc.ChickenFoot(players=2, set=6)
    >>> results = [dc.RoundResult("out", 0, (0, 12), 0, 30), dc.RoundResult("out", 1, (12, 0), 1, 28)]
    >>> dc.match_winners(rules, results)  # 12 each and one round at 0 each: both
    (0, 1)
    >>> dc.match_winners(dc.Doubles(players=2), results)  # the highest total: shared too
    (0, 1)
    """
    check_rules(rules)
    if isinstance(results, (str, bytes)) or not isinstance(results, _SequenceABC):
        raise StateError(f"results must be a list of RoundResult, got {shown(results)}")
    for k, result in enumerate(results):
        if not isinstance(result, RoundResult):
            raise StateError(f"results[{k}] must be a RoundResult, got {shown(result)}")
        if len(result.points) != rules.players:
            raise StateError(f"results[{k}] has {len(result.points)} points for {rules.players} players")
    return game_of(rules).match_winners(rules, list(results))


def _last_mover(round_: Round) -> int:
    """The seat that made the last move of ``round_`` (after a block in
    Block, the blocker: the seat of the last placement); with no move, the
    starter if the set-up placed a tile for it (its turn, B2), else -1."""
    history = round_._history()
    if history:
        return history[-1][0]
    return round_.starter if round_.centre is not None else -1


class _Rounds(_SequenceABC):
    """The rounds of a match as ``Match.rounds`` returns them: reading a
    settled (finished) round gives a fresh copy of it each time; the round in
    play is the match's own."""

    __slots__ = ("_rounds", "_settled")

    def __init__(self, rounds: Tuple[Any, ...], settled: int) -> None:
        self._rounds = rounds
        self._settled = settled

    def __len__(self) -> int:
        return len(self._rounds)

    @overload
    def __getitem__(self, index: int) -> Any: ...

    @overload
    def __getitem__(self, index: slice) -> List[Any]: ...

    def __getitem__(self, index: Union[int, slice]) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self._rounds)))]
        round_ = self._rounds[index]  # IndexError, TypeError as a list's
        position = index if index >= 0 else index + len(self._rounds)
        return round_.clone() if position < self._settled else round_

    def __iter__(self) -> Iterator[Any]:
        for i in range(len(self._rounds)):
            yield self[i]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (_Rounds, list, tuple)):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(list(self))


class Match(Guarded):
    """A whole match, dealt from one generator seeded with ``seed``.

    Finished rounds are settled: the match keeps their results and its own
    copies, so ``rounds`` and ``round`` return copies of them (see the module
    docstring). ``to_dict``/``from_dict`` save and restore it exactly.

    >>> from dominocore.reference import Doubles, Match
    >>> m = Match(Doubles(players=2, target=20), seed=3).play("greedy")
    >>> m.is_over, max(m.totals) >= 20, len(m.winners)
    (True, True, 1)
    >>> half = Match(Doubles(players=2, target=60), seed=3).play("random", rounds=1)
    >>> saved = half.to_dict()                      # plain JSON-able data
    >>> Match.from_dict(saved).play("random").totals == half.play("random").totals
    True
    """

    # The implementation behind the match: the compiled one swaps these two.
    _round_type: Any = Round
    _rng_type: Any = SplitMix64

    def __init__(self, rules: Rules, seed: int = 0) -> None:
        check_rules(rules)
        self._seed = check_seed(seed)
        self._rng = self._rng_type(self._seed)
        # Every round dealt; the settled ones (all but perhaps the last) are
        # the match's own copies, never handed out.
        self._rounds: List[Any] = []
        # Whether the round in play was handed out (new_round, round, rounds):
        # settling it then keeps a copy, detached from the caller's object.
        self._shared = False
        # The results of the settled rounds and their running totals (O(1) a round).
        self._results: List[RoundResult] = []
        self._totals: Tuple[int, ...] = (0,) * rules.players
        self._over = False
        self._winners: Tuple[int, ...] = ()
        # The state of the generator the random seats share (docs/engine.md 12).
        self._bot_state = self._seed ^ PLAYER_SEED_XOR
        self._rules = rules

    def _settle(self) -> None:
        """Keep the result of the last round if it is over and not yet kept,
        with a copy of it, so that nothing done to the caller's object changes
        the match; decide whether the match is over."""
        if len(self._results) == len(self._rounds):
            return
        last = self._rounds[-1]
        result = last.result
        if result is None:
            return
        if self._shared:
            self._rounds[-1] = last.clone()
            self._shared = False
        self._results.append(result)
        self._totals = tuple(t + x for t, x in zip(self._totals, result.points))
        rules = self._rules
        # A round stopped at the target (all_fives.md F8) ends the match.
        stopped = result.reason == "target"
        if stopped or game_of(rules).match_over(rules, self._totals, len(self._rounds)):
            self._over = True
            self._winners = match_winners(rules, self._results)

    @property
    def rules(self) -> Rules:
        """The rules of every round."""
        return self._rules

    @property
    def seed(self) -> int:
        """The match seed."""
        return self._seed

    @property
    def rounds(self) -> Sequence[Any]:
        """Every round dealt so far, in order: a read-only sequence whose
        finished rounds are fresh copies each time they are read (popping a
        move of one changes the copy, not the match); the last round, while
        in play, is the match's own."""
        self._settle()
        self._shared = self._shared or len(self._results) < len(self._rounds)
        return _Rounds(tuple(self._rounds), len(self._results))

    @property
    def round(self) -> Optional[Any]:
        """The round dealt last (a copy once it is over), or ``None`` before the first."""
        self._settle()
        if not self._rounds:
            return None
        last = self._rounds[-1]
        if len(self._results) == len(self._rounds):
            return last.clone()
        self._shared = True
        return last

    @property
    def results(self) -> List[RoundResult]:
        """The results of the finished rounds."""
        self._settle()
        return list(self._results)

    @property
    def totals(self) -> Tuple[int, ...]:
        """Each seat's total over the finished rounds."""
        self._settle()
        return self._totals

    @property
    def is_over(self) -> bool:
        """Whether the match has ended: N+1 rounds in Chicken Foot and Mexican
        Train; in Doubles and Block a total at the target, or ``max_rounds``
        rounds played. Once true it stays true."""
        self._settle()
        return self._over

    @property
    def winners(self) -> Tuple[int, ...]:
        """The winning seats (several on a shared win); empty until the match is over."""
        self._settle()
        return self._winners

    def new_round(self) -> Any:
        """Deal the next round (led, in Block, by the last round's winner) and
        return it; the previous one must be over. A finished match refuses
        (``IllegalMoveError``, reason ``match_over``)."""
        self._settle()
        if self._over:
            n, won = len(self._rounds), self._winners
            raise IllegalMoveError(
                "match_over",
                f"the match is over after {n} round{'s' * (n != 1)} (won by seat{'s' * (len(won) != 1)} "
                f"{', '.join(map(str, won))}): it deals no more rounds",
            )
        if len(self._results) < len(self._rounds):
            raise IllegalMoveError("round_in_play", "the current round must end before the next is dealt")
        round_ = self._deal()
        self._shared = True
        return round_

    def _deal(self) -> Any:
        """Deal the next round from the match generator and keep it (unchecked)."""
        rules = self._rules
        # Block and the games that score in play: the seat to lead comes from
        # the round before (None: the game decides), and who made its last
        # move (partnership P4: the blocker).
        leader = None
        if self._results:
            leader = game_of(rules).next_leader(rules, self._results[-1], _last_mover(self._rounds[-1]))
        # The games that score during play: the match totals before the round
        # (docs/games/all_fives.md F8).
        carried = self._totals if rules.scores_in_play else None
        round_ = self._round_type._from_generator(rules, self._rng, len(self._rounds), leader, carried)
        self._rounds.append(round_)
        self._shared = False
        return round_

    def play(
        self, policy: Any = "random", rounds: Optional[int] = None, policy_options: Optional[Dict[str, Any]] = None
    ) -> Self:
        """Play on with the bots of docs/rules.md 1.6 and return ``self``: to
        the end of the match, or ``rounds`` rounds at most (finishing the
        round in play counts as one).

        ``policy`` is ``"random"``, ``"greedy"``, ``"learned"`` (docs/learning.md)
        or one of these per seat. The
        random seats share the match's random-play generator, seeded from the
        match seed (docs/engine.md 12): it carries on from call to call and
        is saved by ``to_dict``. Beyond these, a seat's policy may be a search
        bot's name ("ismcts", "pimc", "cheat", options in
        ``policy_options={"ismcts": {...}}``), a bot object with
        ``choose(round)`` or a callable of a ``PlayerView`` returning a move or
        an action id (docs/search.md 5).
        """
        if is_plain_policy(policy, policy_options):
            bots = self._bots(policy)
        else:
            entries = resolve_players(policy, self._rules.players, policy_options)
            bots = self._mixed_bots(entries)
        limit = None if rounds is None else as_int(rounds, "rounds", 0, MAX_SEED)
        played = 0
        while not self.is_over and (limit is None or played < limit):
            round_ = self._rounds[-1] if len(self._results) < len(self._rounds) else self._deal()
            try:
                self._play_out(round_, bots)
            finally:  # the draws made count, even if the play-out was interrupted
                self._bot_state = self._bot_state_of(bots)
            played += 1
        return self

    # The steps of play() that the compiled implementation runs in its core.
    def _bots(self, policy: Union[str, Sequence[str]]) -> Any:
        """The players of a plain policy ("random", "greedy", "learned" per seat)."""
        return self._mixed_bots(check_policies(policy, self._rules.players))

    def _mixed_bots(self, entries: List[Any]) -> MixedBots:
        """One player per seat, the random seats' shared one at the match's
        generator state, for a Python play loop."""
        if "learned" in entries:  # before any deal: a missing network changes nothing
            network_for(self._rules)
        return MixedBots(entries, SharedRandom(self._bot_state), GreedyPlayer(), LearnedPlayer())

    @staticmethod
    def _bot_state_of(bots: Any) -> int:
        """The state of the random seats' generator after playing with ``bots``."""
        return int(bots.state())

    @staticmethod
    def _play_out(round_: Any, bots: Any) -> None:
        bots.play_out(round_)

    # ------------------------------------------------------------ saving

    def to_dict(self) -> Dict[str, Any]:
        """The match as plain JSON-able data (format version 1, docs/records.md):
        its rules, seed, every round dealt (``Round.to_dict``, the one in play
        included) and the states of its two generators."""
        self._settle()
        return {
            "version": MATCH_RECORD_VERSION,
            "rules": self._rules.to_dict(),
            "seed": self._seed,
            "generator": self._rng.state,
            "bot_generator": self._bot_state,
            "rounds": [r.to_dict() for r in self._rounds],
        }

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> Self:
        """Rebuild a match from ``to_dict()`` output (of either implementation),
        validating every part (``StateError``): each round's record, that the
        match seed deals exactly these rounds, that every round but the last
        is over and the match was not over before it, and the generator state.
        The rebuilt match deals and plays on exactly as the saved one."""
        rules, seed, generator, bot_state, records = read_match_record(data)
        self = cls(rules, seed)
        for k, record in enumerate(records):
            if self._over:
                raise StateError(f"the match record has a round {k}, but the match was over after round {k - 1}")
            try:
                round_ = cls._round_type.from_dict(record)
            except StateError as exc:
                raise StateError(f"round {k} of the match record: {exc}") from None
            if round_.rules != rules:
                raise StateError(f"round {k} of the match record has rules {round_.rules!r}, the match {rules!r}")
            if round_.round_index != k:
                raise StateError(f"round {k} of the match record has round_index {round_.round_index}")
            dealt = self._deal()
            if dealt._deal_dict() != round_._deal_dict():
                raise StateError(f"round {k} of the match record is not the deal the match seed {seed} deals")
            self._rounds[-1] = round_
            self._settle()
            if round_.result is None and k < len(records) - 1:
                raise StateError(f"round {k} of the match record is not over, but round {k + 1} follows it")
        if self._rng.state != generator:
            raise StateError(
                f"the match record's generator state {generator:#x} is not the one its seed and "
                f"{len(records)} rounds leave ({self._rng.state:#x})"
            )
        self._bot_state = bot_state
        return self

    def __repr__(self) -> str:
        return f"<Match {self._rules!r} seed={self._seed}, {len(self._rounds)} rounds, totals {self.totals}>"
