"""The random and greedy players of RULES.md 1.6."""

from __future__ import annotations

from typing import TYPE_CHECKING, List, Sequence, Union

from .errors import RulesError
from .moves import DRAW, PASS, Move
from .rng import PLAYER_SEED_XOR, SplitMix64

if TYPE_CHECKING:
    from .round import Round

__all__ = ["RandomPlayer", "GreedyPlayer", "players_for", "check_policies", "POLICIES"]

POLICIES = ("random", "greedy")


class RandomPlayer:
    """Picks uniformly among the distinct legal moves with its own SplitMix64,
    seeded with ``seed ^ 0xD1B54A32D192ED03``."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = SplitMix64((seed & ((1 << 64) - 1)) ^ PLAYER_SEED_XOR)

    def choose(self, round: "Round") -> Move:
        """The move to play in ``round``."""
        moves = round.legal_moves(distinct=True)
        return moves[self.rng.below(len(moves))]


class GreedyPlayer:
    """Places the tile that would score most in hand (first in canonical order
    on ties); draws if it cannot place, else passes."""

    def choose(self, round: "Round") -> Move:
        """The move to play in ``round``."""
        moves = round.legal_moves()
        places = [m for m in moves if m.is_place]
        if places:
            score = round.rules.tile_score
            best = places[0]
            for m in places[1:]:
                if score(m.tile) > score(best.tile):
                    best = m
            return best
        return Move(DRAW) if Move(DRAW) in moves else Move(PASS)


def check_policies(policy: Union[str, Sequence[str]], players: int) -> List[str]:
    """One policy name per seat from a name or a per-seat list (validated)."""
    policies = [policy] * players if isinstance(policy, str) else list(policy)
    if len(policies) != players:
        raise RulesError(f"a policy list needs one policy per seat ({players}), got {len(policies)}")
    for p in policies:
        if p not in POLICIES:
            raise RulesError(f"policy must be one of {POLICIES}, got {p!r}")
    return policies


def players_for(policy: Union[str, Sequence[str]], players: int, seed: int) -> List[object]:
    """One player object per seat; random seats share one generator."""
    policies = check_policies(policy, players)
    shared_random = RandomPlayer(seed)
    greedy = GreedyPlayer()
    return [shared_random if p == "random" else greedy for p in policies]
