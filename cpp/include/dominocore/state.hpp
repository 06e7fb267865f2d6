// The state of one round, for every game.
//
// State is the public face of one engine. The data of a round (RoundData,
// round_data.hpp) is the same for every game; what differs is a game's module
// of hooks (dominocore/games/), which every public entry point below picks
// once, through games/registry.hpp, before running the engine's code
// instantiated for that game (src/engine.hpp), so the hot loops inline.
//
// push() validates and throws IllegalMove leaving the state untouched;
// push_unchecked() is the fast path for moves taken from legal_moves(). Every
// move leaves a small undo record, so pop() goes back to the deal. Copying a
// State clones it (the only heap member is the undo history).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "dominocore/move.hpp"
#include "dominocore/rng.hpp"
#include "dominocore/round_data.hpp"
#include "dominocore/rules.hpp"
#include "dominocore/tiles.hpp"

namespace dominocore {

namespace detail {
struct BatchPlay;  // src/batch_play.hpp: a round played out without its undo records
}  // namespace detail

struct OpenEnd {
  int id;
  int number;  ///< -1 for an end that takes any tile (Block's lead end)
  friend bool operator==(const OpenEnd& a, const OpenEnd& b) noexcept {
    return a.id == b.id && a.number == b.number;
  }
};

/// An explicit deal: the position right after the set-up (docs/engine.md
/// record format). A set-up double (`centre`, Mexican Train's engine) is
/// already down; Block may have none (centre = -1: the starter leads).
struct Deal {
  int round_index = 0;
  int centre = -1;  ///< tile index of the set-up's double, -1 for none
  int starter = 0;
  std::vector<std::vector<int>> hands;  ///< one list of tile indices per seat
  std::vector<int> yard;                ///< top first (Block: the tiles out of play)
  /// Chicken Foot `cross`: the set-up's search for the round's double, in
  /// draw order (tile i drawn by seat (round_index + i) mod p, the double
  /// last, by the starter); the other tiles are in their drawers' hands.
  /// Empty when the starter was dealt the double, and in every other game.
  std::vector<int> setup_draws;
  /// The set-up chose the centre as the highest double dealt (every Doubles
  /// round; Block under lead = highest_double, and under puerto_rico when no
  /// match chose the leader, where no centre means that no hand was dealt a
  /// double): a public fact of docs/information.md 1.
  bool highest_double = false;
  /// The games that score during play (docs/games/all_fives.md F8): each
  /// seat's match total before the round (partners equal); empty: zeros.
  /// Every other game: empty or zeros.
  std::vector<int> carried;
};

class State {
 public:
  // ---- construction -------------------------------------------------------

  /// Sets up round `round_index` from the generator (the game's set-up); a
  /// match passes its one generator to every round, and `leader`, the seat
  /// the match chose to lead (Block; -1: the game decides alone).
  /// Throws RulesError (bad rules) or StateError (round index out of range).
  /// `carried`: each seat's match total before the round (games scoring in
  /// play, all_fives.md F8); empty for zeros.
  State(const Rules& rules, Rng& rng, int round_index = 0, int leader = -1,
        const std::vector<int>& carried = {});
  /// A standalone round: its own generator seeded with `seed`.
  State(const Rules& rules, uint64_t seed, int round_index = 0);
  /// From an explicit deal; validates that hands + yard + centre hold every
  /// tile exactly once, the centre (by the game's rules), the starter, the
  /// seat count and the set-up's facts (a search only in the cross, each tile
  /// in its drawer's hand and the double last, drawn by the starter;
  /// highest_double only in Doubles and Block, and true of the deal).
  /// Throws StateError.
  State(const Rules& rules, const Deal& deal);

  /// Deals a new round into this object (same rules), reusing its buffers:
  /// the allocation-free path for simulations.
  void set_up(Rng& rng, int round_index, int leader = -1, const std::vector<int>& carried = {});
  /// Undo records a new State has room for: the moves of nearly every round.
  static constexpr int kReservedMoves = 128;
  /// Makes room for `moves` undo records (a new State has room for
  /// kReservedMoves, a copy only for the moves it holds), so that the moves
  /// up to there allocate nothing.
  void reserve_history(int moves) { r_.hist.reserve(static_cast<size_t>(moves)); }

  // ---- queries ------------------------------------------------------------

  const Rules& rules() const noexcept { return r_.rules; }
  int players() const noexcept { return r_.rules.players; }
  int round_index() const noexcept { return r_.round_index; }
  int starter() const noexcept { return r_.starter; }
  /// The set-up's double (centre, engine), -1 when the set-up placed none.
  int centre() const noexcept { return r_.centre; }
  /// Seat to move, -1 once the round is over.
  int current_player() const noexcept { return r_.over ? -1 : r_.f.cur; }
  const TileSet& hand(int seat) const { return r_.hands[seat]; }
  int yard_size() const noexcept { return r_.yard_size(); }
  /// Yard tile i counted from the top (0 = the next draw).
  int yard_tile(int i) const { return r_.yard[r_.yard_top + i]; }
  std::vector<int> yard() const;  ///< top first
  /// The tile drawn this turn and still in question, -1 if none.
  int drawn_tile() const noexcept { return r_.f.drawn; }
  /// What `seat`'s hand counts now (0-0 as 50 under double_blank_50).
  int pips(int seat) const;
  /// Bit v set when non-doubles may attach to number v: in Doubles the
  /// numbers whose double is down; in the other games every number of the set.
  uint32_t unlocked() const noexcept { return r_.f.unlocked; }
  bool is_unlocked(int v) const noexcept { return (r_.f.unlocked >> v) & 1u; }
  /// Mexican Train: bit s set when seat s's train carries a marker (0 elsewhere).
  uint32_t markers() const noexcept { return r_.f.markers; }
  bool has_marker(int seat) const noexcept { return (r_.f.markers >> seat) & 1u; }

  int num_open_ends() const noexcept { return r_.n_ends; }
  OpenEnd open_end(int i) const { return OpenEnd{r_.end_id[i], shown_number(r_.end_num[i])}; }
  std::vector<OpenEnd> open_ends() const;  ///< ascending id
  /// Number of the open end `id`; -1 if it is not open or takes any tile.
  int end_number(int id) const noexcept;
  /// Mexican Train: the train (0..p-1 the seats', p the Mexican) of the open
  /// end `id`; -1 in the other games or when `id` is not open.
  int train_of(int id) const noexcept;
  /// Number of any end created this round (open or filled), -1 if never
  /// created or if it takes any tile.
  int created_end_number(int id) const noexcept;
  /// Ids are handed out 0, 1, 2, ...: the id the next created end gets.
  int next_end_id() const noexcept { return r_.next_end; }

  Pending pending_kind() const noexcept { return static_cast<Pending>(r_.f.obl_kind); }
  /// Unfilled slots / toes / the unsatisfied double's end, ascending id (empty when none).
  std::vector<int> pending_ends() const;

  int num_placements() const noexcept { return r_.n_placed; }
  const Placement& placement(int i) const { return r_.placed[i]; }

  /// Moves played since the set-up, in order.
  int num_moves() const noexcept { return static_cast<int>(r_.hist.size()); }
  Move move_at(int i) const { return r_.hist[i].move; }
  /// The seat that made move i.
  int mover_at(int i) const { return r_.hist[i].mover; }
  /// What move i scored for its mover's side (all_fives.md F5); 0 for a
  /// draw, a pass, and in the games that score only at the end.
  int points_at(int i) const { return r_.hist[i].points; }
  /// `seat`'s points scored in play this round (partners hold their team's).
  int play_points(int seat) const { return r_.play_points[seat]; }
  /// `seat`'s match total before the round (all_fives.md F8), 0 elsewhere.
  int carried(int seat) const { return r_.carried[seat]; }
  /// The tile move i drew, -1 if move i is not a Draw. Draws take the yard
  /// after the set-up top first, so the k-th Draw took deal().yard[k].
  int drawn_at(int i) const;
  std::vector<Move> moves() const;
  /// The deal this round started from (hands sorted by index, yard top
  /// first), with the set-up's public facts (setup_draws, highest_double).
  Deal deal() const;
  /// The cross's set-up search, in draw order (see Deal::setup_draws).
  int num_setup_draws() const noexcept { return r_.n_setup_draws; }
  int setup_draw(int i) const { return r_.setup_draws[i]; }
  /// Whether the set-up chose the centre as the highest double dealt.
  bool highest_double() const noexcept { return r_.highest_double; }

  /// The round's data, read-only: for the analysis code that walks it
  /// whole (information.cpp, determinize.cpp) without copying.
  const RoundData& data() const noexcept { return r_; }

  bool is_over() const noexcept { return r_.over; }
  /// The result; throws StateError while the round goes on.
  const RoundResult& result() const;

  // ---- legal moves --------------------------------------------------------

  /// Tiles the player to move could place now (after a Draw: the drawn tile
  /// if it has a legal end). Empty when the round is over.
  TileSet placeable() const noexcept;
  /// Whether `seat`'s hand holds a placement that would be legal for it now.
  bool has_legal_placement(int seat) const noexcept;
  /// Legal moves in canonical order (docs/rules.md 1.7, mexican_train.md M7).
  /// `distinct` keeps, for each (tile, number attached by), the lowest end id
  /// only (Mexican Train: the same as the full listing). `out` is cleared first.
  void legal_moves(std::vector<Move>& out, bool distinct = false) const;
  std::vector<Move> legal_moves(bool distinct = false) const;
  /// Distinct legal moves into buf (at least kMaxDistinctMoves entries);
  /// returns the count. No allocation: the simulation path.
  int distinct_moves(Move* buf) const noexcept;

  /// Reason::Ok if `move` is legal now for `player` (-1: whoever is to move),
  /// else the first failing check of docs/engine.md.
  Reason check(const Move& move, int player = -1) const noexcept;
  /// Plays a move; throws IllegalMove (code + English message naming the rule
  /// and the legal moves) and leaves the state untouched when illegal.
  void push(const Move& move, int player = -1);
  /// Plays a move known to be legal (from legal_moves()); no checks.
  void push_unchecked(const Move& move) noexcept;
  /// Takes back the last move and returns it; throws IllegalMove with
  /// Reason::NoMove at the deal.
  Move pop();

  // ---- action ids ---------------------------------------------------------
  // The game's fixed action space: docs/rules.md 1.8 (2T+2: tile i by its low
  // half 2i, by its high half 2i+1, meaning the distinct placement) for every
  // game but Mexican Train (mexican_train.md M7: tile i on train t is
  // i*(p+1)+t). Draw and Pass are the last two ids.

  int num_actions() const noexcept;
  /// Legal action ids, ascending. `out` is cleared first.
  void legal_actions(std::vector<int>& out) const;
  std::vector<int> legal_actions() const;
  /// num_actions() flags, 1 for the legal ids.
  std::vector<uint8_t> legal_action_mask() const;
  /// The distinct legal move a legal action id stands for. Throws
  /// IllegalMove with Reason::IllegalAction for any other id (not legal now,
  /// outside the action space, or the round is over).
  Move action_to_move(int action) const;
  /// The action id of a legal move (a non-distinct placement maps to its
  /// distinct twin). Throws IllegalMove (the check() reason) if illegal.
  int move_to_action(const Move& move) const;
  /// Plays the move a legal action id stands for (IllegalMove "illegal_action"
  /// otherwise; "not_your_turn" when `player` is named and is not to move).
  void apply_action(int action, int player = -1);

  // ---- checks and printing -----------------------------------------------

  /// Checks the invariants (conservation of the set now and in the deal,
  /// sorted ends, counts, obligation slice, results); throws StateError.
  void validate() const;
  /// Same position, same deal, same history.
  bool operator==(const State& o) const noexcept;
  bool operator!=(const State& o) const noexcept { return !(*this == o); }
  /// Multi-line human-readable dump.
  std::string to_string() const;
  /// The message push() would throw for an illegal move.
  std::string explain(const Move& move, Reason reason, int player = -1) const;

 private:
  friend class Bots;  // its play_out() runs the engine's inlined loop on r_
  // Its samples rewrite the hidden tiles of a world it replayed once
  // (determinize.cpp) instead of replaying every world's history.
  friend class Determinizer;
  friend struct detail::BatchPlay;  // simulate's and the rollouts' loop without undo records
  friend Move greedy_move(const State& s);

  static int shown_number(int number) noexcept { return number == kNoNumber ? -1 : number; }
  explicit State(const Rules& rules);  // empty shell, then set_up / load_deal_
  void clear_round_() noexcept;
  void load_deal_(const Deal& deal);
  void check_setup_facts_(const Deal& deal) const;
  void set_carried_(const std::vector<int>& carried);
  std::string ends_text_(bool legal_only) const;

  RoundData r_;
};

}  // namespace dominocore
