// One tree of the search bots (search.cpp, docs/search.md): a trie over the
// searching seat's information states, and the iterations that grow it.
// Private to search.cpp, which runs the trees, and search_tree.cpp, which
// holds an iteration.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "dominocore/move.hpp"
#include "dominocore/players.hpp"
#include "dominocore/rng.hpp"
#include "dominocore/search.hpp"
#include "dominocore/state.hpp"

namespace dominocore::detail {

using Clock = std::chrono::steady_clock;

struct Edge {
  int32_t code;    ///< the move's code (a chance edge: kChanceCode)
  int16_t drawn;   ///< a chance edge's tile
  uint16_t prior;  ///< with SearchOptions::prior: the policy's probability x 65535
  int32_t next;    ///< the next edge of the same node, -1 at the end
  int32_t child;   ///< the node it leads to, -1 until needed
  uint32_t n;      ///< visits
  uint32_t avail;  ///< visits of its node in which it was legal
  double w;        ///< summed reward of the mover (raw points)
};

struct Tree {
  std::vector<Edge> edges;
  std::vector<int32_t> first;  ///< first edge of each node
  double lo = std::numeric_limits<double>::infinity();
  double hi = -std::numeric_limits<double>::infinity();

  Tree() { first.push_back(-1); }
  int new_node() {
    first.push_back(-1);
    return static_cast<int>(first.size()) - 1;
  }
  int find(int node, int code, int drawn) const noexcept {
    for (int e = first[static_cast<size_t>(node)]; e >= 0; e = edges[static_cast<size_t>(e)].next)
      if (edges[static_cast<size_t>(e)].code == code &&
          edges[static_cast<size_t>(e)].drawn == drawn)
        return e;
    return -1;
  }
  int add(int node, int code, int drawn) {
    edges.push_back(Edge{code, static_cast<int16_t>(drawn), 0, first[static_cast<size_t>(node)], -1,
                         0, 0, 0.0});
    first[static_cast<size_t>(node)] = static_cast<int32_t>(edges.size()) - 1;
    return static_cast<int>(edges.size()) - 1;
  }
  int child_of(int e) {
    if (edges[static_cast<size_t>(e)].child < 0) {
      const int c = new_node();
      edges[static_cast<size_t>(e)].child = c;
    }
    return edges[static_cast<size_t>(e)].child;
  }
};

/// What one tree (IS-MCTS: one of the trees; PIMC: one world's) reports.
struct TreeStats {
  std::vector<uint64_t> visits;  ///< per root move
  std::vector<double> reward;    ///< summed raw reward of the searching seat
  uint64_t iterations = 0, edges = 0;
};

class TreeSearch {
 public:
  /// `net`: the learned network when o.uses_network() (it outlives the tree).
  TreeSearch(const SearchOptions& o, int seat, int players, const Network* net)
      : opt_(o),
        seat_(seat),
        players_(players),
        net_(net),
        moves_(static_cast<size_t>(kMaxDistinctMoves)) {
    std::fill(rollout_, rollout_ + kMaxPlayers, o.rollout);
  }

  /// Runs up to `budget` iterations, each on the world `world_of(rng,
  /// world)` writes into `world` (empty at first; then the last iteration's,
  /// whose buffers it may reuse): a new determinization (IS-MCTS) or a copy of
  /// a fixed world (PIMC's worlds, cheat). When `timed`, it stops once `stop`
  /// has passed since `begin`, but never before its first iteration.
  template <class WorldOf>
  void run(WorldOf world_of, Rng& rng, uint64_t budget, bool timed, Clock::time_point begin,
           Clock::duration stop) {
    start(rng);
    std::optional<State> world;
    for (uint64_t it = 0; it < budget; ++it) {
      if (timed && it > 0 && Clock::now() - begin >= stop) break;
      world_of(rng, world);
      iterate(*world, rng);
      ++iterations_;
    }
  }

  /// What the tree found for each root move.
  TreeStats stats(const std::vector<Move>& root_moves) const;

 private:
  struct Step {
    int edge, mover;
  };

  void start(Rng& rng) {
    rollout_rng_.set_state(rng.next());
    reward_.assign(static_cast<size_t>(players_), 0.0);
  }

  /// One iteration on `world`: the walk down the tree (UCB over the moves
  /// legal in the world, or PUCT), one expansion, the leaf's value (a
  /// rollout, or the learned value), the backup.
  void iterate(State& world, Rng& rng);
  /// PUCT's step at a node (docs/learning.md 5): gives every legal move
  /// without an edge one, with the policy's prior (a network evaluation),
  /// then returns the index of the move maximising q + c P sqrt(avail) / (1 + n).
  int puct_choice(State& world, int node, int n, int n_untried, const int* untried, int* edge_of);
  /// Every seat's reward at a leaf: a rollout's result, or the learned value.
  void leaf_rewards(State& world);

  SearchOptions opt_;
  int seat_;
  int players_;
  const Network* net_;
  Rng rollout_rng_;              // the random rollouts' generator
  Policy rollout_[kMaxPlayers];  // every seat's rollout policy
  Tree tree_;
  std::vector<Step> path_;
  /// The legal moves at a node: a buffer of the most moves, made once (a
  /// local array of Move, whose members have initialisers, would be
  /// initialised whole at every iteration).
  std::vector<Move> moves_;
  std::vector<double> reward_;
  std::vector<float> obs_;  // an observation tensor, for the network
  uint64_t iterations_ = 0;
};

}  // namespace dominocore::detail
