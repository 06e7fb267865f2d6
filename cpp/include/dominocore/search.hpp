// Search bots (docs/search.md): single-observer information-set MCTS
// (Cowling, Powley & Whitehouse 2012), perfect-information Monte Carlo over
// determinizations (Long et al. 2010), and a cheating MCTS that reads the true
// state (an evaluation ceiling only, never a default).
//
// Every search is a pure function of (the position as the searching seat
// knows it, the options): IS-MCTS and PIMC read the state only through one
// Determinizer of the seat to move (docs/information.md 4) and through the
// worlds it samples, so two states the seat cannot tell apart give the same
// move for the same seed. The cheating search reads the state itself.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "dominocore/determinize.hpp"
#include "dominocore/move.hpp"
#include "dominocore/players.hpp"
#include "dominocore/rules.hpp"
#include "dominocore/state.hpp"

namespace dominocore {

enum class SearchAlgorithm : uint8_t { ISMCTS = 0, PIMC = 1, Cheat = 2 };
/// The reward maximised (docs/search.md "The reward").
enum class SearchReward : uint8_t { Margin = 0, Own = 1 };

/// Where PUCT over the learned policy's prior replaces UCB (docs/learning.md
/// 5): nowhere, at the searching seat's own nodes only, or at every node.
enum class SearchPrior : uint8_t { None = 0, Seat = 1, Every = 2 };

/// What a leaf of the tree is worth: a rollout's result, or the learned
/// network's value of each seat there (docs/learning.md 5).
enum class SearchLeaf : uint8_t { Rollout = 0, Learned = 1 };

/// "ismcts" / "pimc" / "cheat"; throws RulesError otherwise.
SearchAlgorithm parse_search_algorithm(std::string_view s);
/// "margin" / "own"; throws RulesError otherwise.
SearchReward parse_search_reward(std::string_view s);
/// "rollout" / "learned"; throws RulesError otherwise.
SearchLeaf parse_search_leaf(std::string_view s);

/// The most iterations one search may run, and the most trees or worlds.
inline constexpr uint64_t kMaxSearchIterations = uint64_t{1} << 32;
inline constexpr int kMaxSearchTrees = 4096;

struct SearchOptions {
  SearchAlgorithm algorithm = SearchAlgorithm::ISMCTS;
  /// Total iterations over every tree (0: no bound, then `seconds` must be > 0).
  uint64_t iterations = 1000;
  /// Wall-clock budget in seconds (0: none) for the whole search, from its
  /// start: each tree gets a slice of the time left when it starts (see
  /// search.cpp), and runs at least one iteration. With both budgets, the
  /// first reached stops. Any finite value is allowed: past what the clock can
  /// hold, the budget is no bound at all (it saturates).
  double seconds = 0;
  /// UCB exploration constant, on rewards scaled to [0, 1].
  double c = 0.7;
  /// The rollout policy after the tree: random, greedy or learned play for
  /// every seat.
  Policy rollout = Policy::Random;
  /// Where PUCT over the learned policy's prior replaces UCB (docs/learning.md 5).
  SearchPrior prior = SearchPrior::None;
  /// What a leaf is worth: a rollout, or the learned value (reward margin only).
  SearchLeaf leaf = SearchLeaf::Rollout;
  /// IS-MCTS and cheat: independent trees (root parallelism) whose visit
  /// counts are summed; PIMC: the number of worlds (determinizations).
  int trees = 1;
  /// Worker threads the trees (or worlds) are spread over; no effect on results.
  int threads = 1;
  uint64_t seed = 0;
  SearchReward reward = SearchReward::Margin;
  /// The depth of the tree below the root, in moves: 0 is unbounded; 1 makes
  /// a flat Monte Carlo search (UCB over the root moves, then a rollout).
  int max_depth = 0;
  /// IS-MCTS and PIMC: the worlds weighted by a model of the other seats'
  /// play (docs/information.md 5); the default model none draws them uniformly.
  Inference inference;
  /// IS-MCTS with a model: 0 draws every iteration's world from the weighted
  /// determinizer (inference.candidates); P > 0 makes each tree draw P
  /// uniform worlds once, weigh them, and give every iteration one of them,
  /// picked in proportion to its likelihood (docs/search.md 2).
  int pool = 0;
  static constexpr int kMaxPool = 1 << 16;

  /// Throws RulesError for a value out of range.
  void validate() const;
  /// Whether the search evaluates the learned network (its prior, its
  /// rollouts or its leaf value): search() then needs network_for(rules).
  bool uses_network() const noexcept {
    return prior != SearchPrior::None || leaf == SearchLeaf::Learned || rollout == Policy::Learned;
  }
};

/// The outcome of one search: the move, and per root move (the distinct
/// legal moves in canonical order) its visits and mean reward (unscaled, in
/// points, for the searching seat), summed over the trees.
struct SearchResult {
  Move move;
  std::vector<Move> moves;
  std::vector<uint64_t> visits;
  std::vector<double> mean_reward;
  uint64_t iterations = 0;                ///< iterations run, over every tree
  std::vector<uint64_t> tree_iterations;  ///< iterations run by each tree (PIMC: each world)
  uint64_t nodes = 0;                     ///< tree edges created, over every tree
  double seconds = 0;                     ///< wall-clock time of the search
  bool reused = false;  ///< the determinizer came from the SearchCache (built before)
};

/// What a search bot keeps between its searches: the determinizers (with
/// their counts, once built) of the last kEntries information states it
/// searched, keyed by the rules and the seat's information state string (its
/// hash first; the string holds the seat and every public fact). Searching one of them again
/// reuses it: no slot model and no count to build. Thread-safe (one lock; the
/// counts are built under their own, outside it) and bounded: the least
/// recently used entry goes first.
class SearchCache {
 public:
  static constexpr size_t kEntries = 4;
  SearchCache();
  ~SearchCache();
  SearchCache(const SearchCache&) = delete;
  SearchCache& operator=(const SearchCache&) = delete;

  /// Entries held, and the searches that found (hits) or built (misses) their
  /// determinizer here.
  size_t size() const;
  uint64_t hits() const;
  uint64_t misses() const;
  void clear();

  struct Impl;
  Impl& impl() noexcept { return *impl_; }

 private:
  std::unique_ptr<Impl> impl_;
};

/// Searches for the seat to move in `state`. Throws StateError when the round
/// is over (or the state is inconsistent: the determinizer cannot read it),
/// RulesError for bad options. A position with one legal move returns it
/// without searching (iterations 0). `cache` (IS-MCTS and PIMC; may be null)
/// supplies and keeps the determinizer of the seat's information state. The
/// GIL is the caller's business: this runs on native threads only, and
/// `state` must not change while it runs (search a copy).
SearchResult search(const State& state, const SearchOptions& options, SearchCache* cache = nullptr);

/// What a seat knows (a PlayerView's information): enough to build a state
/// that the seat cannot tell from the real one.
struct SeatKnowledge {
  int seat = 0;
  int round_index = 0;
  int centre = -1;
  int starter = 0;
  bool highest_double = false;
  std::vector<int> hand;           ///< the seat's current hand
  std::vector<int> hand_sizes;     ///< every seat's hand size now
  std::vector<int> own_search;     ///< the seat's own search draws (cross), in order
  std::vector<int> search_counts;  ///< per seat, its search draws (the starter's includes
                                   ///< the centre)
  std::vector<int> movers;         ///< the history: who moved
  std::vector<Move> moves;         ///< ... what
  std::vector<int> drawn;          ///< ... and the tile of the seat's own Draws (else -1)
  std::vector<int> carried;        ///< each seat's match total before the round (empty: none)
  /// The round ended with the history's last move (or at the set-up): the
  /// state may then be over. Otherwise a state over after the history is
  /// not one with this information.
  bool over = false;
};

/// A state whose information for `k.seat` is `k` (hidden tiles made up:
/// placed tiles in slots their placer held, the rest arbitrary), built from
/// `k` alone. Only for searching: the state is not a likely world (the other
/// seats' passes are not honoured), but the determinizer of k.seat built on
/// it equals the one built on any state with this information.
///
/// `k` is untrusted (a PlayerView from a client): every field is checked
/// before any allocation or loop sized by it (the seat, the round index, the
/// centre and starter by the game's set-up, every size against the set, the
/// cross's search counts against the rotation, the seat's own tiles and
/// draws, the hand counts through the history), and the history is replayed
/// with every move checked: the seat to move, and the move legal (the other
/// seats' Draws and Passes only as far as they do not depend on their hidden
/// tiles). Whether some deal of the hidden tiles honours every Draw and Pass
/// is the determinizer's to find (search() reports StateError when it finds
/// none). Throws StateError for knowledge no round can give, never UB.
State state_from_knowledge(const Rules& rules, const SeatKnowledge& k);

}  // namespace dominocore
