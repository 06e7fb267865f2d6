// The count by tile (determinize_count.hpp).
#include "determinize_count.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace dominocore::detail {

namespace {

uint64_t key_hash(const uint64_t* key, int words) noexcept {
  uint64_t h = 0x243F6A8885A308D3ull;
  for (int w = 0; w < words; ++w) h = (h ^ key[w]) * 0x9E3779B97F4A7C15ull;
  return h ^ (h >> 29);
}

void pack(const uint8_t* f, int classes, int words, uint64_t* key) noexcept {
  std::memset(key, 0, sizeof(uint64_t) * static_cast<size_t>(words));
  for (int q = 0; q < classes; ++q) key[q >> 3] |= uint64_t{f[q]} << (8 * (q & 7));
}

void unpack(const uint64_t* key, int classes, uint8_t* f) noexcept {
  for (int q = 0; q < classes; ++q) f[q] = static_cast<uint8_t>(key[q >> 3] >> (8 * (q & 7)));
}

}  // namespace

uint32_t Count::intern(Level& level, std::vector<int32_t>& index, const uint8_t* f) {
  const int words = level.words;
  uint64_t key[(kMaxTiles + 8) / 8];
  pack(f, level.classes, words, key);
  const size_t n = level.keys.size() / static_cast<size_t>(words);
  if (2 * (n + 1) > index.size()) {  // grow the index, rehashing every key
    std::vector<int32_t> bigger(std::max<size_t>(64, 2 * index.size()), -1);
    const size_t mask = bigger.size() - 1;
    for (size_t s = 0; s < n; ++s) {
      size_t h = key_hash(&level.keys[s * static_cast<size_t>(words)], words) & mask;
      while (bigger[h] >= 0) h = (h + 1) & mask;
      bigger[h] = static_cast<int32_t>(s);
    }
    index.swap(bigger);
  }
  const size_t mask = index.size() - 1;
  size_t h = key_hash(key, words) & mask;
  while (index[h] >= 0) {
    const uint64_t* other = &level.keys[static_cast<size_t>(index[h]) * static_cast<size_t>(words)];
    if (std::memcmp(other, key, sizeof(uint64_t) * static_cast<size_t>(words)) == 0)
      return static_cast<uint32_t>(index[h]);
    h = (h + 1) & mask;
  }
  if (++states_ > max_states_) throw std::length_error("the count outgrew its bound");
  index[h] = static_cast<int32_t>(n);
  level.keys.insert(level.keys.end(), key, key + words);
  return static_cast<uint32_t>(n);
}

Count::Count(const std::vector<int>& order, const std::vector<TileSet>& bins_of,
             const std::vector<int>& room, uint64_t max_states)
    : max_states_(max_states) {
  const int n = static_cast<int>(order.size()), K = static_cast<int>(room.size());
  levels_.resize(static_cast<size_t>(n) + 1);

  // The classes of every level, from the last (no item left: one class) back.
  std::vector<int> cls(static_cast<size_t>(K), 0), next(static_cast<size_t>(K));
  std::vector<int> cap_bin(static_cast<size_t>(K), 0), id;
  auto finish_level = [&](Level& L, int classes) {
    L.classes = classes;
    L.words = (classes + 7) / 8;
    L.bin_begin.assign(static_cast<size_t>(classes) + 1, 0);
    for (int k = 0; k < K; ++k) ++L.bin_begin[static_cast<size_t>(cls[k]) + 1];
    for (int q = 0; q < classes; ++q) L.bin_begin[q + 1] += L.bin_begin[q];
    L.bins.resize(static_cast<size_t>(K));
    std::vector<uint16_t> at(L.bin_begin.begin(), L.bin_begin.end() - 1);
    L.cap.assign(static_cast<size_t>(classes), 0);
    for (int k = 0; k < K; ++k) {
      L.bins[at[static_cast<size_t>(cls[k])]++] = static_cast<uint16_t>(k);
      L.cap[static_cast<size_t>(cls[k])] = static_cast<uint16_t>(cap_bin[k]);
    }
  };
  finish_level(levels_[static_cast<size_t>(n)], 1);
  int classes = 1;
  for (int i = n - 1; i >= 0; --i) {
    Level& L = levels_[static_cast<size_t>(i)];
    const TileSet& allowed = bins_of[static_cast<size_t>(order[i])];
    L.item = order[i];
    id.assign(2 * static_cast<size_t>(classes), -1);
    int m = 0;
    for (int k = 0; k < K; ++k) {
      const int bit = allowed.test(k) ? 1 : 0;
      int& slot = id[2 * static_cast<size_t>(cls[k]) + static_cast<size_t>(bit)];
      if (slot < 0) {
        slot = m++;
        L.parent.push_back(static_cast<uint16_t>(cls[k]));
        L.allows.push_back(static_cast<uint8_t>(bit));
      }
      next[k] = slot;
      cap_bin[k] += bit;
    }
    cls.swap(next);
    classes = m;
    finish_level(L, classes);
  }

  // The states, level by level from the start.
  uint8_t f[kMaxTiles + 1], h[kMaxTiles + 1];
  std::vector<int32_t> index;
  {
    Level& L0 = levels_[0];
    std::memset(f, 0, sizeof f);
    for (int q = 0; q < L0.classes; ++q)
      for (int c = L0.bin_begin[q]; c < L0.bin_begin[q + 1]; ++c)
        f[q] = static_cast<uint8_t>(f[q] + room[L0.bins[static_cast<size_t>(c)]]);
    intern(L0, index, f);
  }
  for (int i = 0; i < n; ++i) {
    Level& L = levels_[static_cast<size_t>(i)];
    Level& N = levels_[static_cast<size_t>(i) + 1];
    index.clear();
    const size_t count = L.keys.size() / static_cast<size_t>(L.words);
    L.edge_begin.reserve(count + 1);
    for (size_t s = 0; s < count; ++s) {
      L.edge_begin.push_back(static_cast<uint32_t>(L.edges.size()));
      unpack(&L.keys[s * static_cast<size_t>(L.words)], L.classes, f);
      for (int q = 0; q < L.classes; ++q) {
        if (!L.allows[static_cast<size_t>(q)] || f[q] == 0) continue;
        std::memset(h, 0, static_cast<size_t>(N.classes));
        for (int r = 0; r < L.classes; ++r) h[L.parent[static_cast<size_t>(r)]] += f[r];
        --h[L.parent[static_cast<size_t>(q)]];
        bool feasible = true;  // no class keeps more free slots than tiles left for it
        for (int r = 0; r < N.classes && feasible; ++r)
          feasible = h[r] <= N.cap[static_cast<size_t>(r)];
        if (!feasible) continue;
        const uint32_t child = intern(N, index, h);
        L.edges.push_back(Edge{child, static_cast<uint16_t>(q), f[q]});
      }
    }
    L.edge_begin.push_back(static_cast<uint32_t>(L.edges.size()));
    edges_ += L.edges.size();
    std::vector<uint64_t>().swap(L.keys);
  }
  Level& last = levels_[static_cast<size_t>(n)];
  if (last.keys.size() != static_cast<size_t>(last.words))
    throw std::logic_error("determinize: the slot model has no world");
  std::vector<uint64_t>().swap(last.keys);
  last.value.assign(1, 1.0);

  // The counts, from the end; each level scaled so that its largest is in [0.5, 1).
  for (int i = n - 1; i >= 0; --i) {
    Level& L = levels_[static_cast<size_t>(i)];
    const std::vector<double>& below = levels_[static_cast<size_t>(i) + 1].value;
    const size_t count = L.edge_begin.size() - 1;
    L.value.resize(count);
    double most = 0;
    for (size_t s = 0; s < count; ++s) {
      double v = 0;
      for (uint32_t e = L.edge_begin[s]; e < L.edge_begin[s + 1]; ++e)
        v += L.edges[e].mult * below[L.edges[e].child];
      L.value[s] = v;
      most = std::max(most, v);
    }
    if (most <= 0) throw std::logic_error("determinize: the slot model has no world");
    int exponent = 0;
    std::frexp(most, &exponent);
    for (double& v : L.value) v = std::ldexp(v, -exponent);
    log2_ += exponent;
  }
  log2_ += std::log2(levels_[0].value[0]);
}

void Count::sample(Rng& rng, std::vector<std::vector<int>>& bucket, std::vector<int>& free) const {
  uint32_t s = 0;
  const int n = static_cast<int>(levels_.size()) - 1;
  for (int i = 0; i < n; ++i) {
    const Level& L = levels_[static_cast<size_t>(i)];
    const std::vector<double>& below = levels_[static_cast<size_t>(i) + 1].value;
    const uint32_t e0 = L.edge_begin[s], e1 = L.edge_begin[s + 1];
    double total = 0;
    for (uint32_t e = e0; e < e1; ++e) total += L.edges[e].mult * below[L.edges[e].child];
    double u = rng.unit() * total;
    uint32_t pick = e0;
    for (uint32_t e = e0; e < e1; ++e) {
      const double w = L.edges[e].mult * below[L.edges[e].child];
      if (w <= 0) continue;
      pick = e;  // the last edge of positive weight absorbs any rounding
      if (u < w) break;
      u -= w;
    }
    const Edge& edge = L.edges[pick];
    // A bin of the class, in proportion to its free room.
    int r = static_cast<int>(rng.below_unchecked(edge.mult));
    int bin = -1;
    for (int c = L.bin_begin[edge.cls]; c < L.bin_begin[edge.cls + 1]; ++c) {
      bin = L.bins[static_cast<size_t>(c)];
      if (r < free[static_cast<size_t>(bin)]) break;
      r -= free[static_cast<size_t>(bin)];
    }
    --free[static_cast<size_t>(bin)];
    bucket[static_cast<size_t>(bin)].push_back(L.item);
    s = edge.child;
  }
}

}  // namespace dominocore::detail
