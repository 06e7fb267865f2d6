// One tree of the search bots: an iteration and what a tree reports
// (search_tree.hpp).
#include "search_tree.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "batch_play.hpp"
#include "dominocore/games/registry.hpp"
#include "dominocore/information.hpp"

namespace dominocore::detail {

namespace {

constexpr int kChanceCode = -3;  // beside move_code()'s Draw (-1) and Pass (-2)
/// Edges one tree may hold (32 bytes each): past it, a tree stops growing and
/// its iterations only walk and roll out.
constexpr size_t kMaxEdges = size_t{1} << 24;
/// The table of one node's legal moves by code: a power of two at least
/// twice the most moves.
constexpr uint32_t kMoveSlots = 4096;
static_assert(kMoveSlots >= 2 * kMaxDistinctMoves, "the table of moves is too small");

uint32_t code_hash(int code) noexcept { return (static_cast<uint32_t>(code) * 0x9E3779B1u) >> 16; }

/// Per seat, the reward of a finished world (docs/search.md "The reward"):
/// the round margin, or the seat's own points (negated where they are costs).
void rewards_of(const State& world, SearchReward kind, double* out) {
  const RoundResult& res = world.result();
  const Game game = world.rules().game;
  if (kind == SearchReward::Margin) return round_margins(world.rules(), res, out);
  for (int s = 0; s < res.players; ++s) {
    const double own = res.points[static_cast<size_t>(s)];
    out[s] = points_are_costs(game) ? -own : own;
  }
}

}  // namespace

TreeStats TreeSearch::stats(const std::vector<Move>& root_moves) const {
  TreeStats s;
  s.iterations = iterations_;
  s.edges = tree_.edges.size();
  for (const Move& m : root_moves) {
    const int e = tree_.find(0, move_code(m), -1);
    s.visits.push_back(e < 0 ? 0 : tree_.edges[static_cast<size_t>(e)].n);
    s.reward.push_back(e < 0 ? 0.0 : tree_.edges[static_cast<size_t>(e)].w);
  }
  return s;
}

int TreeSearch::puct_choice(State& world, int node, int n, int n_untried, const int* untried,
                            int* edge_of) {
  const Move* const buf = moves_.data();
  if (n_untried > 0) {
    if (tree_.edges.size() + static_cast<size_t>(n_untried) > kMaxEdges) return -1;
    // The prior of every legal move at once: one evaluation of the mover's
    // observation in this world (the same for every world of the mover's
    // information, when the mover is the searching seat).
    int ids[kMaxDistinctMoves];
    double probs[kMaxDistinctMoves];
    for (int i = 0; i < n; ++i) ids[i] = world.move_to_action(buf[i]);
    obs_.resize(static_cast<size_t>(net_->inputs()));
    observation_tensor(world, world.current_player(), obs_.data());
    net_->policy(obs_.data(), ids, n, probs);
    for (int j = 0; j < n_untried; ++j) {
      const int i = untried[j];
      const int e = tree_.add(node, move_code(buf[i]), -1);
      Edge& E = tree_.edges[static_cast<size_t>(e)];
      E.avail = 1;
      E.prior = static_cast<uint16_t>(std::lround(probs[i] * 65535.0));
      edge_of[i] = e;
    }
  }
  // An arm never taken is valued at the mean q of the arms taken here (or
  // 0.5): "first-play urgency" of the usual PUCT.
  const double range = tree_.hi > tree_.lo ? tree_.hi - tree_.lo : 1.0;
  double q_sum = 0;
  int q_count = 0;
  for (int i = 0; i < n; ++i) {
    const Edge& E = tree_.edges[static_cast<size_t>(edge_of[i])];
    if (E.n) q_sum += (E.w / E.n - tree_.lo) / range, ++q_count;
  }
  const double fpu = q_count ? q_sum / q_count : 0.5;
  int best = -1;
  double best_u = -std::numeric_limits<double>::infinity();
  for (int i = 0; i < n; ++i) {
    const Edge& E = tree_.edges[static_cast<size_t>(edge_of[i])];
    const double q = E.n ? (E.w / E.n - tree_.lo) / range : fpu;
    const double u =
        q + opt_.c * (E.prior / 65535.0) * std::sqrt(static_cast<double>(E.avail)) / (1.0 + E.n);
    if (u > best_u) {
      best_u = u;
      best = i;
    }
  }
  return best;
}

void TreeSearch::leaf_rewards(State& world) {
  if (!world.is_over() && opt_.leaf == SearchLeaf::Learned) {
    obs_.resize(static_cast<size_t>(net_->inputs()));
    for (int s = 0; s < players_; ++s) {
      observation_tensor(world, s, obs_.data());
      reward_[static_cast<size_t>(s)] = net_->value(obs_.data());
    }
    return;
  }
  if (!world.is_over()) {
    if (opt_.rollout == Policy::Learned) {  // the network reads the history: the recording loop
      while (!world.is_over()) world.push_unchecked(learned_move(world, *net_));
    } else {
      // Only the rollout's result is read, and the next iteration overwrites
      // the world whole (run()), so it goes without undo records.
      BatchPlay::play_out(world, rollout_, rollout_rng_);
    }
  }
  rewards_of(world, opt_.reward, reward_.data());
}

void TreeSearch::iterate(State& world, Rng& rng) {
  path_.clear();
  int node = 0, depth = 0;
  Move* const buf = moves_.data();
  int untried[kMaxDistinctMoves];
  int edge_of[kMaxDistinctMoves];
  int code_of[kMaxDistinctMoves];
  uint16_t slot[kMoveSlots];
  while (!world.is_over()) {
    if (opt_.max_depth > 0 && depth >= opt_.max_depth) break;
    const int mover = world.current_player();
    const int n = world.distinct_moves(buf);
    // Each legal move's edge, in one walk over the node's edges (which may be
    // many more than the moves: the arms of other worlds), the moves looked
    // up by code in a small open-addressing table (slot: 1 + the move's index).
    uint32_t mask = 15;
    while (mask + 1 < 2 * static_cast<uint32_t>(n)) mask = 2 * mask + 1;
    std::fill(slot, slot + mask + 1, uint16_t{0});
    for (int i = 0; i < n; ++i) {
      code_of[i] = move_code(buf[i]);
      edge_of[i] = -1;
      uint32_t h = code_hash(code_of[i]) & mask;
      while (slot[h]) h = (h + 1) & mask;
      slot[h] = static_cast<uint16_t>(i + 1);
    }
    for (int e = tree_.first[static_cast<size_t>(node)]; e >= 0;) {
      Edge& E = tree_.edges[static_cast<size_t>(e)];
      for (uint32_t h = code_hash(E.code) & mask; slot[h]; h = (h + 1) & mask)
        if (code_of[slot[h] - 1] == E.code) {
          edge_of[slot[h] - 1] = e;
          ++E.avail;
          break;
        }
      e = E.next;
    }
    int n_untried = 0;
    for (int i = 0; i < n; ++i)
      if (edge_of[i] < 0) untried[n_untried++] = i;
    int best = -1;
    if (opt_.prior == SearchPrior::Every || (opt_.prior == SearchPrior::Seat && mover == seat_)) {
      best = puct_choice(world, node, n, n_untried, untried, edge_of);
      if (best < 0) {  // the tree is full: a move without an edge, then the leaf
        world.push_unchecked(buf[untried[rng.below_unchecked(static_cast<uint64_t>(n_untried))]]);
        break;
      }
      if (tree_.edges[static_cast<size_t>(edge_of[best])].n == 0) {  // a new arm: the leaf
        path_.push_back(Step{edge_of[best], mover});
        world.push_unchecked(buf[best]);
        break;
      }
    } else {
      if (n_untried > 0) {
        const int i = untried[rng.below_unchecked(static_cast<uint64_t>(n_untried))];
        if (tree_.edges.size() < kMaxEdges) {
          const int e = tree_.add(node, move_code(buf[i]), -1);
          tree_.edges[static_cast<size_t>(e)].avail = 1;
          path_.push_back(Step{e, mover});
        }
        world.push_unchecked(buf[i]);
        break;  // expanded: the leaf
      }
      // UCB over the available arms, rewards scaled to [0, 1] by the range seen.
      const double range = tree_.hi > tree_.lo ? tree_.hi - tree_.lo : 1.0;
      double best_u = -std::numeric_limits<double>::infinity();
      for (int i = 0; i < n; ++i) {
        const Edge& E = tree_.edges[static_cast<size_t>(edge_of[i])];
        const double q = (E.w / E.n - tree_.lo) / range;
        const double u = q + opt_.c * std::sqrt(std::log(static_cast<double>(E.avail)) / E.n);
        if (u > best_u) {
          best_u = u;
          best = i;
        }
      }
    }
    const int e = edge_of[best];
    path_.push_back(Step{e, mover});
    world.push_unchecked(buf[best]);
    int next = tree_.child_of(e);
    if (buf[best].kind == MoveKind::Draw && mover == seat_) {
      // The seat sees its own draw: one child per tile, through a chance node.
      const int tile = world.drawn_tile();
      int ce = tree_.find(next, kChanceCode, tile);
      if (ce < 0) ce = tree_.add(next, kChanceCode, tile);
      next = tree_.child_of(ce);
    }
    node = next;
    ++depth;
  }
  leaf_rewards(world);
  for (int s = 0; s < players_; ++s) {
    tree_.lo = std::min(tree_.lo, reward_[static_cast<size_t>(s)]);
    tree_.hi = std::max(tree_.hi, reward_[static_cast<size_t>(s)]);
  }
  for (const Step& st : path_) {
    Edge& E = tree_.edges[static_cast<size_t>(st.edge)];
    ++E.n;
    E.w += reward_[static_cast<size_t>(st.mover)];
  }
}

}  // namespace dominocore::detail
