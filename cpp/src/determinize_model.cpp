// The exact determinizer's slot model (determinize_impl.hpp): Impl::Impl
// reads what each move of the history tells the seat and builds the slots,
// the cells of slots allowing the same tiles, and the script of a proposal.
#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>
#include <vector>

#include "determinize_impl.hpp"
#include "engine.hpp"

namespace dominocore {

namespace {

/// The tiles that have a legal placement for `seat` in `state`'s position
/// (obligations, Doubles' locks and Mexican Train's trains open to the seat
/// included), whoever holds them.
TileSet placeable_for(const State& state, int seat) {
  return games::with_game(state.rules().game, [&](auto tag) {
    return Engine<DOMINOCORE_GAME(tag)>::seat_mask(state.data(), seat);
  });
}

}  // namespace

Determinizer::Impl::Impl(const State& state, int s)
    : rules(state.rules()), seat(s), players(state.players()) {
  const int p = players, T = rules.tiles();
  if (s < 0 || s >= p)
    throw RulesError("seat must be between 0 and " + std::to_string(p - 1) + ", got " +
                     std::to_string(s));
  if (state.is_over()) throw StateError("the round is over: there is nothing hidden to sample");
  base = state.deal();
  moves = state.moves();
  const int n_moves = static_cast<int>(moves.size());

  const int L = static_cast<int>(base.setup_draws.size());
  for (int i = 0; i + 1 < L; ++i) {
    const int j = (base.round_index + i) % p;
    if (j == s)
      own_search.push_back(base.setup_draws[static_cast<size_t>(i)]);
    else
      ++seats[j].search;
  }

  // Replay the history from the deal, reading what each move tells.
  struct Slot {
    int got;       ///< the Draw's move, -1 for an initial slot
    TileSet must;  ///< condition 3: tiles it may not hold (a Pass right after its Draw)
  };
  std::vector<Slot> slots_of[kMaxPlayers];
  std::vector<std::array<int16_t, kMaxTiles>> last(static_cast<size_t>(p));  // condition 2
  for (auto& row : last) row.fill(-1);  // last[j][t]: j's last Draw/Pass whose F held t
  int placer[kMaxTiles], placed_at[kMaxTiles], last_before[kMaxTiles];
  std::fill(placer, placer + kMaxTiles, -1);
  TileSet seen;  // the tiles the seat saw: the centre, its own, every placed one
  if (base.centre >= 0) seen.set(base.centre);
  for (int t : base.hands[static_cast<size_t>(s)]) seen.set(t);
  for (int j = 0; j < p; ++j)
    if (j != s)
      for (size_t k = 0; k < base.hands[static_cast<size_t>(j)].size(); ++k)
        slots_of[j].push_back(Slot{-1, TileSet{}});

  std::vector<int> draw_owner;  // the seat of each Draw
  State w(state);
  while (w.num_moves() > 0) w.pop();
  for (int i = 0; i < n_moves; ++i) {
    const Move mv = moves[static_cast<size_t>(i)];
    const int m = w.current_player();
    const bool in_question = w.drawn_tile() >= 0;
    auto constrain = [&](const TileSet& F) {
      F.for_each([&](int t) {
        last[static_cast<size_t>(m)][static_cast<size_t>(t)] = static_cast<int16_t>(i);
      });
    };
    switch (mv.kind) {
      case MoveKind::Draw:
        if (m == s) {
          const int t = w.yard_tile(0);
          seen.set(t);
          draw_tile.push_back(t);
          draw_slot.push_back(-1);
          draw_owner.push_back(m);
        } else {
          const bool fixed = i + 1 < n_moves && moves[static_cast<size_t>(i) + 1].is_place();
          if (fixed) {  // the tile placed next is this Draw's
            draw_tile.push_back(moves[static_cast<size_t>(i) + 1].tile);
            draw_slot.push_back(-1);
            draw_owner.push_back(m);
          } else {
            const int k = static_cast<int>(slots_of[m].size());
            slots_of[m].push_back(Slot{i, TileSet{}});
            draw_tile.push_back(-1);
            draw_slot.push_back(k);  // numbered among the seat's slots for now
            draw_owner.push_back(m);
            script.push_back(Op{m, k, -1});
          }
          constrain(placeable_for(w, m));
        }
        break;
      case MoveKind::Pass:
        if (m != s) {
          if (!in_question)
            constrain(placeable_for(w, m));
          else if (rules.drawn_tile == DrawnTile::Must)  // its Draw's slot is its last
            slots_of[m].back().must = placeable_for(w, m);
        }
        break;
      case MoveKind::Place:
        if (m != s) {
          const int t = mv.tile;
          seen.set(t);
          if (!in_question) {
            placer[t] = m;
            placed_at[t] = i;
            last_before[t] = last[static_cast<size_t>(m)][static_cast<size_t>(t)];
            script.push_back(Op{m, -1, t});
          }
        }
        break;
    }
    w.push_unchecked(mv);
  }

  // Number the slots, then put them in cells by the tiles they allow.
  for (int t = 0; t < T; ++t)
    if (!seen.test(t)) pool.push_back(t);
  // The round is not over. Once nobody may draw, the blocked test runs after
  // every move: some hand held a tile with a legal end (every train counted
  // as open in Mexican Train). Between two placements of that phase neither
  // the hands nor the legal ends change, so a later placement shows it for
  // every earlier position; only the present one is left to check.
  {
    const RoundData& r = state.data();
    const bool can_draw = games::with_game(rules.game, [&](auto tag) {
      using G = DOMINOCORE_GAME(tag);
      return G::can_draw(r);
    });
    if (!can_draw && !intersects(state.hand(s), r.legal_mask)) {
      live_check = true;
      for (int t : pool)
        if (r.legal_mask.test(t)) live_tiles.set(t);
    }
  }
  TileSet high_doubles;  // condition 4: doubles no initial slot may hold
  if (base.highest_double)
    for (int v = rules.set; v >= 0 && double_tile(v) != base.centre; --v)
      high_doubles.set(double_tile(v));
  int next = 0;
  for (int j = 0; j < p; ++j) {
    if (j == s) continue;
    SeatSlots& info = seats[j];
    info.first = next;
    info.initial = static_cast<int>(base.hands[static_cast<size_t>(j)].size());
    info.slots = static_cast<int>(slots_of[j].size());
    const int first_cell = static_cast<int>(cell_allowed.size());
    for (const Slot& slot : slots_of[j]) {
      TileSet a;
      for (int t : pool)
        if (last[static_cast<size_t>(j)][static_cast<size_t>(t)] <= slot.got) a.set(t);
      for (int t = 0; t < T; ++t)
        if (placer[t] == j && last_before[t] <= slot.got && slot.got < placed_at[t]) a.set(t);
      a = minus(a, slot.must);
      if (slot.got < 0) a = minus(a, high_doubles);
      int cell = first_cell;
      while (cell < static_cast<int>(cell_allowed.size()) && cell_allowed[cell] != a) ++cell;
      if (cell == static_cast<int>(cell_allowed.size())) {
        cell_allowed.push_back(a);
        cell_room.push_back(0);
      }
      ++cell_room[cell];
      slot_cell.push_back(cell);
      ++next;
    }
  }
  yard_first = next;
  const TileSet yard_allows = TileSet::of(pool.begin(), pool.end());
  cell_allowed.push_back(yard_allows);
  cell_room.push_back(state.yard_size());
  for (int k = 0; k < state.yard_size(); ++k)
    slot_cell.push_back(static_cast<int>(cell_room.size()) - 1);
  n_slots = static_cast<int>(slot_cell.size());
  for (Op& op : script)
    if (op.slot >= 0) op.slot += seats[op.seat].first;
  for (size_t d = 0; d < draw_slot.size(); ++d)
    if (draw_slot[d] >= 0) draw_slot[d] += seats[draw_owner[d]].first;

  const int K = static_cast<int>(cell_allowed.size());
  cell_begin.assign(static_cast<size_t>(K) + 1, 0);
  for (int c : slot_cell) ++cell_begin[static_cast<size_t>(c) + 1];
  for (int k = 0; k < K; ++k) cell_begin[k + 1] += cell_begin[k];
  cell_slots.resize(static_cast<size_t>(n_slots));
  {
    std::vector<int> at(cell_begin.begin(), cell_begin.end() - 1);
    for (int sl = 0; sl < n_slots; ++sl) cell_slots[static_cast<size_t>(at[slot_cell[sl]]++)] = sl;
  }
  tile_cells.assign(static_cast<size_t>(T), TileSet{});
  for (int k = 0; k < K; ++k) cell_allowed[k].for_each([&](int t) { tile_cells[t].set(k); });
  tiles = pool;
  for (int t = 0; t < T; ++t)
    if (placer[t] >= 0) tiles.push_back(t);
  for (int t : tiles)
    if (tile_cells[t].empty())
      throw std::logic_error("determinize: tile " + tile_name(t) + " fits no slot");
  if (static_cast<int>(tiles.size()) != n_slots)
    throw std::logic_error("determinize: " + std::to_string(tiles.size()) + " tiles for " +
                           std::to_string(n_slots) + " slots");

  std::vector<int> allowing(static_cast<size_t>(K), 0);  // unseen tiles each cell allows
  for (int k = 0; k < K; ++k)
    allowing[static_cast<size_t>(k)] = (cell_allowed[static_cast<size_t>(k)] & yard_allows).count();
  for (int slot = 0; slot < yard_first; ++slot) fill_order.push_back(slot);
  std::stable_sort(fill_order.begin(), fill_order.end(), [&](int a, int b) {
    return allowing[static_cast<size_t>(slot_cell[a])] <
           allowing[static_cast<size_t>(slot_cell[b])];
  });

  stats.tiles = static_cast<int>(tiles.size());
  stats.slots = n_slots;
  stats.cells = K;
  tile_of_slot.assign(static_cast<size_t>(n_slots), -1);
}

}  // namespace dominocore
