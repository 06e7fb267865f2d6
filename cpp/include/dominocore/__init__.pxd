# cython: language_level=3
# Cython declarations of dominocore's C++ core: `cimport dominocore` (docs/cython.md).
#
# They declare the C++ API of the headers beside this file (state.hpp,
# move.hpp, rng.hpp, rules.hpp, tiles.hpp, round_data.hpp, players.hpp,
# determinize.hpp, information.hpp, match.hpp, sim.hpp); the engine's code
# comes from the static library the package ships (dominocore.get_libraries()),
# so an extension compiles only its own code. Functions that can throw are
# declared `except +raise_py_error`: a C++ exception becomes dominocore's
# Python exception (IllegalMoveError, RulesError, StateError) or ValueError,
# MemoryError, RuntimeError. Everything else is `nogil` and noexcept, like the
# C++ it declares.
#
# A State made here is the extension's own: the C++ object inside a
# dominocore.Round is not reachable from it (docs/cython.md "Interoperability").

from libc.stdint cimport int8_t, int16_t, uint8_t, uint16_t, uint32_t, uint64_t
from libcpp cimport bool
from libcpp.optional cimport optional
from libcpp.string cimport string
from libcpp.vector cimport vector


cdef extern from "dominocore/cython_support.hpp" namespace "dominocore::cython":
    # The handler of `except +raise_py_error` (dominocore/cython_support.hpp).
    void raise_py_error()


# ---- tiles.hpp ---------------------------------------------------------------

cdef extern from "dominocore/tiles.hpp" namespace "dominocore" nogil:
    const int kMinSet
    const int kMaxSet
    const int kMaxNumbers
    const int kMaxTiles
    const int kMaxPlayers

    int tile_count(int set)
    int tile_index(int a, int b)
    int double_tile(int v)
    int tile_low(int t)
    int tile_high(int t)
    int tile_pips(int t)
    bint is_double(int t)
    int tile_score(int t, bool double_blank_50)
    string tile_name(int t) except +raise_py_error
    int parse_tile(string text, int max_number) except +raise_py_error

    cdef cppclass TileSet:
        uint64_t w[3]
        TileSet()
        bool test(int t)
        void set(int t)
        void reset(int t)
        bool any()
        bool empty()
        int count()
        int first()
        @staticmethod
        TileSet full(int n)

    const TileSet& number_mask(int v)


# ---- move.hpp ----------------------------------------------------------------

cdef extern from "dominocore/move.hpp" namespace "dominocore" nogil:
    const int kMaxEndId

    cdef enum class MoveKind(uint8_t):
        Place
        Draw
        Pass

    cdef cppclass Move:
        MoveKind kind
        int16_t tile
        int16_t end
        Move()
        @staticmethod
        Move place(int tile, int end)
        @staticmethod
        Move draw()
        @staticmethod
        Move pass_ "pass"()
        bool is_place()
        bool operator==(const Move&)
        bool operator!=(const Move&)

    string move_name(const Move& m) except +raise_py_error
    Move parse_move(string text, int max_number) except +raise_py_error

    cdef enum class Reason(uint8_t):
        Ok
        RoundOver
        NotYourTurn
        NotDrawnTile
        NotInHand
        EndNotOpen
        StartUnfinished
        FootUnfinished
        DoubleUnsatisfied
        NotYourTrain
        NoMatch
        Locked
        AlreadyDrew
        MustPlace
        YardExhausted
        MustPlaceDrawn
        MustDraw
        IllegalAction
        NoMove

    const char* reason_code(Reason r)


# ---- rng.hpp -----------------------------------------------------------------

cdef extern from "dominocore/rng.hpp" namespace "dominocore" nogil:
    cdef cppclass Rng:
        # SplitMix64 (docs/rules.md 1.6), the same numbers as dominocore.SplitMix64.
        Rng()
        Rng(uint64_t seed)
        uint64_t next()
        uint64_t below(uint64_t n) except +raise_py_error
        uint64_t below_unchecked(uint64_t n)  # n >= 1
        double unit()
        void shuffle[T](T* a, size_t n)
        uint64_t state()
        void set_state(uint64_t s)
        bool operator==(const Rng&)
        bool operator!=(const Rng&)


# ---- rules.hpp ---------------------------------------------------------------

cdef extern from "dominocore/rules.hpp" namespace "dominocore" nogil:
    cdef enum class Game(uint8_t):
        ChickenFoot
        Doubles
        Block
        MexicanTrain
        AllFives
        FivesAndThrees

    cdef enum class RuleSet(uint8_t):
        Trains
        Cross
        NoRuleSet "dominocore::RuleSet::None"

    cdef enum class DrawnTile(uint8_t):
        Must
        May

    cdef enum class Lead(uint8_t):
        Winner
        HighestDouble
        PuertoRico

    cdef enum class TeamScoring(uint8_t):
        AllPips
        FewerPips

    cdef cppclass Rules:
        Game game
        RuleSet rule_set
        int set
        int players
        int hand_size
        int slots
        DrawnTile drawn_tile
        int reserve
        bool double_blank_50
        int target
        int max_rounds
        Lead lead
        int teams
        TeamScoring team_scoring
        Rules()
        Rules(const Rules&)
        int tiles()
        int rounds_per_match()
        int team_of(int seat)
        int sides()
        void validate() except +raise_py_error
        bool operator==(const Rules&)
        bool operator!=(const Rules&)

    cdef cppclass RulesSpec:
        Game game
        optional[RuleSet] rule_set
        optional[int] set
        optional[int] players
        optional[int] hand_size
        optional[int] trains
        optional[bool] double_blank_50
        optional[int] target
        optional[int] max_rounds
        optional[DrawnTile] drawn_tile
        optional[Lead] lead
        optional[int] teams
        optional[TeamScoring] team_scoring
        RulesSpec()

    Rules make_rules(const RulesSpec& spec) except +raise_py_error
    int default_hand_size(Game game, RuleSet rule_set, int set, int players) except +raise_py_error
    const char* game_name(Game g)
    const char* rule_set_name(RuleSet r)
    const char* drawn_tile_name(DrawnTile d)
    const char* lead_name(Lead l)
    const char* team_scoring_name(TeamScoring t)
    Game parse_game(string s) except +raise_py_error
    RuleSet parse_rule_set(string s) except +raise_py_error
    DrawnTile parse_drawn_tile(string s) except +raise_py_error
    Lead parse_lead(string s) except +raise_py_error
    TeamScoring parse_team_scoring(string s) except +raise_py_error
    string describe(const Rules& r) except +raise_py_error


# ---- round_data.hpp and state.hpp --------------------------------------------

cdef extern from "dominocore/state.hpp" namespace "dominocore" nogil:
    const int kMaxEnds
    const int kMaxDistinctMoves  # room a distinct listing needs (State.distinct_moves)
    const int kNoNumber

    cdef enum class EndReason(uint8_t):
        NotOver "dominocore::EndReason::None"
        Out
        Blocked
        Target

    cdef enum class Pending(uint8_t):
        NoPending "dominocore::Pending::None"
        Start
        Foot
        Double

    const char* end_reason_name(EndReason r)

    cdef cppclass Placement:
        int16_t tile
        int16_t end
        int16_t first
        uint8_t created
        uint8_t by
        int8_t seat
        int8_t train

    cdef cppclass PointsArray "std::array<int, dominocore::kMaxPlayers>":
        int& operator[](size_t i)

    cdef cppclass RoundResult:
        EndReason reason
        int out_seat
        int players
        PointsArray points  # points[seat] for seat < players
        int starter
        int moves
        int round_index
        int last_placer
        PointsArray play_points  # scored during play (All Fives, Fives and Threes)
        PointsArray end_points  # scored at the end of the round

    cdef cppclass OpenEnd:
        int id
        int number  # -1: takes any tile (Block's lead end)

    cdef cppclass Deal:
        int round_index
        int centre
        int starter
        vector[vector[int]] hands
        vector[int] yard
        vector[int] setup_draws
        bool highest_double
        Deal()
        Deal(const Deal&)

    cdef cppclass State:
        # construction (docs/engine.md); copying a State clones it
        State(const Rules& rules, Rng& rng, int round_index, int leader) except +raise_py_error
        State(const Rules& rules, Rng& rng, int round_index) except +raise_py_error
        State(const Rules& rules, Rng& rng) except +raise_py_error
        State(const Rules& rules, uint64_t seed, int round_index) except +raise_py_error
        State(const Rules& rules, uint64_t seed) except +raise_py_error
        State(const Rules& rules, const Deal& deal) except +raise_py_error
        State(const State& other) except +raise_py_error
        void set_up(Rng& rng, int round_index, int leader) except +raise_py_error
        void set_up(Rng& rng, int round_index) except +raise_py_error

        # queries
        const Rules& rules()
        int players()
        int round_index()
        int starter()
        int centre()
        int current_player()  # -1 once over
        const TileSet& hand(int seat)
        int yard_size()
        int yard_tile(int i)
        vector[int] yard() except +raise_py_error
        int drawn_tile()
        int pips(int seat)
        uint32_t unlocked()
        bool is_unlocked(int v)
        uint32_t markers()
        bool has_marker(int seat)
        int num_open_ends()
        OpenEnd open_end(int i)
        vector[OpenEnd] open_ends() except +raise_py_error
        int end_number(int id)
        int train_of(int id)
        int created_end_number(int id)
        int next_end_id()
        Pending pending_kind()
        vector[int] pending_ends() except +raise_py_error
        int num_placements()
        const Placement& placement(int i)
        int num_moves()
        Move move_at(int i)
        int mover_at(int i)
        int drawn_at(int i)
        vector[Move] moves() except +raise_py_error
        Deal deal() except +raise_py_error
        int num_setup_draws()
        int setup_draw(int i)
        bool highest_double()
        bool is_over()
        const RoundResult& result() except +raise_py_error

        # legal moves
        TileSet placeable()
        bool has_legal_placement(int seat)
        void legal_moves(vector[Move]& out, bool distinct) except +raise_py_error
        void legal_moves(vector[Move]& out) except +raise_py_error
        int distinct_moves(Move* buf)  # buf: at least kMaxDistinctMoves moves
        Reason check(const Move& move, int player)
        Reason check(const Move& move)
        void push(const Move& move, int player) except +raise_py_error
        void push(const Move& move) except +raise_py_error
        void push_unchecked(const Move& move)  # a move from legal_moves() only
        Move pop() except +raise_py_error

        # action ids (docs/rules.md 1.8)
        int num_actions()
        void legal_actions(vector[int]& out) except +raise_py_error
        vector[uint8_t] legal_action_mask() except +raise_py_error
        Move action_to_move(int action) except +raise_py_error
        int move_to_action(const Move& move) except +raise_py_error
        void apply_action(int action, int player) except +raise_py_error
        void apply_action(int action) except +raise_py_error

        # checks and printing
        void validate() except +raise_py_error
        bool operator==(const State&)
        bool operator!=(const State&)
        string to_string() except +raise_py_error
        string explain(const Move& move, Reason reason, int player) except +raise_py_error


# ---- players.hpp -------------------------------------------------------------

cdef extern from "dominocore/players.hpp" namespace "dominocore" nogil:
    const uint64_t kRandomPlayXor  # a game with seed s plays randomly from Rng(s ^ kRandomPlayXor)

    cdef enum class Policy(uint8_t):
        Random
        Greedy
        Learned  # the network registered for the rules in this extension's engine (network.hpp)

    const char* policy_name(Policy p)
    Policy parse_policy(string s) except +raise_py_error

    cdef cppclass RandomPlayer:
        # moves[below(n)] of the distinct legal moves: simulate's random policy
        RandomPlayer()
        RandomPlayer(uint64_t seed)
        void reseed(uint64_t seed)
        Move choose(const State& s) except +raise_py_error
        Rng& rng()

    Move greedy_move(const State& s) except +raise_py_error

    cdef cppclass Bots:
        Bots(const vector[Policy]& policies, int players, uint64_t seed) except +raise_py_error
        void reseed(uint64_t seed)
        Rng& rng()
        Policy policy(int seat)
        Move choose(const State& s) except +raise_py_error
        void play_out(State& s) except +raise_py_error


# ---- determinize.hpp ---------------------------------------------------------

cdef extern from "dominocore/determinize.hpp" namespace "dominocore" nogil:
    cdef cppclass DeterminizerStats:
        int tiles
        int slots
        int cells
        bool count_built
        bool count_by_seat
        bool count_too_large
        uint64_t count_states
        uint64_t count_edges
        double log2_worlds
        uint64_t samples
        uint64_t proposals
        uint64_t accepted
        uint64_t count_samples
        uint64_t count_rejected
        bool count_relaxed
        uint64_t model_draws
        uint64_t model_rejected
        int exact_groups
        int count_groups
        double relaxed_misses
        uint64_t relaxed_rejected

    cdef cppclass Determinizer:
        # worlds sampled uniformly among those consistent with what `seat` knows
        # (docs/information.md 4)
        Determinizer(const State& state, int seat) except +raise_py_error
        Determinizer(const State& state, int seat, int proposals) except +raise_py_error
        int seat()
        const Rules& rules()
        Deal sample_deal(Rng& rng) except +raise_py_error
        const DeterminizerStats& stats()
        # log L(world) under the determinizer's opponent model (docs/information.md 5)
        double log_likelihood(const State& world) except +raise_py_error


cdef extern from "dominocore/cython_support.hpp" namespace "dominocore::cython" nogil:
    # determinize(state, seat, seed) and Determinizer::sample(rng) return a
    # State by value in C++; here they return a new State, which the caller
    # deletes (`del world`).
    State* determinize_new(const State& state, int seat, uint64_t seed) except +raise_py_error
    State* sample_new(Determinizer& determinizer, Rng& rng) except +raise_py_error


# ---- information.hpp ---------------------------------------------------------

cdef extern from "dominocore/information.hpp" namespace "dominocore" nogil:
    string information_state(const State& state, int seat) except +raise_py_error
    uint64_t information_state_hash(const State& state, int seat)
    int information_state_history_bound(const Rules& rules)
    int information_state_tensor_size(const Rules& rules)
    void information_state_tensor(const State& state, int seat, float* out) except +raise_py_error
    int observation_tensor_size(const Rules& rules)
    void observation_tensor(const State& state, int seat, float* out)


# ---- match.hpp ---------------------------------------------------------------

cdef extern from "dominocore/match.hpp" namespace "dominocore" nogil:
    cdef cppclass Match:
        Match(const Rules& rules, uint64_t seed) except +raise_py_error
        const Rules& rules()
        uint64_t seed()
        bool is_over()
        int rounds_played()
        int next_round_index()
        bool round_pending()
        void new_round(State& into) except +raise_py_error
        void add_result(const RoundResult& result) except +raise_py_error
        vector[int] totals() except +raise_py_error
        int total(int seat)
        bool is_winner(int seat)
        void play(const vector[Policy]& policies) except +raise_py_error


# ---- helpers -----------------------------------------------------------------

cdef inline Rules rules_from_py(object rules) except *:
    """The core's Rules for a Python rules object (dominocore.ChickenFoot(...),
    dc.Doubles(...), ...: anything with the to_dict() of docs/engine.md), as
    dominocore.Round makes them. Raises RulesError for bad rules."""
    cdef dict d = rules.to_dict()
    cdef RulesSpec spec
    spec.game = parse_game(d["game"].encode())
    spec.set = <int>d["set"]
    spec.players = <int>d["players"]
    spec.hand_size = <int>d["hand_size"]
    if "rule_set" in d:
        spec.rule_set = parse_rule_set(d["rule_set"].encode())
    if "trains" in d:
        spec.trains = <int>d["trains"]
    if "double_blank_50" in d:
        spec.double_blank_50 = <bool>d["double_blank_50"]
    if "target" in d:
        spec.target = <int>d["target"]
    if "max_rounds" in d:
        spec.max_rounds = <int>d["max_rounds"]
    if "drawn_tile" in d:
        spec.drawn_tile = parse_drawn_tile(d["drawn_tile"].encode())
    if "lead" in d:
        spec.lead = parse_lead(d["lead"].encode())
    if d.get("teams") is not None:
        spec.teams = <int>d["teams"]
    if d.get("team_scoring") is not None:
        spec.team_scoring = parse_team_scoring(d["team_scoring"].encode())
    return make_rules(spec)
