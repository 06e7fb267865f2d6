"""The compiled engine's ``Round``, and the determinizer that samples its worlds.

The round state, its moves and its tensors live in C++ (``_core.RoundCore``,
held as ``_s``); this class converts between the core's integers and the
shared value types of ``dominocore.common``. The step interface
(``legal_actions``, ``apply_action``, ``legal_action_mask``) is the core's
own and builds no Python object per move.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
from numpy.typing import NDArray

from ..common import messages
from ..common.checks import (
    MAX_SEED,
    Guarded,
    action_key,
    check_player,
    check_round_index,
    check_seat,
    check_seed,
    shown,
)
from ..common.errors import DominoError, IllegalMoveError, RulesError, StateError
from ..common.inference import WeightedOptions, check_candidates, check_model, core_arguments
from ..common.moves import MAX_END_ID, End, Move, MoveLike, Placement, as_move
from ..common.results import RoundResult
from ..common.rules import Rules, check_rules
from ..common.tiles import Tile
from ..common.view import PlayerView
from .codec import (
    OBLIGATIONS,
    STEP_METHODS,
    TILES,
    SplitMix64,
    _core,
    core_attribute,
    core_rules,
    decode,
    encode,
    end_number,
    illegal_move,
    tensor_shapes,
)
from .network_registry import register_shipped
from .round_base import RoundBase

__all__ = ["Determinizer", "Round", "checked_round"]


class Round(RoundBase):
    """The state of one round (compiled core); the same API as
    ``dominocore.reference.Round``.

    It holds the core's state (``_s``, a ``_core.RoundCore``) and its rules
    object, and converts between the core's integers and the shared value
    types. The step interface is the core's own, with no Python frame per
    call, and checks its arguments in C++:

    - ``legal_actions()``: the legal action ids, ascending;
    - ``apply_action(action, player=None)``: play the move a legal action id
      stands for (for ``player`` if named: refused unless it is that seat's
      turn, as ``push``);
    - ``legal_action_mask(out=None)``: a numpy bool array of ``num_actions``
      entries, True at the legal ids (``out``, if given, is filled in place).

    So are the simple properties (``current_player``, ``is_over``,
    ``starter``, ``round_index``, ``yard_size``, ``num_actions``,
    ``pending_ends``). Every method of an object whose ``__init__`` never ran
    raises ``TypeError``.

    >>> import dominocore as dc
    >>> r = dc.Round(dc.ChickenFoot(players=4), seed=7)
    >>> r.centre, r.pending_ends
    (9-9, [0, 1, 2, 3])
    """

    # The step interface's methods are the core's own bound methods, kept in
    # slots: a slot read is as cheap as the method lookup of a subclass of the
    # core's class, where a forwarding method or property would cost a Python
    # frame (or two lookups) on every step.
    # _round_id: the token of the round's views (common/view.py), made on first use.
    __slots__ = ("_s", "_rules", "_round_id", "legal_actions", "apply_action", "legal_action_mask")
    _s: Any
    _rules: Rules

    def __init__(self, rules: Rules, seed: int = 0, round_index: int = 0) -> None:
        """Deal round ``round_index`` of ``rules`` from a generator seeded with ``seed``."""
        check_rules(rules)
        index = check_round_index(rules, round_index)
        self._s = _core.RoundCore(core_rules(rules), check_seed(seed), index)
        self._rules = rules

    @classmethod
    def _wrap(cls, rules: Rules, state: Any) -> "Round":
        self = object.__new__(cls)
        self._s = state
        self._rules = rules
        return self

    if TYPE_CHECKING:  # what the slots and the core's attributes below hold, for type checkers

        def legal_actions(self) -> List[int]:
            """The legal action ids, ascending."""

        def apply_action(self, action: int, player: Optional[int] = None) -> None:
            """Play the move a legal action id stands for (for ``player``, if named)."""

        def legal_action_mask(self, out: Optional[NDArray[np.bool_]] = None) -> NDArray[np.bool_]:
            """True at the legal ids, ``num_actions`` entries (``out`` filled in place if given)."""

        current_player: int
        starter: int
        round_index: int
        yard_size: int
        is_over: bool
        num_actions: int
        pending_ends: List[int]
    else:

        def __getattr__(self, name: str) -> Any:
            # Reached only while a slot is empty: the step interface's core method
            # is bound into its slot on first use (so copies cost nothing extra).
            if name in STEP_METHODS:
                method = getattr(self._s, name)  # no _s: Guarded raises TypeError
                setattr(self, name, method)
                return method
            return super().__getattr__(name)

    @classmethod
    def _from_generator(
        cls,
        rules: Rules,
        rng: Any,
        round_index: int,
        leader: Optional[int] = None,
        carried: Optional[Sequence[int]] = None,
    ) -> "Round":
        """Deal a round from a generator that a match owns; ``leader`` is the
        seat the match chose to lead (Block, All Fives), ``None`` to let the
        game decide; ``carried`` the match totals before the round (the games
        that score during play), ``None`` for zeros."""
        state = _core.RoundCore(
            core_rules(rules),
            rng,
            round_index,
            -1 if leader is None else leader,
            carried=[] if carried is None else list(carried),
        )
        return cls._wrap(rules, state)

    @classmethod
    def _from_valid_deal(
        cls,
        rules: Rules,
        round_index: int,
        centre: Optional[Tile],
        starter: int,
        hands,
        yard,
        setup_draws: Sequence[Tile] = (),
        highest_double: bool = False,
        carried: Sequence[int] = (),
    ) -> "Round":
        """A round from a deal ``RoundAPI.from_deal`` checked, with the set-up's
        facts (docs/information.md 2), which the core validates too."""
        state = _core.RoundCore(
            core_rules(rules),
            -1 if centre is None else centre.index,
            starter,
            [[t.index for t in h] for h in hands],
            [t.index for t in yard],
            round_index,
            setup_draws=[t.index for t in setup_draws],
            highest_double=bool(highest_double),
            carried=list(carried),
        )
        return cls._wrap(rules, state)

    # ------------------------------------------------------------ observation

    if not TYPE_CHECKING:  # typed in the block above
        current_player = core_attribute("current_player", "The seat to move, -1 once the round is over.")
        starter = core_attribute("starter", "The seat that started the round (placed the centre, or moves first).")
        round_index = core_attribute("round_index", "The round's index in its match.")
        yard_size = core_attribute("yard_size", "How many tiles the yard holds.")
        is_over = core_attribute("is_over", "Whether the round has ended.")
        num_actions = core_attribute("num_actions", "Size of the game's fixed action space.")
        pending_ends = core_attribute("pending_ends", "The ends to fill before any other (an obligation's), by id.")

    @property
    def rules(self) -> Rules:
        """The rules this round is played by."""
        return self._rules

    @property
    def centre(self) -> Optional[Tile]:
        """The double the set-up placed (centre, engine); ``None`` in Block when it placed none."""
        centre = self._s._centre
        return None if centre < 0 else TILES[centre]

    def hand(self, seat: int) -> List[Tile]:
        """The tiles in ``seat``'s hand, in index order."""
        return [TILES[i] for i in self._s._hand(check_seat(self._rules.players, seat))]

    @property
    def yard(self) -> List[Tile]:
        """The yard, top (next drawn) first."""
        return [TILES[i] for i in self._s._yard]

    @property
    def open_ends(self) -> List[End]:
        """Every open end, by id."""
        return [End(e, end_number(n)) for e, n in self._s._open_ends]

    @property
    def obligation(self) -> Optional[str]:
        """``"start"`` or ``"foot"`` (Chicken Foot), ``"double"`` (Mexican Train's
        unsatisfied double) while such ends are pending, else ``None``."""
        return OBLIGATIONS[self._s._obligation] if self._s.pending_ends else None

    @property
    def markers(self) -> Tuple[bool, ...]:
        """Per seat, whether its train carries a marker (always False outside Mexican Train)."""
        mask = self._s._markers
        return tuple(bool(mask >> s & 1) for s in range(self._rules.players))

    def train_of(self, end_id: int) -> Optional[int]:
        """The train (seats 0..p-1, p the Mexican train) of the open end
        ``end_id`` in Mexican Train; ``None`` in other games or for anything
        that is not an open end id."""
        key = action_key(end_id)
        if key is None or not 0 <= key <= MAX_END_ID:
            return None
        train = self._s._train_of(key)
        return None if train < 0 else train

    @property
    def unlocked(self) -> Tuple[int, ...]:
        """The numbers that non-doubles may attach to (all of them outside Doubles)."""
        mask = self._s._unlocked
        return tuple(v for v in range(self._rules.set + 1) if mask >> v & 1)

    @property
    def drawn_tile(self) -> Optional[Tile]:
        """The tile drawn this turn that is still in question, if any."""
        drawn = self._s._drawn
        return None if drawn < 0 else TILES[drawn]

    @property
    def layout(self) -> List[Placement]:
        """Every placed tile, in the order placed (a set-up double first)."""
        return [
            Placement(TILES[tile], None if end < 0 else end, end_number(by), tuple(range(first, first + created)))
            for tile, end, by, first, created in self._s._layout
        ]

    @property
    def move_stack(self) -> List[Move]:
        """The moves played since the deal."""
        return [decode(c) for c in self._s._moves]

    @property
    def play_points(self) -> Tuple[int, ...]:
        """Each seat's points scored in play this round (docs/games/all_fives.md
        F5; partners hold their team's); zeros in the games that score only at the end."""
        return self._s._play_points

    @property
    def points_stack(self) -> List[int]:
        """What each move of ``move_stack`` scored for its mover's side (0 for a
        draw, a pass, and in the games that score only at the end)."""
        return self._s._points_stack

    @property
    def carried(self) -> Tuple[int, ...]:
        """Each seat's match total before the round (docs/games/all_fives.md
        F8); zeros for a round on its own and in the other games."""
        return self._s._carried

    @property
    def result(self) -> Optional[RoundResult]:
        """The result once the round is over, else ``None``."""
        raw = self._s._result
        return None if raw is None else RoundResult(*raw)

    # ------------------------------------------------------------ moves

    def legal_moves(self, distinct: bool = False) -> List[Move]:
        """The legal moves in the game's canonical order (docs/rules.md 1.7).

        With ``distinct=True`` one placement is kept for each class of
        equivalent ones (the same tile on ends of the same number: the lowest
        end id; every placement in Mexican Train).
        """
        return list(map(decode, self._s._legal_moves(bool(distinct))))

    def is_legal(self, move: MoveLike, player: Optional[int] = None) -> bool:
        """Whether ``move`` (a Move or its string) is legal now, for ``player``
        if named. Never raises: anything ``push`` would reject is ``False``."""
        try:
            seat = check_player(self._rules.players, player)
            return self._s._check(encode(as_move(move)), -1 if seat is None else seat) == "ok"
        except DominoError:
            return False

    def push(self, move: MoveLike, player: Optional[int] = None) -> None:
        """Play ``move`` (a Move or ``"5-9@2"``/``"draw"``/``"pass"``).

        If ``player`` is given, the move is rejected unless it is that seat's
        turn. An illegal move raises ``IllegalMoveError`` and changes nothing.
        """
        move = as_move(move)
        seat = check_player(self._rules.players, player)
        try:
            self._s._push(encode(move), -1 if seat is None else seat)
        except IllegalMoveError as exc:
            raise illegal_move(self, exc, move, seat) from None

    def pop(self) -> Move:
        """Undo the last move and return it."""
        try:
            return decode(self._s._pop())
        except IllegalMoveError:
            raise IllegalMoveError("no_move", messages.NO_MOVE) from None

    # ------------------------------------------------------------ action ids

    def action_to_move(self, action: int) -> Move:
        """The (distinct) move a legal action id stands for (``IllegalMoveError``
        ``illegal_action`` for anything else, of any type)."""
        return decode(self._s._action_to_move(action))

    def move_to_action(self, move: MoveLike) -> int:
        """The action id of a legal move (a non-distinct placement maps to its distinct twin)."""
        move = as_move(move)
        try:
            return self._s._move_to_action(encode(move))
        except IllegalMoveError as exc:
            raise illegal_move(self, exc, move, None) from None

    # ------------------------------------------------------------ what a seat may know

    def information_state(self, seat: int) -> str:
        """``seat``'s perfect-recall information state: a string equal for two
        states of the same rules exactly when the seat cannot tell them apart
        (its format: docs/information.md 3)."""
        return self._s.information_state(check_seat(self._rules.players, seat))

    def information_state_hash(self, seat: int) -> int:
        """The 64-bit FNV-1a hash of ``information_state(seat)``'s bytes
        (docs/information.md 3), computed without building the string."""
        if type(seat) is not int or not 0 <= seat < self._rules.players:  # the hot path skips the call
            seat = check_seat(self._rules.players, seat)
        return self._s.information_state_hash(seat)

    def information_state_tensor(self, seat: int) -> NDArray[np.float32]:
        """``seat``'s information state as a flat float32 vector of
        ``information_state_tensor_shape`` (docs/information.md 3)."""
        return self._s._information_state_tensor(check_seat(self._rules.players, seat))

    @property
    def information_state_tensor_shape(self) -> Tuple[int]:
        """The shape of ``information_state_tensor()``, fixed by the rules."""
        return tensor_shapes(self._rules)[0]

    def observation_tensor(self, seat: int, out: Optional[NDArray[np.float32]] = None) -> NDArray[np.float32]:
        """What ``seat`` observes now as a flat float32 vector of
        ``observation_tensor_shape`` (its planes: docs/information.md 3),
        written into ``out`` (a writable, C-contiguous 1-d float32 array of
        that length, else ``RulesError``) when given."""
        if type(seat) is not int or not 0 <= seat < self._rules.players:  # the hot path skips the call
            seat = check_seat(self._rules.players, seat)
        return self._s._observation_tensor(seat, out)

    @property
    def observation_tensor_shape(self) -> Tuple[int]:
        """The shape of ``observation_tensor()``, fixed by the rules."""
        return tensor_shapes(self._rules)[1]

    @staticmethod
    def observation_tensors(
        rounds: Sequence["Round"], seats: Union[int, Sequence[int]], out: Optional[NDArray[np.float32]] = None
    ) -> NDArray[np.float32]:
        """The observation tensors of many rounds of equal rules (``StateError``
        otherwise) in one C++ call: row i is
        ``rounds[i].observation_tensor(seat)``, ``seats`` one seat for every
        round or one per round (docs/information.md 3). Fills ``out`` (a
        writable, C-contiguous float32 array of shape ``(len(rounds), size)``)
        when given; with no rounds, returns ``out`` or an empty (0, 0) array."""
        rounds = rounds if type(rounds) in (list, tuple) else list(rounds)
        # The common case (Rounds of one rules object, valid seats, a fitting
        # `out` or None) in one C++ pass; None: anything else, checked below.
        rows = _core._observation_tensors_fast(Round, rounds, seats, out)
        if rows is not None:
            return rows
        cores = [checked_round(r) for r in rounds]
        if not cores:
            return np.empty((0, 0), np.float32) if out is None else out
        rules = rounds[0]._rules
        for i, r in enumerate(rounds):
            if r._rules is not rules and r._rules != rules:  # the same object, most often
                raise StateError(f"every round must have the same rules: round {i} has {r.rules!r}, round 0 {rules!r}")
        players = rules.players
        if not isinstance(seats, int) and hasattr(seats, "__len__"):  # a list, a tuple, a numpy array
            if len(seats) != len(cores):
                raise RulesError(f"seats must hold one seat per round: {len(cores)} rounds, {len(seats)} seats")
            seat_list = [check_seat(players, s) for s in seats]
        else:
            seat_list = [check_seat(players, seats)] * len(cores)
        return _core._observation_tensors(cores, seat_list, out)

    # ------------------------------------------------------------ copies and records

    def clone(self) -> "Round":
        """An independent copy, history included (of the same class, with a
        subclass's own attributes)."""
        cls = type(self)
        other = cls._wrap(self._rules, _core.RoundCore(self._s))
        if cls is not Round:  # a user's subclass: its own attributes too
            other.__dict__.update(self.__dict__)
        return other

    def _deal_dict(self) -> Dict[str, Any]:
        centre, starter, hands, yard, setup_draws, highest_double, carried = self._s._deal
        deal = {
            "centre": None if centre < 0 else str(TILES[centre]),
            "starter": starter,
            "hands": [[str(TILES[t]) for t in sorted(h)] for h in hands],
            "yard": [str(TILES[t]) for t in yard],
            "setup_draws": [str(TILES[t]) for t in setup_draws],
            "highest_double": highest_double,
        }
        if any(carried):  # the match totals before the round (all_fives.md F8)
            deal["carried"] = list(carried)
        return deal

    def _history(self) -> List[Tuple[int, Move, Optional[Tile]]]:
        """Every move played, as ``(mover, move, drawn)``: ``drawn`` is the
        tile a Draw took (``None`` for other moves). Hidden data: internal use
        only (determinization, player views)."""
        return [(mover, decode(code), None if drawn < 0 else TILES[drawn]) for mover, code, drawn in self._s._history]

    def determinizer(self, seat: int, model: Any = None, candidates: Optional[int] = None) -> Determinizer:
        """The exact determinizer of ``seat`` (docs/information.md 4): it reads
        the round once and then samples worlds, as many as wanted, with
        ``sample(seed)``. ``model`` (an ``OpponentModel`` or a policy name)
        weights the worlds by the likelihood of the other seats' moves, drawn
        exactly (``candidates=None``) or by resampling among ``candidates``
        uniform worlds (docs/information.md 5). ``StateError`` once the round
        is over; ``RulesError`` for a bad seat, model or count."""
        return Determinizer(self, seat, model, candidates)


def checked_round(round: Any) -> Any:
    """The core state of a compiled ``Round`` (bots take nothing else)."""
    if not isinstance(round, Round):
        raise TypeError(f"expected a dominocore Round, got {shown(round)}")
    return round._s


class Determinizer(WeightedOptions, Guarded):
    """Samples worlds for one seat of a compiled ``Round``: the exact
    determinization of docs/information.md section 4.

    Made by ``Round.determinizer(seat)``, which does the preparation once (it
    replays the public history and builds the slot model); it keeps what it
    needs, so the round may change afterwards. ``sample(seed)`` returns a new
    ``Round``, a world drawn uniformly over those consistent with what the
    seat knows, or, with a ``model`` of the other seats' play, weighted by
    the likelihood of their moves (docs/information.md 5: exact by
    rejection, or resampled from ``candidates`` uniform worlds; each uniform
    world is drawn as below). A sample first tries up to 8 baseline proposals; when they
    all fail, a count of the worlds is built (once, then reused) and sampled
    from: the count by tile; when that outgrows its bound (long rounds on
    large sets), the count by seat; and when that outgrows its bound too, the
    count by seat of a coarser model (groups of unseen tiles merged, so some
    slots allow more), whose draws the exact model accepts or rejects: still
    exact, at the cost of a few draws a world. Sampling releases the GIL.

    ``stats`` is a dict of what it built and did so far: ``tiles`` (the
    hidden tiles it places, the other seats' placed tiles included), ``slots``
    and ``cells`` of the slot model (the yard's included), ``count_built``,
    ``count_by_seat`` (the count built is the count by seat),
    ``count_states`` and ``count_edges`` (the count by tile's memo entries
    and transitions, or the count by seat's units of work and 0; 0 until
    built), ``log2_worlds`` (log2 of the number of worlds satisfying
    conditions 1-4, once counted exactly, else ``None``), ``count_relaxed``
    (the count is of a coarser model), ``exact_groups`` and ``count_groups``
    (the groups of unseen tiles of the exact model and of the model counted
    by seat), ``relaxed_misses`` (the estimated misplaced tiles of a draw of
    the coarser model: the acceptance is about ``exp(-relaxed_misses)``),
    ``count_too_large`` (no count fitted its bound, so the sampler only
    proposes: not seen, docs/information.md 4), ``samples``, ``proposals``
    and ``accepted`` (the baseline proposals tried and accepted),
    ``count_samples`` (worlds drawn from the count), ``relaxed_rejected``
    (draws of the coarser model that the exact model rejected) and
    ``count_rejected`` (draws of the count rejected because the round would
    be blocked now: nobody could place). ``sample`` raises ``StateError``
    after 2**22 rejected proposals or draws in a row (not seen).
    """

    __slots__ = ("_core", "_rules", "_model", "_candidates")
    _init_marker = "_core"

    def __init__(self, round: Round, seat: int, model: Any = None, candidates: Optional[int] = None) -> None:
        """The determinizer of ``seat`` (``RulesError`` unless 0..p-1) in
        ``round``, its worlds weighted by ``model`` (see ``Round.determinizer``)."""
        core = checked_round(round)
        rules = round.rules
        seat = check_seat(rules.players, seat)
        self._model = check_model(model)
        self._candidates = check_candidates(candidates)
        code, temperature, count = core_arguments(self._model, self._candidates)
        if self._model is not None and self._model.policy == "learned":
            register_shipped(rules)  # the core looks the network up (RulesError: none)
        self._core = core._determinizer(seat, model=code, temperature=temperature, candidates=count)
        self._rules = rules

    def log_likelihood(self, world: Round) -> float:
        """``log L(world)``: the sum over the other seats' moves of the
        log-probability of each under the model (docs/information.md 5), 0.0
        without a model. ``world``: a compiled ``Round`` with this
        determinizer's rules and moves (``StateError`` otherwise; a world it
        sampled, say); it is not changed."""
        if not isinstance(world, Round):
            raise TypeError(f"expected a dominocore Round, got {shown(world)}")
        return float(self._core._log_likelihood(world._s))

    @property
    def seat(self) -> int:
        """The seat whose information the worlds share."""
        return self._core.seat

    def sample(self, seed: Any = 0) -> Round:
        """A world: a new ``Round`` with this round's rules, public history and
        the seat's private history, everything else drawn uniformly over the
        consistent worlds. ``seed``: an int (0..2**64-1) or a
        ``dominocore.SplitMix64``, which advances. ``StateError`` after 2**22
        rejected proposals or draws in a row (see ``stats``; not seen)."""
        if (type(seed) is not int or not 0 <= seed <= MAX_SEED) and not isinstance(seed, SplitMix64):
            seed = check_seed(seed)  # raises, or converts an integer-like object
        world = object.__new__(Round)  # Round._wrap, inlined: this is the hot path
        world._s = self._core._sample(seed)
        world._rules = self._rules
        return world

    @property
    def stats(self) -> Dict[str, Any]:
        """What it built and did so far (see the class docstring)."""
        return self._core._stats

    def __repr__(self) -> str:
        return f"<Determinizer seat={self.seat}{self._weighting_repr()} {self._rules!r}>"


def state_of_view(view: PlayerView) -> Any:
    """A core state with ``view``'s knowledge, the hidden tiles made up
    (``_core._state_from_knowledge``: every field checked, the history
    replayed move by move; ``StateError`` for knowledge no round gives): for
    searching from a view, for checking one, and for what a bot computes
    from the view alone."""
    return _core._state_from_knowledge(
        core_rules(view.rules),
        view.seat,
        view.round_index,
        -1 if view.centre is None else view.centre.index,
        view.starter,
        view.highest_double,
        [t.index for t in view.hand],
        list(view.hand_sizes),
        [t.index for t in view.own_setup_draws],
        list(view.setup_draws),
        [h.seat for h in view.history],
        [encode(h.move) for h in view.history],
        [-1 if h.drawn is None else h.drawn.index for h in view.history],
        view.result is not None,
        list(view.carried),
    )
