// The exact determinizer's state (determinize.cpp, docs/information.md 4):
// Determinizer::Impl and the bounds of its counts. Private to the
// determinize_*.cpp sources.
//
// Its parts, each in its own source:
//   determinize_model.cpp  the slot model: Impl::Impl replays the history and
//                          builds the slots, their cells and the proposal script
//   determinize.cpp        sampling: proposals, draws from a count, the deal
//                          they give, and the public Determinizer
//   determinize_build.cpp  building a count (Impl::build_count), by tile or by
//                          seat, of the exact model or a coarser one
//   determinize_count.*    the count by tile; seat_count.* the count by seat
//   determinize_infer.cpp  inference: worlds weighted by a model of the
//                          other seats' play (docs/information.md 5)
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "determinize_count.hpp"
#include "dominocore/determinize.hpp"
#include "dominocore/network.hpp"
#include "seat_count.hpp"

namespace dominocore {

/// The counts, each within a bound (each is cheap on some positions where the
/// other is not): the count by tile up to kTileStates memo entries (about 35
/// bytes and 0.5 us an entry: some 0.5 s and 40 MB), then the count by seat up
/// to kSeatWork units of work (a unit is some 30-60 ns: up to 2 s), first of
/// the exact model, then of coarser ones (Coarsening: a quarter fewer groups
/// of unseen tiles each time, the draws checked against the exact model). So
/// the build costs at most kTileStates entries and kSeatWork units per model
/// tried: the groups are at most the unseen tiles, so at most 19 models on
/// double-18. The coarsest model, one group, leaves only each seat's own
/// count of its placed tiles; were even that past its bound, or were a coarser
/// model's draws rejected kMaxProposals times in a row, the sampler would give
/// up with StateError rather than run without bound (neither has been seen:
/// docs/information.md 4).
inline constexpr uint64_t kTileStates = uint64_t{1} << 20;
inline constexpr uint64_t kSeatWork = uint64_t{1} << 25;
inline constexpr uint64_t kMaxProposals = uint64_t{1} << 22;
inline constexpr uint64_t kNoBound = ~uint64_t{0};

struct Determinizer::Impl {
  Rules rules;
  int seat = 0, players = 0;
  Deal base;  ///< the round's deal: the seat's own hand, the centre, the set-up's facts
  std::vector<Move> moves;
  std::vector<int> own_search;  ///< the seat's own search draws (the centre excluded), in order

  // The slots: each other seat's initial slots, then its Draw slots (fixed
  // ones left out), seat by seat; then the yard's, top first.
  struct SeatSlots {
    int first = 0;    ///< its first slot
    int slots = 0;    ///< its slots: the initial ones, then one per Draw (not fixed)
    int initial = 0;  ///< initial slots (the hand after the set-up)
    int search = 0;   ///< of which the last `search` are its search draws, in order
  };
  SeatSlots seats[kMaxPlayers];
  int yard_first = 0, n_slots = 0;
  std::vector<int> slot_cell;
  std::vector<TileSet> cell_allowed;  ///< the tiles each cell allows
  std::vector<int> cell_room, cell_begin,
      cell_slots;                   ///< cell k's slots: cell_slots[cell_begin[k]..]
  std::vector<int> tiles;           ///< the tiles to place (U and the placed ones)
  std::vector<int> pool;            ///< U
  std::vector<TileSet> tile_cells;  ///< by tile index: the cells it may go to

  /// A baseline proposal's script, in history order: seat `seat` gets slot
  /// `slot` (a Draw), or places `tile` (from a slot it got before).
  struct Op {
    int seat, slot, tile;
  };
  std::vector<Op> script;
  /// Per Draw of the history: its tile when public to the seat (its own, or
  /// placed right after), else -1 and the slot that holds it.
  std::vector<int> draw_tile, draw_slot;

  /// The round goes on although nobody may draw: some hand holds a tile of
  /// `live_tiles` now (checked only when the seat's own hand holds none).
  bool live_check = false;
  TileSet live_tiles;

  /// The count, built at most once for this information and shared by the
  /// clones of a determinizer (Determinizer::clone): built under its lock by
  /// the first that needs it, then only read (both counts sample from const
  /// methods with the caller's scratch).
  struct CountStore {
    std::mutex lock;
    bool built = false;                             ///< build_count ran (whatever it found)
    std::unique_ptr<detail::Count> count;           ///< the count by tile, when it fitted its bound
    std::unique_ptr<detail::SeatCount> seat_count;  ///< else the count by seat
    DeterminizerStats stats;                        ///< the count's fields of the statistics
  };
  std::shared_ptr<CountStore> store = std::make_shared<CountStore>();
  const detail::Count* count = nullptr;           ///< store's, once this copy has fetched it
  const detail::SeatCount* seat_count = nullptr;  ///< store's, once this copy has fetched it
  DeterminizerStats stats;

  // Scratch of one sample.
  std::vector<int> fill_order;  ///< the seats' slots, fewest unseen tiles allowed first
  std::vector<int> tile_of_slot, scratch;
  std::vector<int> avail[kMaxPlayers];
  std::vector<std::vector<int>> bucket;
  std::vector<int> free_room;

  /// The first world this copy sampled, replayed from its deal, and where its
  /// hidden tiles sit: every world is a copy of it with the tiles of its own
  /// draw written there (Determinizer::write_hidden), the State that
  /// replaying its deal would give, without the replay. Read-only once made
  /// (clones made after share it).
  struct Template {
    explicit Template(State w) : world(std::move(w)) {}
    State world;
    TileSet layout;  ///< the tiles placed (public): held by nobody
    /// (setup_draws index, slot): another seat's search draw.
    std::vector<std::pair<int, int>> search_refs;
    /// (history record, draw): the record's flow holds a hidden draw's tile.
    std::vector<std::pair<int, int>> drawn_refs;
    int live_draw = -1;  ///< the hidden draw whose tile is the flow's drawn tile now, -1: none
  };
  std::shared_ptr<const Template> templ;

  int proposals = Determinizer::kProposals;                  ///< per sample, before the count
  Determinizer::Method method = Determinizer::Method::Auto;  ///< the count to build
  Inference inference;                                       ///< none: uniform worlds
  /// The highest score a move can have: 0-0 under double_blank_50.
  static constexpr int kMaxScore = 50;
  std::vector<double> exp_gap;             ///< exp(-d / temperature) for d = 0..kMaxScore
  std::shared_ptr<const Network> network;  ///< the Learned model's (network_for(rules))
  void set_inference(const Inference& value);

  // Scratch of the inference (determinize_infer.cpp).
  std::optional<State> scratch_world;  ///< the candidate being weighed
  std::vector<Move> move_buf = std::vector<Move>(kMaxDistinctMoves);
  std::vector<std::pair<double, double>> terms;   ///< per weighed move: log P, log n
  std::vector<std::vector<int>> candidate_tiles;  ///< resampling: each candidate's tile_of_slot
  std::vector<double> candidate_log;              ///< ... and its log L, then its weight

  Impl(const State& state, int seat);
  /// One world's hidden tiles into tile_of_slot: the proposals, then the count.
  void draw(Rng& rng);
  bool propose(Rng& rng);
  bool alive() const;
  std::vector<int> tile_order() const;
  detail::SeatModel seat_model() const;
  /// Builds the count into `store` (the bounds above), or sets its
  /// stats.count_too_large; the caller holds store->lock.
  void build_count();
  /// Records what build_count built in store->stats.
  void count_built();
  /// Fetches the store's count (building it first if no copy has): after
  /// it, count or seat_count is set, or stats.count_too_large.
  void fetch_count();
  /// Draws a world from the count into tile_of_slot; false when it is a world
  /// of a coarser model that the exact model does not allow (rejected).
  bool from_count(Rng& rng);
  Deal assemble() const;
};

}  // namespace dominocore
