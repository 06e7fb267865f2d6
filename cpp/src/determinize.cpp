// Exact determinization (docs/information.md 4).
//
// The slot model. Seen from seat s, every other seat j holds slots in the
// order it got them: its initial slots (its hand right after the set-up, the
// cross's search draws included) and one per Draw. A Draw whose tile was
// placed right after is fixed (its tile is public) and left out; every other
// slot, and each place of the yard (in Block: of the tiles out of play),
// takes one tile of the world. The tiles to place are the pool U (tiles s
// never saw) and the tiles the other seats placed from a slot that is not
// fixed. A slot allows a tile when conditions 1-4 of docs/information.md 4
// hold for it there; slots of one seat allowing the same tiles form a cell,
// the yard is one more cell allowing all of U. A world is a bijection from
// those tiles to the slots in which every tile sits in a slot that allows it.
//
// Proposals. A baseline proposal puts each seat's placed tiles, in placement
// order, into a uniform free slot among those it had got before placing them,
// and then U uniformly over the rest; it is uniform over the bijections that
// satisfy condition 1, so an accepted one (every slot allows its tile) is
// uniform over the worlds.
//
// Liveness. Once nobody may draw, the round not being over says that some
// hand holds a tile with a legal end now (docs/information.md 4 does not list
// it; see the note in Impl::Impl, determinize_model.cpp). Worlds that break
// it are rejected, by either path below, which keeps them exact.
//
// The count. When the proposals keep failing, the sampler counts the worlds
// exactly and samples from the count: by tile (determinize_count.hpp), or,
// past a bound, by seat (seat_count.hpp) and of coarser models
// (determinize_build.cpp, which says when).
//
// Worlds. Only the hidden tiles differ between two worlds of one
// determinizer: the first world is replayed from its deal once (the
// template), and every world after it is a copy of that State with the tiles
// of its own draw written where they sit (make_template, write_hidden): the
// State that replaying its deal would give, at a fraction of the cost (a
// search makes a world every iteration). The draws are the same either way,
// so a seed gives the same world (tests/test_determinize_worlds.py).
//
// The files: determinize_model.cpp builds the slot model; this one samples
// from it (proposals, draws from a count, the deal they give) and holds the
// public Determinizer; determinize_build.cpp builds the counts. Their shared
// state, Determinizer::Impl, is in determinize_impl.hpp.

#include "dominocore/determinize.hpp"

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "determinize_impl.hpp"

namespace dominocore {

bool Determinizer::Impl::alive() const {
  if (!live_check) return true;
  for (int slot = 0; slot < yard_first; ++slot)
    if (live_tiles.test(tile_of_slot[static_cast<size_t>(slot)])) return true;
  return false;
}

bool Determinizer::Impl::propose(Rng& rng) {
  std::fill(tile_of_slot.begin(), tile_of_slot.begin() + yard_first, -1);
  for (int j = 0; j < players; ++j) {
    if (j == seat) continue;
    std::vector<int>& a = avail[j];
    a.clear();
    for (int k = 0; k < seats[j].initial; ++k) a.push_back(seats[j].first + k);
  }
  for (const Op& op : script) {
    std::vector<int>& a = avail[op.seat];
    if (op.tile < 0) {
      a.push_back(op.slot);
      continue;
    }
    const size_t k = static_cast<size_t>(rng.below_unchecked(a.size()));
    const int slot = a[k];
    if (!cell_allowed[static_cast<size_t>(slot_cell[slot])].test(op.tile)) return false;
    tile_of_slot[static_cast<size_t>(slot)] = op.tile;
    a[k] = a.back();
    a.pop_back();
  }
  // The rest of U: a uniform tile for each free slot of the seats, then the
  // yard in a uniform order. The slots allowing fewest tiles draw first, so
  // that a proposal bound to fail fails early; the order of the draws does
  // not change the distribution.
  scratch = pool;
  size_t left = scratch.size();
  for (int slot : fill_order) {
    if (tile_of_slot[static_cast<size_t>(slot)] >= 0) continue;  // a placed tile's
    const size_t k = static_cast<size_t>(rng.below_unchecked(left));
    const int t = scratch[k];
    if (!cell_allowed[static_cast<size_t>(slot_cell[slot])].test(t)) return false;
    tile_of_slot[static_cast<size_t>(slot)] = t;
    scratch[k] = scratch[--left];
  }
  if (!alive()) return false;
  rng.shuffle(scratch.data(), left);
  for (size_t k = 0; k < left; ++k) tile_of_slot[static_cast<size_t>(yard_first) + k] = scratch[k];
  return true;
}

bool Determinizer::Impl::from_count(Rng& rng) {
  if (seat_count) {
    seat_count->sample(rng, tile_of_slot, scratch);
    std::copy(scratch.begin(), scratch.end(), tile_of_slot.begin() + yard_first);
    if (stats.count_relaxed)  // a world of a coarser model: is it one of the exact model?
      for (int slot = 0; slot < yard_first; ++slot)
        if (!cell_allowed[static_cast<size_t>(slot_cell[slot])].test(
                tile_of_slot[static_cast<size_t>(slot)]))
          return false;
    return true;
  }
  const int K = static_cast<int>(cell_room.size());  // bucket[k]: the tiles of cell k
  bucket.resize(static_cast<size_t>(K));
  for (auto& b : bucket) b.clear();
  free_room = cell_room;
  count->sample(rng, bucket, free_room);
  for (int k = 0; k < K; ++k) {
    std::vector<int>& b = bucket[static_cast<size_t>(k)];
    rng.shuffle(b.data(), b.size());
    for (size_t x = 0; x < b.size(); ++x)
      tile_of_slot[static_cast<size_t>(cell_slots[static_cast<size_t>(cell_begin[k]) + x])] = b[x];
  }
  return true;
}

Deal Determinizer::Impl::assemble() const {
  const int p = players;
  Deal d;
  d.round_index = base.round_index;
  d.centre = base.centre;
  d.starter = base.starter;
  d.highest_double = base.highest_double;
  d.carried = base.carried;
  d.hands.resize(static_cast<size_t>(p));
  for (int j = 0; j < p; ++j) {
    if (j == seat) {
      d.hands[static_cast<size_t>(j)] = base.hands[static_cast<size_t>(j)];
      continue;
    }
    const SeatSlots& info = seats[j];
    d.hands[static_cast<size_t>(j)].assign(tile_of_slot.begin() + info.first,
                                           tile_of_slot.begin() + info.first + info.initial);
  }
  const size_t L = base.setup_draws.size();
  if (L > 0) {
    // The search in rotation order: each seat's search draws are the last of
    // its initial slots, in order; the round's double closes it.
    int cursor[kMaxPlayers];
    for (int j = 0; j < p; ++j)
      cursor[j] = j == seat ? 0 : seats[j].first + seats[j].initial - seats[j].search;
    d.setup_draws.resize(L);
    for (size_t i = 0; i + 1 < L; ++i) {
      const int j =
          static_cast<int>((static_cast<size_t>(base.round_index) + i) % static_cast<size_t>(p));
      d.setup_draws[i] = j == seat ? own_search[static_cast<size_t>(cursor[j]++)]
                                   : tile_of_slot[static_cast<size_t>(cursor[j]++)];
    }
    d.setup_draws[L - 1] = base.centre;
  }
  d.yard.reserve(draw_tile.size() + static_cast<size_t>(n_slots - yard_first));
  for (size_t k = 0; k < draw_tile.size(); ++k)
    d.yard.push_back(draw_tile[k] >= 0 ? draw_tile[k]
                                       : tile_of_slot[static_cast<size_t>(draw_slot[k])]);
  d.yard.insert(d.yard.end(), tile_of_slot.begin() + yard_first, tile_of_slot.end());
  return d;
}

Determinizer::Determinizer(const State& state, int seat, int proposals, Method method,
                           const Inference& inference) {
  if (proposals < 0)
    throw RulesError("proposals must be at least 0, got " + std::to_string(proposals));
  inference.validate();
  impl_ = std::make_unique<Impl>(state, seat);
  impl_->proposals = proposals;
  impl_->method = method;
  impl_->set_inference(inference);
}
Determinizer::Determinizer(std::unique_ptr<Impl> impl) noexcept : impl_(std::move(impl)) {}
Determinizer::~Determinizer() = default;
Determinizer::Determinizer(Determinizer&&) noexcept = default;
Determinizer& Determinizer::operator=(Determinizer&&) noexcept = default;

Determinizer Determinizer::clone() const {
  auto copy = std::make_unique<Impl>(*impl_);  // shares the store of the count
  copy->stats = DeterminizerStats{};
  copy->stats.tiles = impl_->stats.tiles;
  copy->stats.slots = impl_->stats.slots;
  copy->stats.cells = impl_->stats.cells;
  copy->count = nullptr;  // fetched from the store when a sample first needs it
  copy->seat_count = nullptr;
  return Determinizer(std::move(copy));
}

int Determinizer::seat() const noexcept { return impl_->seat; }
const Rules& Determinizer::rules() const noexcept { return impl_->rules; }
const DeterminizerStats& Determinizer::stats() const noexcept { return impl_->stats; }

void Determinizer::Impl::draw(Rng& rng) {
  DeterminizerStats& st = stats;
  ++st.samples;
  // Every sample tries the same number of proposals first, whatever came
  // before, so a world depends on the seed alone (the count, once built, only
  // saves building it again).
  for (int k = 0; k < proposals; ++k) {
    ++st.proposals;
    if (propose(rng)) {
      ++st.accepted;
      return;
    }
  }
  if (!count && !seat_count && !st.count_too_large) fetch_count();
  if (st.count_too_large) {  // no count within its bound: keep proposing, within a bound
    for (uint64_t k = 0; k < kMaxProposals; ++k) {
      ++st.proposals;
      if (propose(rng)) {
        ++st.accepted;
        return;
      }
    }
    throw StateError(
        "cannot determinize this position: no count of its worlds fits its bound and " +
        std::to_string(kMaxProposals) +
        " proposals all broke its constraints (docs/information.md 4: not seen)");
  }
  ++st.count_samples;
  for (uint64_t k = 0; k < kMaxProposals; ++k) {
    if (!from_count(rng))
      ++st.relaxed_rejected;
    else if (!alive())
      ++st.count_rejected;
    else
      return;
  }
  throw StateError("cannot determinize this position: " + std::to_string(kMaxProposals) +
                   " draws of its count in a row were rejected (docs/information.md 4: not seen)");
}

Deal Determinizer::sample_deal(Rng& rng) {
  draw(rng);
  return impl_->assemble();
}

// The template: the deal of the tiles just drawn, its history replayed, and
// where the hidden tiles sit in the State that gives. A world's hidden tiles
// are the other seats' hands (as dealt and now), their search draws, the
// yard's order and the tiles drawn from it; a drawn tile also sits in the
// flow that the undo records keep (and the flow now) until its turn ends.
// Everything else a replay writes (the layout, the ends, the flow's other
// fields, the points) follows from the public moves alone.
void Determinizer::make_template() {
  Impl& im = *impl_;
  State w(im.rules, im.assemble());
  for (const Move& m : im.moves) {
#ifndef NDEBUG
    if (w.check(m) != Reason::Ok)
      throw std::logic_error("determinize: the world does not replay move " + move_name(m));
#endif
    w.push_unchecked(m);
  }
  auto t = std::make_shared<Impl::Template>(std::move(w));
  const RoundData& r = t->world.r_;
  for (int k = 0; k < r.n_placed; ++k) t->layout.set(r.placed[k].tile);
  const size_t L = im.base.setup_draws.size();
  if (L > 0) {  // as assemble() reads them
    int cursor[kMaxPlayers];
    for (int j = 0; j < im.players; ++j)
      cursor[j] = j == im.seat ? 0 : im.seats[j].first + im.seats[j].initial - im.seats[j].search;
    for (size_t i = 0; i + 1 < L; ++i) {
      const int j = static_cast<int>((static_cast<size_t>(im.base.round_index) + i) %
                                     static_cast<size_t>(im.players));
      if (j != im.seat) t->search_refs.emplace_back(static_cast<int>(i), cursor[j]);
      ++cursor[j];
    }
  }
  // The k-th Draw took yard[yard_base + k]; a drawn tile in a flow is the
  // last Draw's.
  int draws = 0;
  const auto hidden_draw = [&](int drawn) {
    if (drawn < 0) return -1;
    if (draws == 0 || r.yard[r.yard_base + draws - 1] != drawn)
      throw std::logic_error("determinize: a flow's drawn tile is not the last Draw's");
    return im.draw_tile[static_cast<size_t>(draws - 1)] < 0 ? draws - 1 : -1;
  };
  for (size_t i = 0; i < r.hist.size(); ++i) {
    const int k = hidden_draw(r.hist[i].before.drawn);
    if (k >= 0) t->drawn_refs.emplace_back(static_cast<int>(i), k);
    if (r.hist[i].move.kind == MoveKind::Draw) ++draws;
  }
  t->live_draw = hidden_draw(r.f.drawn);
  if (draws != static_cast<int>(im.draw_tile.size()) ||
      r.yard_len - r.yard_base != draws + im.n_slots - im.yard_first)
    throw std::logic_error("determinize: the world's yard does not match its slots");
  im.templ = std::move(t);
}

void Determinizer::write_hidden(State& world) const {
  const Impl& im = *impl_;
  const Impl::Template& t = *im.templ;
  const std::vector<int>& tile = im.tile_of_slot;
  RoundData& r = world.r_;
  for (int j = 0; j < im.players; ++j) {
    if (j == im.seat) continue;
    const Impl::SeatSlots& slots = im.seats[j];
    const int* first = tile.data() + slots.first;  // the dealt tiles, then the drawn ones
    const TileSet dealt = TileSet::of(first, first + slots.initial);
    const TileSet held = dealt | TileSet::of(first + slots.initial, first + slots.slots);
    r.deal_hands[j] = dealt;
    r.hands[j] = minus(held, t.layout);  // what it placed (its fixed draws too) is in the layout
  }
  uint8_t* yard = r.yard + r.yard_base;
  size_t k = 0;
  for (; k < im.draw_tile.size(); ++k)
    yard[k] = static_cast<uint8_t>(
        im.draw_tile[k] >= 0 ? im.draw_tile[k] : tile[static_cast<size_t>(im.draw_slot[k])]);
  for (int x = im.yard_first; x < im.n_slots; ++x)
    yard[k++] = static_cast<uint8_t>(tile[static_cast<size_t>(x)]);
  for (const auto& [i, slot] : t.search_refs)
    r.setup_draws[i] = static_cast<uint8_t>(tile[static_cast<size_t>(slot)]);
  for (const auto& [i, d] : t.drawn_refs)
    r.hist[static_cast<size_t>(i)].before.drawn = static_cast<int16_t>(yard[d]);
  if (t.live_draw >= 0) r.f.drawn = static_cast<int16_t>(yard[t.live_draw]);
}

State Determinizer::sample(Rng& rng) {
  draw(rng);
  if (!impl_->templ) make_template();
  State world(impl_->templ->world);
  write_hidden(world);
  return world;
}

void Determinizer::sample(Rng& rng, State& world) {
  draw(rng);
  if (!impl_->templ) make_template();
  world = impl_->templ->world;
  write_hidden(world);
}

State determinize(const State& state, int seat, uint64_t seed) {
  Rng rng(seed);
  return Determinizer(state, seat).sample(rng);
}

}  // namespace dominocore
