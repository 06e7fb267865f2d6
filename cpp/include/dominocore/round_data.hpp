// The data of one round, shared by every game: what State holds and what a
// game's hooks (dominocore/games/) read and write.
//
// Layout model (docs/rules.md 1.3): the open ends are kept as (id, number)
// pairs in ascending id order in a small fixed array. New ends always get the
// highest ids, so they are appended; a pending obligation (the start double's
// unfilled slots, a chicken foot's toes, Mexican Train's unsatisfied double)
// is then always a contiguous slice of that array. Legality is bitset work:
// candidate tiles = hand & (OR of the number masks of the legal ends).
//
// Everything a move may change besides the layout, the hands and the yard
// sits in Flow, which every undo record saves whole.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

#include "dominocore/move.hpp"
#include "dominocore/rules.hpp"
#include "dominocore/tiles.hpp"

namespace dominocore {

/// Most open ends at once: 8 start slots + 2 net per double placed (3 ends
/// for 1 consumed) over at most 18 further doubles = 44.
inline constexpr int kMaxEnds = 48;
/// remove_end_at moves the end arrays down in blocks of this many entries.
inline constexpr int kEndBlock = 16;
/// Entries of the end arrays past kMaxEnds, which remove_end_at's last block
/// may read (and write as garbage past the open ends): it starts below
/// kMaxEnds - 1 and reads kEndBlock entries from the next.
inline constexpr int kEndSlack = kEndBlock;
/// Bound on a distinct legal-move listing: a placement per tile and end
/// (2 per tile in the fixed action space, p + 1 trains in Mexican Train)
/// is below 9 per tile; plus Draw or Pass.
inline constexpr int kMaxDistinctMoves = (kMaxPlayers + 1) * kMaxTiles + 2;
/// The number of an end that takes any tile: Block's lead end
/// (docs/games/block.md B3). Shown as -1 (C++) / None (Python).
inline constexpr int kNoNumber = kMaxNumbers;
/// The largest match total a round may carry (all_fives.md F8).
inline constexpr int kMaxCarried = 1000000000;

/// Target: a placement brought its side's match total to the target and the
/// round stopped there (docs/games/all_fives.md F8).
enum class EndReason : uint8_t { None = 0, Out = 1, Blocked = 2, Target = 3 };
/// "out", "blocked", "target" ("none" while the round goes on).
const char* end_reason_name(EndReason r) noexcept;

/// A pending obligation: the ends that must be filled before any other.
/// Start: the start double's slots; Foot: a chicken foot's toes (Chicken
/// Foot). Double: the end of an unsatisfied double (Mexican Train).
enum class Pending : uint8_t { None = 0, Start = 1, Foot = 2, Double = 3 };

/// One tile of the layout. A double placed by the set-up (centre, engine) is
/// placement 0 with end = -1.
struct Placement {
  int16_t tile;     ///< tile index
  int16_t end;      ///< end id it was attached to, -1 for the set-up's double
  int16_t first;    ///< first end id it created (they are consecutive)
  uint8_t created;  ///< how many ends it created
  uint8_t by;       ///< number it attached by (set-up double: its number; Block's lead: kNoNumber)
  int8_t seat;      ///< who placed it (the set-up's double: the starter)
  int8_t train;     ///< Mexican Train: the train it went on; -1 otherwise
};

struct RoundResult {
  EndReason reason = EndReason::None;
  int out_seat = -1;  ///< seat that went out, -1 when blocked
  int players = 0;
  std::array<int, kMaxPlayers> points{};  ///< per seat (first `players` used)
  int starter = -1;
  int moves = 0;  ///< moves played after the set-up
  int round_index = 0;
  /// The seat that made the round's last placement (the set-up's double
  /// counts as the starter's), -1 if none: the blocker of a blocked Block
  /// round (docs/games/partnership.md P4).
  int last_placer = -1;
  /// points = play_points + end_points: what was scored during play (zeros
  /// in the games that score only at the end) and at the end of the round.
  std::array<int, kMaxPlayers> play_points{};
  std::array<int, kMaxPlayers> end_points{};
};

// points_are_costs(game) and round_margins(rules, result, out), which read a
// game's module, are declared with the registry (games/registry.hpp).

/// Small scalars that a move may change; saved whole in each undo record.
struct Flow {
  int16_t drawn = -1;    ///< tile drawn this turn, -1 none
  int8_t cur = 0;        ///< seat to move
  uint8_t obl_kind = 0;  ///< Pending
  uint8_t obl_left = 0;  ///< unfilled ends of the obligation
  uint8_t obl_pos = 0;   ///< index in the end arrays of the first unfilled one
  /// All Fives: the index in `placed` of the spinner, -1 while none is down
  /// (kept here so that finding it costs nothing and undo restores it).
  int8_t spinner = -1;
  int16_t obl_lo = 0;  ///< obligation id range [lo, hi)
  int16_t obl_hi = 0;
  uint16_t markers = 0;   ///< Mexican Train: bit s, seat s's train carries a marker
  uint32_t unlocked = 0;  ///< bit v: non-doubles may attach to number v (Doubles' locks)

  friend bool operator==(const Flow& a, const Flow& b) noexcept {
    return a.drawn == b.drawn && a.cur == b.cur && a.obl_kind == b.obl_kind &&
           a.obl_left == b.obl_left && a.obl_pos == b.obl_pos && a.obl_lo == b.obl_lo &&
           a.obl_hi == b.obl_hi && a.markers == b.markers && a.unlocked == b.unlocked &&
           a.spinner == b.spinner;
  }
};

/// The undo record of one move.
struct Record {
  Move move;
  int8_t mover;
  Flow before;
  int16_t points = 0;  ///< what the move scored for the mover's side (games scoring in play)
};

// The shift of insert_end (undo) moves a handful of entries; GCC would turn
// the loop into a memmove call, which costs more than the loop (about 5% of a
// simulation, when remove_end_at had such a loop). An empty asm statement
// keeps the loop as written.
#if defined(__GNUC__) && !defined(__clang__)
#define DOMINOCORE_NO_MEMMOVE() __asm__ volatile("" ::: "memory")
#else
#define DOMINOCORE_NO_MEMMOVE() ((void)0)
#endif

struct RoundData {
  // The fields are in order of use: first what every move reads or writes,
  // in as few cache lines as possible (a VectorEnv step visits thousands of
  // rounds in turn, each from memory), then what the set-up, draws, the
  // result and the analysis code read.

  // ---- read or written by every move --------------------------------------
  Rules rules;
  int tiles = 0;  ///< T
  int round_index = 0;
  int8_t starter = 0;
  int16_t centre = -1;  ///< the set-up's double (centre, engine), -1 if none (Block)
  bool over = false;

  Flow f;
  /// Every tile that attaches to a legal end now for some seat (derived from
  /// the ends, the obligation and the locks); refreshed whenever they change.
  TileSet legal_mask;

  int16_t yard_len = 0, yard_top = 0, yard_base = 0;  ///< base: the top after the set-up
  uint8_t n_ends = 0;
  uint8_t root_ends = 0;  ///< ends the set-up opened without a tile (Block's lead end)
  int16_t next_end = 0;
  int16_t n_placed = 0;
  uint32_t num_present = 0;  ///< bit v: some open end has number v
  /// Moves played since the set-up: hist.size(), but for the batch loop of
  /// simulate, which keeps no undo records.
  int n_moves = 0;
  std::vector<Record> hist;
  uint8_t num_count[kMaxNumbers + 1];  ///< open ends per number (kNoNumber included)

  int16_t end_id[kMaxEnds + kEndSlack];  ///< open ends, ascending id
  uint8_t end_num[kMaxEnds + kEndSlack];
  TileSet hands[kMaxPlayers];

  /// Games that score during play (docs/games/all_fives.md F5, F8): each
  /// seat's points scored in play this round (partners hold their team's),
  /// and its match total before the round (0 in every other game).
  std::array<int, kMaxPlayers> play_points{};
  std::array<int, kMaxPlayers> carried{};

  // ---- read by the set-up, at draws, at the end and by analysis -----------
  uint8_t yard[kMaxTiles];  ///< dealt order; the live yard is [yard_top, yard_len)
  Placement placed[kMaxTiles];
  RoundResult result;
  TileSet deal_hands[kMaxPlayers];  ///< hands right after the set-up

  /// The set-up's public facts (State::deal()): Chicken Foot cross's search
  /// for the round's double in draw order, and whether the centre was chosen
  /// as the highest double dealt.
  uint8_t setup_draws[kMaxTiles];
  int16_t n_setup_draws = 0;
  bool highest_double = false;

  // ---- small helpers shared by the engine and the games -----------------

  int players() const noexcept { return rules.players; }
  int yard_size() const noexcept { return yard_len - yard_top; }
  /// The seat after `seat`, clockwise (docs/rules.md 1.2).
  int next_seat(int seat) const noexcept { return seat + 1 == rules.players ? 0 : seat + 1; }
  /// The turn passes to the next seat: what follows a placement or a pass in
  /// every game (Mexican Train's double excepted).
  void turn_to_next(int mover) noexcept { f.cur = static_cast<int8_t>(next_seat(mover)); }
  /// `points` (maybe negative: undo) to the side of `seat`: every seat of its team.
  void add_play_points(int seat, int points) noexcept {
    const int team = rules.team_of(seat);
    for (int s = 0; s < rules.players; ++s)
      if (rules.team_of(s) == team) play_points[s] += points;
  }

  /// Index of the open end `id` in the arrays, -1 if it is not open.
  int find_end(int id) const noexcept {
    for (int i = 0; i < n_ends; ++i) {
      if (end_id[i] == id) return i;
      if (end_id[i] > id) break;
    }
    return -1;
  }
  /// Appends an open end (its id must be above every open one).
  void add_end(int id, int number) noexcept {
    end_id[n_ends] = static_cast<int16_t>(id);
    end_num[n_ends] = static_cast<uint8_t>(number);
    ++n_ends;
    ++num_count[number];
    num_present |= 1u << number;
  }
  /// Opens a new end of `number` with the next id.
  void open_new_end(int number) noexcept { add_end(next_end++, number); }
  void remove_end_at(int i) noexcept {
    const int v = end_num[i];
    // The later ends move down one, a block at a time: a loop over the ends
    // mispredicted its exit about once a placement, and this one almost
    // always runs once (docs/performance.md 3).
    for (int j = i; j < n_ends - 1; j += kEndBlock) {
      move_down_block(end_id + j);
      move_down_block(end_num + j);
    }
    --n_ends;
    --num_count[v];
    num_present &= ~(uint32_t{num_count[v] == 0} << v);  // without a branch, which mispredicted
  }
  /// at[0, kEndBlock) = at[1, kEndBlock], each read before any is written.
  template <class T>
  static void move_down_block(T* at) noexcept {
    T block[kEndBlock];
    std::memcpy(block, at + 1, sizeof block);
    std::memcpy(at, block, sizeof block);
  }
  /// Puts an end back at its place in id order (undo).
  void insert_end(int id, int number) noexcept {
    int j = n_ends;
    while (j > 0 && end_id[j - 1] > id) {
      end_id[j] = end_id[j - 1];
      end_num[j] = end_num[j - 1];
      --j;
      DOMINOCORE_NO_MEMMOVE();
    }
    end_id[j] = static_cast<int16_t>(id);
    end_num[j] = static_cast<uint8_t>(number);
    ++n_ends;
    ++num_count[number];
    num_present |= 1u << number;
  }

  /// The ends [pos, pos + count) of the arrays, ids [lo, lo + count), become
  /// an obligation of `kind`.
  void set_obligation(Pending kind, int pos, int count) noexcept {
    f.obl_kind = static_cast<uint8_t>(kind);
    f.obl_left = static_cast<uint8_t>(count);
    f.obl_pos = static_cast<uint8_t>(pos);
    f.obl_lo = end_id[pos];
    f.obl_hi = static_cast<int16_t>(end_id[pos] + count);
  }
  void clear_obligation() noexcept {
    f.obl_kind = 0;
    f.obl_left = 0;
    f.obl_pos = 0;
    f.obl_lo = f.obl_hi = 0;
  }
  /// The legal ends: the obligation's unfilled ends, else every open end.
  void legal_slice(int& b, int& e) const noexcept {
    if (f.obl_left) {
      b = f.obl_pos;
      e = f.obl_pos + f.obl_left;
    } else {
      b = 0;
      e = n_ends;
    }
  }

  /// Seat s takes deck[s*h .. s*h+h-1]; the rest of the n tiles, in order,
  /// is the yard (top first).
  void deal_out(const uint8_t* deck, int n) noexcept;
  /// The set-up's double `tile` (or, with tile -1, no tile) goes down for
  /// `starter` and opens `count` ends of its number (kNoNumber without a
  /// tile), ids 0 .. count-1. The flow starts afresh with every number unlocked.
  void open_root(int tile, int starter, int count) noexcept;
};

}  // namespace dominocore
