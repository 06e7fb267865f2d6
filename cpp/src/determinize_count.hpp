// The count by tile of the exact determinizer (determinize.cpp,
// docs/information.md 4): the number of worlds of the slot model, and a
// uniform world drawn from it.
//
// When the proposals keep failing, the sampler counts the worlds exactly and
// samples from the count. It is a count of bijections between
// items and bins of given room, each item allowing some bins, done one item
// at a time in a fixed order: at level i (items i.. still to place) two bins
// are equivalent when every item still to place allows both or neither, and
// the state is the free room of each equivalence class. The number of
// completions S_i(f) = sum over the classes q item i may go to of
// f_q * S_{i+1}(f - e_q, merged into the classes of level i+1) depends on the
// state alone (the room of a class is interchangeable for the items left),
// and S_n = 1. Sampling puts item i into class q with probability
// f_q S_{i+1}(...) / S_i(f), then into a bin of q chosen in proportion to its
// free room: every bijection comes out with probability 1 / S_0.
//
// The items are the tiles and the bins the cells (a tile put in a cell goes to
// a uniform free slot of it: the cell's tiles are shuffled over its slots at
// the end). This count by tile is the W(i, c) of docs/information.md 4
// counted per slot rather than per cell (S = W times the orders inside the
// cells, the same for every assignment), with the tiles placed most
// constrained first rather than by index and with equivalent cells merged as
// the tiles that tell them apart are used up, which keeps the memo small:
// once only tiles allowed everywhere are left, one class remains. The states
// are found level by level from the start; each level's counts are scaled by
// a power of two (only ratios within a level are ever used), so no count
// overflows a double.
#pragma once

#include <cstdint>
#include <vector>

#include "dominocore/rng.hpp"
#include "dominocore/tiles.hpp"

namespace dominocore::detail {

class Count {
 public:
  /// `order`: the items, in the order the count places them; `bins_of[x]`:
  /// the bins item x may go to (bit b: bin b); `room[b]`: the room of bin b.
  /// Throws std::length_error past `max_states` memo entries.
  Count(const std::vector<int>& order, const std::vector<TileSet>& bins_of,
        const std::vector<int>& room, uint64_t max_states);

  /// A uniform bijection: bucket[b] receives the items put in bin b; `free`
  /// starts as the room of every bin (scratch).
  void sample(Rng& rng, std::vector<std::vector<int>>& bucket, std::vector<int>& free) const;

  uint64_t states() const noexcept { return states_; }
  uint64_t edges() const noexcept { return edges_; }
  /// log2 of the number of bijections.
  double log2_count() const noexcept { return log2_; }

 private:
  struct Edge {
    uint32_t child;  ///< the state it leads to at the next level
    uint16_t cls;    ///< the class the item goes to
    uint16_t mult;   ///< that class's free room (the number of ways)
  };
  struct Level {
    int item = -1;  ///< the item placed at this level
    int classes = 0;
    int words = 0;                    ///< key words: one byte per class
    std::vector<uint16_t> bin_begin;  ///< class q's bins: bins[bin_begin[q] .. bin_begin[q+1])
    std::vector<uint16_t> bins;
    std::vector<uint16_t> parent;  ///< the class of the next level containing class q
    std::vector<uint8_t> allows;   ///< this level's item may go to class q
    std::vector<uint16_t> cap;     ///< items from this level on that class q allows
    std::vector<uint64_t> keys;    ///< per state, `words` words (freed once expanded)
    std::vector<uint32_t> edge_begin;
    std::vector<Edge> edges;
    std::vector<double> value;  ///< S of each state, scaled by a power of two
  };

  /// The state's index at `level`, added if new; `index` is the level's hash index.
  uint32_t intern(Level& level, std::vector<int32_t>& index, const uint8_t* f);

  std::vector<Level> levels_;
  uint64_t max_states_ = 0, states_ = 0, edges_ = 0;
  double log2_ = 0;
};

}  // namespace dominocore::detail
