// One seat's count, of the count by seat (seat_count_chain.hpp): its placed
// tiles into its slots, the profiles of free slots they leave, A(h) and the
// sums over h of the last seat, and the draws from them.
#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <utility>
#include <vector>

#include "seat_count_chain.hpp"

namespace dominocore::detail {

void build_chain(SeatCount::Chain& ch, const SeatModel::Seat& seat, const std::vector<int>& pool,
                 std::vector<uint8_t>& start_of, uint64_t& work, uint64_t max_work) {
  ch.first_slot = seat.first_slot;
  ch.n = static_cast<int>(seat.allowed.size());
  const int n = ch.n;

  // Where each tile of U may start; its allowed positions must be a suffix.
  std::vector<int> first(pool.size(), -1);
  for (size_t u = 0; u < pool.size(); ++u) {
    const int t = pool[u];
    int p = 0;
    while (p < n && !seat.allowed[static_cast<size_t>(p)].test(t)) ++p;
    for (int q = p; q < n; ++q)
      if (!seat.allowed[static_cast<size_t>(q)].test(t))
        throw std::domain_error("a tile's slots are not a suffix of the seat's chain");
    if (p < n) {
      first[u] = p;
      ch.starts.push_back(p);
    }
  }
  std::sort(ch.starts.begin(), ch.starts.end());
  ch.starts.erase(std::unique(ch.starts.begin(), ch.starts.end()), ch.starts.end());
  ch.fills = Table(ch.starts.size());
  start_of.assign(pool.size(), kNone);
  for (size_t u = 0; u < pool.size(); ++u)
    if (first[u] >= 0)
      start_of[u] = static_cast<uint8_t>(
          std::lower_bound(ch.starts.begin(), ch.starts.end(), first[u]) - ch.starts.begin());

  // The placed tiles in the order that keeps the classes few: by their last
  // allowed position, then their first.
  std::vector<std::array<int, 3>> order;  // (last, first, tile)
  for (int t : seat.placed) {
    int lo = -1, hi = -1;
    for (int p = 0; p < n; ++p)
      if (seat.allowed[static_cast<size_t>(p)].test(t)) {
        if (lo < 0) lo = p;
        hi = p;
      }
    if (lo < 0) throw std::logic_error("determinize: a placed tile fits no slot of its seat");
    order.push_back({hi, lo, t});
  }
  std::sort(order.begin(), order.end());
  for (const auto& [hi, lo, t] : order) {
    TileSet at;
    for (int p = lo; p <= hi; ++p)
      if (seat.allowed[static_cast<size_t>(p)].test(t)) at.set(p);
    ch.items.push_back(t);
    ch.item_slots.push_back(at);
  }
  const int P = static_cast<int>(ch.items.size());
  if (P > n) throw std::logic_error("determinize: more placed tiles than slots");

  // Classes, from the last level (segments between starts) back.
  ch.levels.resize(static_cast<size_t>(P) + 1);
  {
    auto& last = ch.levels.back();
    last.cls.resize(static_cast<size_t>(n));
    int classes = 0, prev = -1;
    for (int p = 0; p < n; ++p) {
      const int seg = static_cast<int>(std::upper_bound(ch.starts.begin(), ch.starts.end(), p) -
                                       ch.starts.begin());
      if (seg != prev) ++classes, prev = seg;
      last.cls[static_cast<size_t>(p)] = static_cast<uint8_t>(classes - 1);
    }
    last.classes = classes;
  }
  for (int i = P - 1; i >= 0; --i) {
    auto& L = ch.levels[static_cast<size_t>(i)];
    const auto& N = ch.levels[static_cast<size_t>(i) + 1];
    std::vector<int> id(static_cast<size_t>(2 * N.classes), -1);
    L.cls.resize(static_cast<size_t>(n));
    for (int p = 0; p < n; ++p) {
      const bool in = ch.item_slots[static_cast<size_t>(i)].test(p);
      int& k = id[static_cast<size_t>(2 * N.cls[static_cast<size_t>(p)] + (in ? 1 : 0))];
      if (k < 0) {
        k = L.classes++;
        L.parent.push_back(N.cls[static_cast<size_t>(p)]);
        L.allows.push_back(in ? 1 : 0);
      }
      L.cls[static_cast<size_t>(p)] = static_cast<uint8_t>(k);
    }
  }

  // The ways to reach each state, level by level.
  std::vector<Table> index;
  for (const auto& L : ch.levels) index.emplace_back(static_cast<size_t>(L.classes));
  auto intern = [&](int level, const uint8_t* f) -> uint32_t {
    auto& L = ch.levels[static_cast<size_t>(level)];
    Table& known = index[static_cast<size_t>(level)];
    const uint64_t hash = hash_of(f, static_cast<size_t>(L.classes));
    const int64_t i = known.find(hash, f);
    if (i >= 0) return static_cast<uint32_t>(i);
    if (++work > max_work) throw std::length_error("the count outgrew its bound");
    L.keys.insert(L.keys.end(), f, f + L.classes);
    L.ways.push_back(0);
    return known.add(hash, f);
  };
  {
    auto& L0 = ch.levels[0];
    std::vector<uint8_t> f(static_cast<size_t>(L0.classes), 0);
    for (int p = 0; p < n; ++p) ++f[L0.cls[static_cast<size_t>(p)]];
    intern(0, f.data());
    ch.levels[0].ways[0] = 1;
  }
  std::vector<uint8_t> g;
  struct Edge {
    uint32_t child;
    SeatCount::Chain::In in;
  };
  std::vector<Edge> edges;
  for (int i = 0; i < P; ++i) {
    auto& L = ch.levels[static_cast<size_t>(i)];
    auto& N = ch.levels[static_cast<size_t>(i) + 1];
    edges.clear();
    g.assign(static_cast<size_t>(N.classes), 0);
    for (uint32_t s = 0; s < L.ways.size(); ++s) {
      work += static_cast<uint64_t>(L.classes);  // a sum over the classes for each class it fills
      for (int q = 0; q < L.classes; ++q) {
        const uint8_t room = ch.levels[static_cast<size_t>(i)]
                                 .keys[s * static_cast<size_t>(L.classes) + static_cast<size_t>(q)];
        if (!L.allows[static_cast<size_t>(q)] || room == 0) continue;
        std::fill(g.begin(), g.end(), 0);
        for (int r = 0; r < L.classes; ++r)
          g[L.parent[static_cast<size_t>(r)]] = static_cast<uint8_t>(
              g[L.parent[static_cast<size_t>(r)]] +
              L.keys[s * static_cast<size_t>(L.classes) + static_cast<size_t>(r)]);
        --g[L.parent[static_cast<size_t>(q)]];
        const uint32_t child = intern(i + 1, g.data());
        N.ways[child] += L.ways[s] * room;
        edges.push_back(Edge{child, SeatCount::Chain::In{s, static_cast<uint8_t>(q), room}});
      }
    }
    if (N.ways.empty()) throw std::logic_error("determinize: a seat's placed tiles fit no slots");
    std::stable_sort(edges.begin(), edges.end(),
                     [](const Edge& a, const Edge& b) { return a.child < b.child; });
    N.in_begin.assign(N.ways.size() + 1, 0);
    for (const Edge& e : edges) ++N.in_begin[e.child + 1];
    for (size_t s = 0; s < N.ways.size(); ++s) N.in_begin[s + 1] += N.in_begin[s];
    for (const Edge& e : edges) N.in.push_back(e.in);
    ch.log2_scale += normalise(N.ways);
  }

  // The profiles: free positions at or after each start, and none before the first.
  const auto& last = ch.levels.back();
  const size_t C = ch.starts.size();
  std::vector<int> seg_of_class(static_cast<size_t>(last.classes), 0);
  for (int p = 0; p < n; ++p)
    seg_of_class[last.cls[static_cast<size_t>(p)]] = static_cast<int>(
        std::upper_bound(ch.starts.begin(), ch.starts.end(), p) - ch.starts.begin());
  ch.profile_free.assign(last.ways.size() * C, 0);
  ch.profile_ok.assign(last.ways.size(), 1);
  for (size_t f = 0; f < last.ways.size(); ++f) {
    std::vector<int> seg_free(C + 1, 0);
    for (int q = 0; q < last.classes; ++q)
      seg_free[static_cast<size_t>(seg_of_class[static_cast<size_t>(q)])] +=
          last.keys[f * static_cast<size_t>(last.classes) + static_cast<size_t>(q)];
    if (seg_free[0] > 0) ch.profile_ok[f] = 0;
    int at_or_after = 0;
    for (size_t c = C; c-- > 0;) {
      at_or_after += seg_free[c + 1];
      ch.profile_free[f * C + c] = at_or_after;
    }
  }
  ch.most_free.assign(C, 0);
  for (size_t f = 0; f < last.ways.size(); ++f)
    for (size_t c = 0; c < C && ch.profile_ok[f]; ++c)
      ch.most_free[c] = std::max(ch.most_free[c], ch.profile_free[f * C + c]);
}

void SeatCount::Chain::sample(Rng& rng, const uint8_t* h, int profile,
                              std::vector<std::pair<int, int>>& received,
                              std::vector<int>& tile_of_slot) const {
  const int P = static_cast<int>(items.size());
  // The profile left by the placed tiles, then their path back to the start.
  const Level& last = levels.back();
  int state = profile >= 0 ? profile : pick(rng, static_cast<int>(last.ways.size()), [&](int f) {
    return last.ways[static_cast<size_t>(f)] * fill_profile(static_cast<size_t>(f), h);
  });
  if (state < 0) throw std::logic_error("determinize: a seat cannot be filled");
  std::vector<uint8_t> path(static_cast<size_t>(P));
  for (int i = P; i > 0; --i) {
    const Level& L = levels[static_cast<size_t>(i)];
    const Level& prev = levels[static_cast<size_t>(i) - 1];
    const uint32_t b = L.in_begin[static_cast<size_t>(state)];
    const int k =
        pick(rng, static_cast<int>(L.in_begin[static_cast<size_t>(state) + 1] - b), [&](int e) {
          const In& in = L.in[b + static_cast<uint32_t>(e)];
          return prev.ways[in.from] * in.mult;
        });
    const In& in = L.in[b + static_cast<uint32_t>(k)];
    path[static_cast<size_t>(i) - 1] = in.cls;
    state = static_cast<int>(in.from);
  }
  // Each placed tile into a uniform free position of its class, then the tiles
  // of U, latest start first, each into a uniform free position at or after it.
  std::vector<uint8_t> used(static_cast<size_t>(n), 0);
  std::vector<int> free;
  auto put = [&](int tile, auto&& fits) {
    free.clear();
    for (int p = 0; p < n; ++p)
      if (!used[static_cast<size_t>(p)] && fits(p)) free.push_back(p);
    const int p = free[static_cast<size_t>(rng.below_unchecked(free.size()))];
    used[static_cast<size_t>(p)] = 1;
    tile_of_slot[static_cast<size_t>(first_slot + p)] = tile;
  };
  for (int i = 0; i < P; ++i) {
    const Level& L = levels[static_cast<size_t>(i)];
    put(items[static_cast<size_t>(i)],
        [&](int p) { return L.cls[static_cast<size_t>(p)] == path[static_cast<size_t>(i)]; });
  }
  std::sort(received.begin(), received.end(),
            [](const std::pair<int, int>& a, const std::pair<int, int>& b) {
              return a.second > b.second;
            });
  for (const auto& [tile, c] : received) {
    const int from = starts[static_cast<size_t>(c)];
    put(tile, [&](int p) { return p >= from; });
  }
}

bool SeatCount::Chain::build_sums(uint64_t limit) {
  const size_t C = starts.size();
  const Level& last = levels.back();
  std::vector<std::map<std::vector<uint8_t>, uint32_t>> index(C + 1);
  auto state = [&](size_t level, std::vector<uint8_t> key) {
    auto [it, added] =
        index[level].emplace(std::move(key), static_cast<uint32_t>(index[level].size()));
    (void)added;
    return it->second;
  };
  // A profile's key: the free positions at or after the latest start, then
  // those of each segment between starts (seg[s]: [starts[s-1], starts[s])).
  profile_state.assign(last.ways.size(), -1);
  for (size_t f = 0; f < last.ways.size(); ++f) {
    if (!profile_ok[f] || C == 0) continue;
    const int* a = &profile_free[f * C];
    std::vector<uint8_t> key{static_cast<uint8_t>(a[C - 1])};
    for (size_t seg = 1; seg < C; ++seg) key.push_back(static_cast<uint8_t>(a[seg - 1] - a[seg]));
    profile_state[f] = state(0, key);
  }
  steps.assign(C, {});
  for (size_t level = 0; level < C; ++level) {
    const size_t c = C - 1 - level;  // the start whose tiles this level places
    std::vector<std::pair<std::vector<uint8_t>, uint32_t>> here(index[level].begin(),
                                                                index[level].end());
    for (const auto& [key, from] : here) {
      const int spare = key[0];
      for (int h = 0; h <= spare; ++h) {
        // After start c, the segment before it opens to the earlier starts.
        std::vector<uint8_t> next{static_cast<uint8_t>(spare - h + (c >= 1 ? key[c] : 0))};
        next.insert(next.end(), key.begin() + 1,
                    key.begin() + static_cast<std::ptrdiff_t>(c >= 1 ? c : 1));
        steps[level].push_back(
            Step{from, state(level + 1, next), static_cast<uint8_t>(h), falling(spare, h)});
        if (++sum_steps > limit) {
          steps.clear();
          return false;
        }
      }
    }
  }
  step_states.resize(C + 1);
  for (size_t level = 0; level <= C; ++level) step_states[level] = index[level].size();
  step_begin.assign(C, {});
  for (size_t level = 0; level < C; ++level) {
    std::vector<Step>& all = steps[level];
    std::stable_sort(all.begin(), all.end(),
                     [](const Step& a, const Step& b) { return a.to < b.to; });
    std::vector<uint32_t>& begin = step_begin[level];
    begin.assign(step_states[level + 1] + 1, 0);
    for (const Step& st : all) ++begin[st.to + 1];
    for (size_t i = 0; i + 1 < begin.size(); ++i) begin[i + 1] += begin[i];
  }
  state_profile.assign(step_states[0], 0);
  for (size_t f = 0; f < profile_state.size(); ++f)
    if (profile_state[f] >= 0)
      state_profile[static_cast<size_t>(profile_state[f])] = static_cast<uint32_t>(f);
  if (C > 0) {
    auto it = index[C].find(std::vector<uint8_t>{0});
    filled = it == index[C].end() ? -1 : it->second;
  }
  return true;
}

double SeatCount::Chain::sum_fills(const int* r, std::vector<std::vector<double>>* forward) const {
  const size_t C = starts.size();
  const Level& last = levels.back();
  if (C == 0) {  // no tile of U fits: every position is the placed tiles'
    double v = 0;
    for (size_t f = 0; f < last.ways.size(); ++f) v += profile_ok[f] ? last.ways[f] : 0;
    return v;
  }
  std::vector<double> cur(step_states[0], 0.0), next;
  for (size_t f = 0; f < last.ways.size(); ++f)
    if (profile_state[f] >= 0) cur[static_cast<size_t>(profile_state[f])] += last.ways[f];
  for (size_t level = 0; level < C; ++level) {
    const int rc = r[C - 1 - level];
    next.assign(step_states[level + 1], 0.0);
    for (const Step& st : steps[level])
      if (st.h <= rc && cur[st.from] != 0) next[st.to] += cur[st.from] * st.fall * choose(rc, st.h);
    if (forward) forward->push_back(std::move(cur));
    cur.swap(next);
  }
  const double v = filled >= 0 ? cur[static_cast<size_t>(filled)] : 0;
  if (forward) forward->push_back(std::move(cur));
  return v;
}

int SeatCount::Chain::sample_fills(Rng& rng, const int* r, uint8_t* h,
                                   const std::vector<std::vector<double>>& forward) const {
  const size_t C = starts.size();
  if (C == 0) {
    const Level& last = levels.back();
    return pick(rng, static_cast<int>(last.ways.size()), [&](int f) {
      return profile_ok[static_cast<size_t>(f)] ? last.ways[static_cast<size_t>(f)] : 0.0;
    });
  }
  uint32_t state = static_cast<uint32_t>(filled);
  for (size_t level = C; level-- > 0;) {
    const int rc = r[C - 1 - level];
    const std::vector<Step>& all = steps[level];
    const std::vector<double>& before = forward[level];
    const uint32_t b = step_begin[level][state];
    const int i = pick(rng, static_cast<int>(step_begin[level][state + 1] - b), [&](int e) {
      const Step& st = all[b + static_cast<uint32_t>(e)];
      return st.h <= rc ? before[st.from] * st.fall * choose(rc, st.h) : 0.0;
    });
    if (i < 0) throw std::logic_error("determinize: no fill has weight");
    const Step& st = all[b + static_cast<uint32_t>(i)];
    h[C - 1 - level] = st.h;
    state = st.from;
  }
  return static_cast<int>(state_profile[state]);
}

}  // namespace dominocore::detail
