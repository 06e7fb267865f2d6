# distutils: language = c++
# cython: language_level=3, boundscheck=False, wraparound=False
"""Random playouts through dominocore's C++ core, without Python objects in
the loop (tests/test_cython.py, bench/cython_playout.py, docs/cython.md).

Round i of ``playout`` is dominocore.simulate(rules, rounds=n, seed=seed,
policy="random")'s round i: dealt by SplitMix64(seed + i), played by the
random policy's generator SplitMix64((seed + i) ^ kRandomPlayXor), which picks
moves[below(len(moves))] among the distinct legal moves in canonical order.
"""

from libc.stdint cimport int8_t, int32_t, uint8_t, uint64_t

cimport dominocore as dcc


def playout(rules, uint64_t seed, Py_ssize_t rounds, int round_index,
            int32_t[:, ::1] points, uint8_t[::1] reason, int8_t[::1] out_seat,
            int8_t[::1] starter, int32_t[::1] moves):
    """Plays `rounds` random rounds into the arrays (simulate's layout:
    reason 0 = out, 1 = blocked) with the GIL released."""
    cdef dcc.Rules r = dcc.rules_from_py(rules)
    if points.shape[0] < rounds or points.shape[1] != r.players or reason.shape[0] < rounds \
            or out_seat.shape[0] < rounds or starter.shape[0] < rounds or moves.shape[0] < rounds:
        raise ValueError("the arrays are too small")
    cdef dcc.Move buf[dcc.kMaxDistinctMoves]
    cdef dcc.Rng deal_rng
    cdef dcc.Rng player
    cdef dcc.State* st = NULL
    cdef Py_ssize_t i
    cdef int n, seat
    cdef uint64_t s
    try:
        with nogil:
            for i in range(rounds):
                s = seed + <uint64_t>i
                deal_rng = dcc.Rng(s)
                if st == NULL:
                    st = new dcc.State(r, deal_rng, round_index)
                else:
                    st.set_up(deal_rng, round_index)
                player = dcc.Rng(s ^ dcc.kRandomPlayXor)
                while not st.is_over():
                    n = st.distinct_moves(buf)
                    st.push_unchecked(buf[player.below_unchecked(n)])
                for seat in range(r.players):
                    points[i, seat] = st.result().points[seat]
                reason[i] = 0 if st.result().reason == dcc.EndReason.Out else 1
                out_seat[i] = <int8_t>st.result().out_seat
                starter[i] = <int8_t>st.result().starter
                moves[i] = st.result().moves
    finally:
        del st


def playout_checked(rules, uint64_t seed, int round_index=0):
    """One random round through the checked path (legal_moves, push), with
    undo: returns (points, moves) after checking that pop() goes back to the
    deal and that replaying the moves gives the same state."""
    cdef dcc.Rules r = dcc.rules_from_py(rules)
    cdef dcc.State* st = new dcc.State(r, seed, round_index)
    cdef dcc.State* fresh = NULL
    cdef dcc.Rng player = dcc.Rng(seed ^ dcc.kRandomPlayXor)
    cdef dcc.vector[dcc.Move] legal
    cdef dcc.vector[dcc.Move] played
    try:
        fresh = new dcc.State(st[0])
        while not st.is_over():
            st.legal_moves(legal, True)
            st.push(legal[player.below(legal.size())])
        played = st.moves()
        points = [st.result().points[seat] for seat in range(r.players)]
        while st.num_moves():
            st.pop()
        if st[0] != fresh[0]:
            raise AssertionError("pop() did not go back to the deal")
        for m in played:
            st.push(m)
        st.validate()
        return points, [dcc.move_name(m).decode() for m in played]
    finally:
        del st
        del fresh


def world_hands(rules, uint64_t seed, int moves, int seat, uint64_t world_seed):
    """The hands (tile indices) of determinize(state, seat, world_seed) after
    `moves` random moves of round `seed`."""
    cdef dcc.Rules r = dcc.rules_from_py(rules)
    cdef dcc.State* st = new dcc.State(r, seed)
    cdef dcc.State* world = NULL
    cdef dcc.RandomPlayer bot = dcc.RandomPlayer(seed)
    try:
        for _ in range(moves):
            st.push_unchecked(bot.choose(st[0]))
        world = dcc.determinize_new(st[0], seat, world_seed)
        return [[t for t in range(r.tiles()) if world.hand(p).test(t)] for p in range(r.players)]
    finally:
        del st
        del world


def errors(rules):
    """The Python exception each C++ failure becomes, as (type name, reason or text)."""
    cdef dcc.Rules r = dcc.rules_from_py(rules)
    cdef dcc.State* st = new dcc.State(r, <uint64_t>1)
    cdef dcc.Rng g = dcc.Rng(1)
    cdef dcc.RulesSpec spec
    out = []
    try:
        try:
            st.push(dcc.Move.pass_())
        except Exception as e:
            out.append((type(e).__name__, getattr(e, "reason", None)))
        try:
            st.pop()
        except Exception as e:
            out.append((type(e).__name__, getattr(e, "reason", None)))
        try:
            st.apply_action(-1)
        except Exception as e:
            out.append((type(e).__name__, getattr(e, "reason", None)))
        try:
            g.below(0)
        except Exception as e:
            out.append((type(e).__name__, str(e)))
        spec.game = dcc.Game.Doubles
        spec.players = 9
        try:
            dcc.make_rules(spec)
        except Exception as e:
            out.append((type(e).__name__, None))
        try:
            dcc.parse_move(b"9-9@x", 9)
        except Exception as e:
            out.append((type(e).__name__, None))
        return out
    finally:
        del st
