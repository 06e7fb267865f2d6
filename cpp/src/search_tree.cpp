// One tree of the search bots: an iteration and what a tree reports
// (search_tree.hpp).
#include "search_tree.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "batch_play.hpp"
#include "dominocore/games/registry.hpp"

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
    if (n_untried > 0) {
      const int i = untried[rng.below_unchecked(static_cast<uint64_t>(n_untried))];
      if (tree_.edges.size() < kMaxEdges) {
        const int e = tree_.add(node, move_code(buf[i]), -1);
        tree_.edges[static_cast<size_t>(e)].avail = 1;
        path_.push_back(Step{e, mover});
      }
      world.push_unchecked(buf[i]);
      break;  // expanded: roll out
    }
    // UCB over the available arms, rewards scaled to [0, 1] by the range seen.
    const double range = tree_.hi > tree_.lo ? tree_.hi - tree_.lo : 1.0;
    int best = -1;
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
  // The rollout: only its result is read, and the next iteration overwrites
  // the world whole (run()), so it goes without undo records.
  if (!world.is_over()) BatchPlay::play_out(world, rollout_, rollout_rng_);
  rewards_of(world, opt_.reward, reward_.data());
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
