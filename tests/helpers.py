"""Helpers shared by the property and differential tests."""

from __future__ import annotations


def observe(round_) -> dict:
    """Everything observable about a round through the public API, as plain data."""
    return {
        "current_player": round_.current_player,
        "starter": round_.starter,
        "centre": str(round_.centre),
        "hands": [[str(t) for t in h] for h in round_.hands],
        "yard": [str(t) for t in round_.yard],
        "yard_size": round_.yard_size,
        "open_ends": [(e.id, e.number) for e in round_.open_ends],
        "pending_ends": list(round_.pending_ends),
        "obligation": round_.obligation,
        "unlocked": list(round_.unlocked),
        "drawn_tile": None if round_.drawn_tile is None else str(round_.drawn_tile),
        "layout": [(str(p.tile), p.end, p.number, tuple(p.created)) for p in round_.layout],
        "moves": [str(m) for m in round_.move_stack],
        "legal": [str(m) for m in round_.legal_moves()],
        "distinct": [str(m) for m in round_.legal_moves(distinct=True)],
        "actions": list(round_.legal_actions()),
        "is_over": round_.is_over,
        "result": None if round_.result is None else tuple(round_.result),
    }


def set_tiles(dc, rules) -> list:
    """Every tile of the rules' set, as strings, in index order."""
    return [str(dc.Tile.from_index(i)) for i in range(rules.tile_count)]


def all_tiles_in_play(round_) -> list:
    """Every tile of the round: hands, yard and layout (each should appear once)."""
    tiles = [str(t) for h in round_.hands for t in h]
    tiles += [str(t) for t in round_.yard]
    tiles += [str(p.tile) for p in round_.layout]
    return tiles
