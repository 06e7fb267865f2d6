// The state of one round, shared by every game and rule set.
//
// Rule sets differ only through Rules data and a few branches (the set-up
// procedure, what a double creates, which ends are legal now, the drawn-tile
// rule, the reserve, scoring); there is one engine.
//
// Layout model (docs/rules.md 1.3): the open ends are kept as (id, number) pairs in
// ascending id order in a small fixed array. New ends always get the highest
// ids, so they are appended; a pending obligation (the start double's unfilled
// slots, or a chicken foot's unfilled toes) is then always a contiguous slice
// of that array, and "the legal ends" are either that slice or the whole array.
// Legality is bitset work: candidate tiles = hand & (OR of number masks of the
// legal ends).
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
#include "dominocore/rules.hpp"
#include "dominocore/tiles.hpp"

namespace dominocore {

/// Most open ends at once: 8 start slots + 2 net per double placed (3 ends
/// for 1 consumed) over at most 18 further doubles = 44.
inline constexpr int kMaxEnds = 48;
/// Bound on a distinct legal-move listing: 2 placements per tile + Pass.
inline constexpr int kMaxDistinctMoves = 2 * kMaxTiles + 2;

enum class EndReason : uint8_t { None = 0, Out = 1, Blocked = 2 };
/// "out", "blocked" ("none" while the round goes on).
const char* end_reason_name(EndReason r) noexcept;

/// Pending obligation (Chicken Foot): the start double's slots or a foot's toes.
enum class Pending : uint8_t { None = 0, Start = 1, Foot = 2 };

struct OpenEnd {
  int id;
  int number;
  friend bool operator==(const OpenEnd& a, const OpenEnd& b) noexcept {
    return a.id == b.id && a.number == b.number;
  }
};

/// One tile of the layout. The centre double is placement 0 (end = -1).
struct Placement {
  int16_t tile;     ///< tile index
  int16_t end;      ///< end id it was attached to, -1 for the centre
  int16_t first;    ///< first end id it created (they are consecutive)
  uint8_t created;  ///< how many ends it created (1, 3, or the centre's slots)
  uint8_t by;       ///< number it attached by (for the centre: its number)
  int8_t seat;      ///< who placed it (the centre: the starter)
};

struct RoundResult {
  EndReason reason = EndReason::None;
  int out_seat = -1;   ///< seat that went out, -1 when blocked
  int players = 0;
  std::array<int, kMaxPlayers> points{};  ///< per seat (first `players` used)
  int starter = -1;
  int moves = 0;       ///< moves played after the set-up
  int round_index = 0;
};

/// An explicit deal: the position right after the set-up (docs/engine.md
/// record format). The centre double is already placed by `starter`.
struct Deal {
  int round_index = 0;
  int centre = -1;                      ///< tile index of the centre double
  int starter = 0;
  std::vector<std::vector<int>> hands;  ///< one list of tile indices per seat
  std::vector<int> yard;                ///< top first
};

class State {
 public:
  // ---- construction -------------------------------------------------------

  /// Sets up round `round_index` from the generator (docs/rules.md 2.6, 2.7, 3);
  /// a match passes its one generator to every round. Chicken Foot round k
  /// starts from the double (N-k); Doubles ignores the index for the deal.
  /// Throws RulesError (bad rules) or StateError (round index out of range).
  State(const Rules& rules, Rng& rng, int round_index = 0);
  /// A standalone round: its own generator seeded with `seed`.
  State(const Rules& rules, uint64_t seed, int round_index = 0);
  /// From an explicit deal; validates that hands + yard + centre hold every
  /// tile exactly once, the centre (Chicken Foot: the round's double), the
  /// starter and the seat count. Throws StateError.
  State(const Rules& rules, const Deal& deal);

  /// Deals a new round into this object (same rules), reusing its buffers:
  /// the allocation-free path for simulations.
  void set_up(Rng& rng, int round_index);

  // ---- queries ------------------------------------------------------------

  const Rules& rules() const noexcept { return rules_; }
  int players() const noexcept { return rules_.players; }
  int round_index() const noexcept { return round_index_; }
  int starter() const noexcept { return starter_; }
  int centre() const noexcept { return centre_; }
  /// Seat to move, -1 once the round is over.
  int current_player() const noexcept { return over_ ? -1 : f_.cur; }
  const TileSet& hand(int seat) const { return hands_[seat]; }
  int yard_size() const noexcept { return yard_len_ - yard_top_; }
  /// Yard tile i counted from the top (0 = the next draw).
  int yard_tile(int i) const { return yard_[yard_top_ + i]; }
  std::vector<int> yard() const;  ///< top first
  /// The tile drawn this turn and still in question, -1 if none.
  int drawn_tile() const noexcept { return f_.drawn; }
  /// What `seat`'s hand counts now (0-0 as 50 under double_blank_50).
  int pips(int seat) const;
  /// Bit v set when non-doubles may attach to number v: in Doubles the
  /// numbers whose double is down; in Chicken Foot every number of the set.
  uint32_t unlocked() const noexcept { return f_.unlocked; }
  bool is_unlocked(int v) const noexcept { return (f_.unlocked >> v) & 1u; }

  int num_open_ends() const noexcept { return n_ends_; }
  OpenEnd open_end(int i) const { return OpenEnd{end_id_[i], end_num_[i]}; }
  std::vector<OpenEnd> open_ends() const;  ///< ascending id
  /// The ends a tile may go on now (the pending ones, else all), ascending id.
  std::vector<OpenEnd> legal_ends() const;
  /// Number of the open end `id`, or -1 if it is not open.
  int end_number(int id) const noexcept;
  /// Number of any end created this round (open or filled), -1 if never created.
  int created_end_number(int id) const noexcept;
  /// Ids are handed out 0, 1, 2, ...: the id the next created end gets.
  int next_end_id() const noexcept { return next_end_; }

  Pending pending_kind() const noexcept { return static_cast<Pending>(f_.obl_kind); }
  /// Unfilled slots / toes still required, ascending id (empty when none).
  std::vector<int> pending_ends() const;

  int num_placements() const noexcept { return n_placed_; }
  const Placement& placement(int i) const { return placed_[i]; }

  /// Moves played since the set-up, in order.
  int num_moves() const noexcept { return static_cast<int>(hist_.size()); }
  Move move_at(int i) const { return hist_[i].move; }
  std::vector<Move> moves() const;
  /// The deal this round started from (hands sorted by index, yard top first).
  Deal deal() const;

  bool is_over() const noexcept { return over_; }
  /// The result; throws StateError while the round goes on.
  const RoundResult& result() const;

  // ---- legal moves --------------------------------------------------------

  /// Tiles the player to move could place now (after a Draw: the drawn tile
  /// if it has a legal end). Empty when the round is over.
  TileSet placeable() const noexcept;
  /// Whether `seat`'s hand holds a legal placement on the legal ends now.
  bool has_legal_placement(int seat) const noexcept;
  /// Lowest legal end id the tile may go on now, -1 if none (ignores hands).
  int lowest_legal_end(int tile) const noexcept;

  /// Legal moves in canonical order (docs/rules.md 1.7): Places sorted by (tile,
  /// end id), then Draw, then Pass. `distinct` keeps, for each (tile, number
  /// attached by), the lowest end id only. `out` is cleared first.
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

  // ---- action ids (docs/rules.md 1.8) -----------------------------------------
  // Place of tile i by its low half is 2i, by its high half 2i+1 (a double:
  // 2i), meaning the distinct placement (lowest legal end of that number);
  // Draw is 2T, Pass 2T+1.

  int num_actions() const noexcept { return 2 * tiles_ + 2; }
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
  // Small scalars that a move may change; saved whole in each undo record.
  struct Flow {
    int16_t drawn = -1;     // tile drawn this turn, -1 none
    int8_t cur = 0;         // seat to move
    uint8_t obl_kind = 0;   // Pending
    uint8_t obl_left = 0;   // unfilled ends of the obligation
    uint8_t obl_pos = 0;    // index in the end arrays of the first unfilled one
    int16_t obl_lo = 0;     // obligation id range [lo, hi)
    int16_t obl_hi = 0;
    uint32_t unlocked = 0;  // Doubles
  };
  struct Record {
    Move move;
    int8_t mover;
    Flow before;
  };

  friend class Bots;  // its play_out() loop uses the inline fast path below

  explicit State(const Rules& rules);  // empty shell, then set_up / load_deal
  // The hot path, defined inline in state.cpp (where the simulation loop
  // lives) so that it inlines without LTO.
  inline int distinct_(Move* buf) const noexcept;
  inline void apply_(const Move& m) noexcept;
  void clear_round_() noexcept;
  void deal_out_(const uint8_t* deck, int n) noexcept;
  void place_centre_(int tile, int starter) noexcept;
  void load_deal_(const Deal& deal);
  void check_round_end_(int mover, bool placed) noexcept;
  void finish_(EndReason reason, int out_seat) noexcept;
  TileSet compute_legal_mask_() const noexcept;
  void refresh_legal_mask_() noexcept { legal_mask_ = compute_legal_mask_(); }
  bool fits_(int tile, int number) const noexcept;
  void legal_slice_(int& b, int& e) const noexcept;
  int find_end_(int id) const noexcept;
  int action_of_(const Move& legal) const noexcept;
  void add_end_(int id, int number) noexcept;
  void remove_end_at_(int i) noexcept;
  void insert_end_(int id, int number) noexcept;
  template <class Emit>
  void gen_places_(const TileSet& pool, bool distinct, Emit&& emit) const;
  template <class Place, class Other>
  void for_each_distinct_(Place&& place, Other&& other) const;
  template <bool kDoubles, class Emit>
  void gen_places_impl_(const TileSet& pool, bool distinct, Emit& emit) const;
  std::string ends_text_(bool legal_only) const;

  Rules rules_;
  int tiles_ = 0;  // T
  int round_index_ = 0;
  int8_t starter_ = 0;
  int16_t centre_ = -1;
  bool over_ = false;

  TileSet hands_[kMaxPlayers];
  TileSet deal_hands_[kMaxPlayers];  // hands right after the set-up

  uint8_t yard_[kMaxTiles];  // dealt order; the live yard is [yard_top_, yard_len_)
  int16_t yard_len_ = 0, yard_top_ = 0, yard_base_ = 0;  // base: top after the set-up

  int16_t end_id_[kMaxEnds];    // open ends, ascending id
  uint8_t end_num_[kMaxEnds];
  uint8_t n_ends_ = 0;
  uint8_t num_count_[kMaxNumbers];  // open ends per number
  uint32_t num_present_ = 0;        // bit v: some open end has number v
  int16_t next_end_ = 0;

  Flow f_;
  // Every tile that attaches to a legal end now (derived from the ends, the
  // obligation and the locks); refreshed whenever the layout changes.
  TileSet legal_mask_;

  Placement placed_[kMaxTiles];
  int16_t n_placed_ = 0;

  RoundResult result_;
  std::vector<Record> hist_;
};

}  // namespace dominocore
