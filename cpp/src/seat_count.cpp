// The count by seat (see seat_count.hpp and docs/information.md 4): the
// count across seats, whose state is the tiles of U left in each group. One
// seat's count, SeatCount::Chain, is in seat_count_chain.hpp / .cpp.
#include "seat_count.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <unordered_map>
#include <utility>
#include <vector>

#include "seat_count_chain.hpp"

namespace dominocore::detail {

// ---- across seats: the tiles of U left in each group ------------------------

struct SeatCount::Stage {
  int groups = 0;
  int need = 0;                         ///< tiles of U this stage's seat receives
  std::vector<uint8_t> start;           ///< per group: its start class at this stage's seat
  std::vector<uint16_t> parent;         ///< per group: its group at the next stage
  Table states;                         ///< the tiles left in each group, state by state
  std::vector<double> value;            ///< per state: the ways to complete it (scaled)
  std::vector<std::vector<int>> tiles;  ///< the first stage: the tiles of each group
};

namespace {

/// Enumerates the ways a stage's seat takes `need` tiles from state r: x[g]
/// tiles of each group it allows. visit(weight) sees the weight
/// prod C(r_g, x_g) and the resulting h (per start class) and next (tiles left
/// per group of the next stage), with their hashes, and x; it returns false to
/// stop.
struct Takes {
  const SeatCount::Stage& S;
  const uint8_t* r;
  const std::vector<int>& most_free;
  std::vector<int> order, cap_after;
  std::vector<uint8_t> x, h, next;
  uint64_t h_hash = 0, next_hash = 0;

  Takes(const SeatCount::Stage& stage, const SeatCount::Stage& following,
        const SeatCount::Chain& chain, const uint8_t* left)
      : S(stage),
        r(left),
        most_free(chain.most_free),
        x(static_cast<size_t>(stage.groups), 0),
        h(chain.starts.size(), 0),
        next(static_cast<size_t>(following.groups), 0) {
    for (int g = 0; g < S.groups; ++g) {
      const size_t gs = static_cast<size_t>(g);
      next[S.parent[gs]] = static_cast<uint8_t>(next[S.parent[gs]] + r[g]);
      if (S.start[gs] != kNone && r[g] > 0) order.push_back(g);
    }
    // Latest start first: the tiles taken so far then all start at or after
    // the current group's, and more than the most free positions there fill
    // no profile (A(h) = 0), which prunes the walk.
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
      return S.start[static_cast<size_t>(a)] > S.start[static_cast<size_t>(b)];
    });
    next_hash = hash_of(next.data(), next.size());
    cap_after.assign(order.size(), 0);
    for (size_t i = order.size(); i-- > 1;) cap_after[i - 1] = cap_after[i] + r[order[i]];
  }

  template <class Visit>
  bool run(Visit&& visit) {
    return walk(0, S.need, 1.0, visit);
  }

  template <class Visit>
  bool walk(size_t i, int budget, double w, Visit& visit) {
    if (i == order.size()) return budget == 0 ? visit(w) : true;
    const int g = order[i];
    const size_t gs = static_cast<size_t>(g);
    const size_t c = S.start[gs], up = S.parent[gs];
    const int lo = std::max(0, budget - cap_after[i]);
    const int hi = std::min({static_cast<int>(r[g]), budget, most_free[c] - (S.need - budget)});
    for (int v = lo; v <= hi; ++v) {
      const uint64_t dv = static_cast<uint64_t>(v);
      x[gs] = static_cast<uint8_t>(v);
      h[c] = static_cast<uint8_t>(h[c] + v);
      next[up] = static_cast<uint8_t>(next[up] - v);
      h_hash += dv * position_key(c);
      next_hash -= dv * position_key(up);
      const bool go = walk(i + 1, budget - v, w * choose(r[g], v), visit);
      h[c] = static_cast<uint8_t>(h[c] - v);
      next[up] = static_cast<uint8_t>(next[up] + v);
      h_hash -= dv * position_key(c);
      next_hash += dv * position_key(up);
      x[gs] = 0;
      if (!go) return false;
    }
    return true;
  }
};

/// The tiles of U left with each start of the last seat (a state of its stage:
/// one group per start, and one of the tiles it may not hold).
std::vector<int> left_by_start(const SeatCount::Stage& S, const SeatCount::Chain& ch,
                               const uint8_t* r) {
  std::vector<int> left(ch.starts.size(), 0);
  for (int g = 0; g < S.groups; ++g)
    if (S.start[static_cast<size_t>(g)] != kNone) left[S.start[static_cast<size_t>(g)]] = r[g];
  return left;
}

}  // namespace

double SeatCount::count(size_t k, const uint8_t* r, uint64_t hash, uint64_t max_work) {
  if (k == chains_.size()) return 1;  // the rest of U fills the yard
  Stage &S = *stages_[k], &N = *stages_[k + 1];
  const int64_t known = S.states.find(hash, r);
  if (known >= 0) return S.value[static_cast<size_t>(known)];
  if (++work_ > max_work) throw std::length_error("the count outgrew its bound");
  Chain& ch = *chains_[k];
  double v = 0;
  if (ch.sums) {  // the last seat, summed over its h
    const std::vector<int> left = left_by_start(S, ch, r);
    work_ += ch.sum_steps;
    v = ch.sum_fills(left.data(), nullptr);
    S.states.add(hash, r);
    S.value.push_back(v);
    return v;
  }
  Takes t(S, N, ch, r);
  t.run([&](double w) {
    const double fill = ch.fill_memoised(t.h.data(), t.h_hash, work_);
    if (++work_ > max_work) throw std::length_error("the count outgrew its bound");
    if (fill > 0) v += w * fill * count(k + 1, t.next.data(), t.next_hash, max_work);
    return true;
  });
  S.states.add(hash, r);  // after the takes: they only add states of later stages
  S.value.push_back(v);
  return v;
}

double SeatCount::counted(size_t k, const uint8_t* r, uint64_t hash) const {
  if (k == chains_.size()) return 1;
  const Stage& S = *stages_[k];
  const int64_t i = S.states.find(hash, r);
  return i >= 0 ? S.value[static_cast<size_t>(i)] : 0;
}

SeatCount::SeatCount(const SeatModel& model, uint64_t max_work) {
  const size_t m = model.seats.size(), U = model.pool.size();
  std::vector<std::vector<uint8_t>> start_of(m);
  int taken = 0;
  double log2_scale = 0;  // the count is the true one times 2^-log2_scale
  for (size_t k = 0; k < m; ++k) {
    chains_.push_back(std::make_unique<Chain>());
    build_chain(*chains_[k], model.seats[k], model.pool, start_of[k], work_, max_work);
    taken += chains_[k]->n - static_cast<int>(chains_[k]->items.size());
    log2_scale += chains_[k]->log2_scale;
  }
  if (taken > static_cast<int>(U)) throw std::logic_error("determinize: more slots than tiles");
  // The order of the stages: a stage enumerates its seat's takes from every
  // state reached, and the states are the ways the tiles left spread over the
  // groups of the seats after it. So each next seat is the one whose removal
  // leaves the fewest groups (patterns of starts over the seats still after).
  {
    std::vector<size_t> order, rest(m);
    for (size_t k = 0; k < m; ++k) rest[k] = k;
    while (!rest.empty()) {
      size_t best = 0, fewest = SIZE_MAX;
      for (size_t i = 0; i < rest.size(); ++i) {
        std::vector<std::vector<uint8_t>> patterns(U);
        for (size_t u = 0; u < U; ++u)
          for (size_t j : rest)
            if (j != rest[i]) patterns[u].push_back(start_of[j][u]);
        std::sort(patterns.begin(), patterns.end());
        const size_t groups =
            static_cast<size_t>(std::unique(patterns.begin(), patterns.end()) - patterns.begin());
        if (groups < fewest) fewest = groups, best = i;
      }
      order.push_back(rest[best]);
      rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(best));
    }
    std::vector<std::unique_ptr<Chain>> chains;
    std::vector<std::vector<uint8_t>> starts;
    for (size_t k : order) {
      chains.push_back(std::move(chains_[k]));
      starts.push_back(std::move(start_of[k]));
    }
    chains_.swap(chains);
    start_of.swap(starts);
  }

  // The groups of each stage, from the yard's (one group) back.
  for (size_t k = 0; k <= m; ++k) stages_.push_back(std::make_unique<Stage>());
  std::vector<int> group(U, 0), above(U);
  stages_[m]->groups = 1;
  for (size_t k = m; k-- > 0;) {
    Stage& S = *stages_[k];
    S.need = chains_[k]->n - static_cast<int>(chains_[k]->items.size());
    std::unordered_map<int, int> id;
    for (size_t u = 0; u < U; ++u) {
      const int key = start_of[k][u] * 1024 + group[u];
      auto [it, added] = id.emplace(key, S.groups);
      if (added) {
        ++S.groups;
        S.start.push_back(start_of[k][u]);
        S.parent.push_back(static_cast<uint16_t>(group[u]));
      }
      above[u] = it->second;
    }
    group.swap(above);
    S.states = Table(static_cast<size_t>(S.groups));
  }
  // The last seat sums over its h (Chain::build_sums) when that costs fewer
  // steps than listing them can: the compositions of its need over its starts,
  // and with one other seat (one state to list from) an A(h) over every
  // profile for each.
  {
    Chain& last = *chains_.back();
    const Stage& S = *stages_[m - 1];
    int starts_left = 0;
    for (int g = 0; g < S.groups; ++g) starts_left += S.start[static_cast<size_t>(g)] != kNone;
    const double listed =
        (starts_left == 0
             ? 1
             : choose(std::min(S.need + starts_left - 1, kMaxTiles), starts_left - 1)) *
        (m == 1 ? 1.0 + static_cast<double>(last.levels.back().ways.size()) : 1.0);
    const double room = static_cast<double>(max_work - std::min(max_work, work_));
    const double cap = std::min(listed, room);
    const uint64_t limit = cap >= 1.8e19 ? UINT64_MAX : static_cast<uint64_t>(cap);
    last.sums = last.build_sums(limit);
    work_ += last.sum_steps;
    if (work_ > max_work) throw std::length_error("the count outgrew its bound");
  }
  Stage& first = *stages_[0];
  first.tiles.resize(static_cast<size_t>(first.groups));
  start_.assign(static_cast<size_t>(first.groups), 0);
  for (size_t u = 0; u < U; ++u) {
    first.tiles[static_cast<size_t>(group[u])].push_back(model.pool[u]);
    ++start_[static_cast<size_t>(group[u])];
  }
  start_hash_ = hash_of(start_.data(), start_.size());

  // The number of worlds, memoised on the states of each stage reached. Only
  // ratios of counts at one stage are ever used, so the chains' scales cancel.
  // It stays inside a double: at most T!/(T-S)! ways to fill S seat slots
  // from T tiles, below 10^280 for any set.
  const double total = count(0, start_.data(), start_hash_, max_work);
  if (m == 1 && chains_[0]->sums)  // one other seat: every sample starts from the same sums
    chains_[0]->sum_fills(left_by_start(first, *chains_[0], start_.data()).data(),
                          &single_forward_);
  if (!(total > 0)) throw std::logic_error("determinize: the slot model has no world");
  const int yard = static_cast<int>(U) - taken;
  log2_ = std::log2(total) + log2_scale + log_factorial(yard) / std::log(2.0);
}

SeatCount::~SeatCount() = default;

void SeatCount::sample(Rng& rng, std::vector<int>& tile_of_slot, std::vector<int>& yard) const {
  const size_t m = chains_.size();
  std::vector<std::vector<int>> tiles = stages_[0]->tiles;
  std::vector<uint8_t> r = start_;
  uint64_t hash = start_hash_;
  std::vector<std::pair<int, int>> received;
  std::vector<uint8_t> x, h;
  for (size_t k = 0; k < m; ++k) {
    const Stage &S = *stages_[k], &N = *stages_[k + 1];
    const Chain& ch = *chains_[k];
    x.clear();
    std::vector<uint8_t> next;
    uint64_t next_hash = 0;
    int profile = -1;
    if (ch.sums) {  // the last seat: its h, then the tiles of each start
      const std::vector<int> left = left_by_start(S, ch, r.data());
      std::vector<std::vector<double>> forward;
      if (m > 1) ch.sum_fills(left.data(), &forward);
      h.assign(ch.starts.size(), 0);
      profile = ch.sample_fills(rng, left.data(), h.data(), m > 1 ? forward : single_forward_);
      x.assign(static_cast<size_t>(S.groups), 0);
      for (int g = 0; g < S.groups; ++g)
        if (S.start[static_cast<size_t>(g)] != kNone)
          x[static_cast<size_t>(g)] = h[S.start[static_cast<size_t>(g)]];
    } else {
      // A take in proportion to its ways times the completions after it
      // (their sum is this state's count).
      double u = rng.unit() * counted(k, r.data(), hash);
      Takes t(S, N, ch, r.data());
      t.run([&](double w) {
        const double weight =
            w * ch.fill_cached(t.h.data(), t.h_hash) * counted(k + 1, t.next.data(), t.next_hash);
        if (weight <= 0) return true;
        x = t.x, h = t.h, next = t.next, next_hash = t.next_hash;  // the last absorbs rounding
        if (u < weight) return false;
        u -= weight;
        return true;
      });
    }
    if (x.empty()) throw std::logic_error("determinize: no take has weight");
    // Which tiles of each group: a uniform choice; the rest go on.
    received.clear();
    std::vector<std::vector<int>> following(static_cast<size_t>(N.groups));
    for (int g = 0; g < S.groups; ++g) {
      std::vector<int>& pool = tiles[static_cast<size_t>(g)];
      const size_t take = x[static_cast<size_t>(g)];
      for (size_t i = 0; i < take; ++i) {
        std::swap(pool[i], pool[i + static_cast<size_t>(rng.below_unchecked(pool.size() - i))]);
        received.push_back({pool[i], S.start[static_cast<size_t>(g)]});
      }
      std::vector<int>& dest = following[S.parent[static_cast<size_t>(g)]];
      dest.insert(dest.end(), pool.begin() + static_cast<std::ptrdiff_t>(take), pool.end());
    }
    ch.sample(rng, h.data(), profile, received, tile_of_slot);
    tiles.swap(following);
    r.swap(next);
    hash = next_hash;
  }
  yard = tiles[0];
  rng.shuffle(yard.data(), yard.size());
}

}  // namespace dominocore::detail
