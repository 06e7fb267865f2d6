// State: queries of the layout, the yard and the history.
#include "dominocore/state.hpp"
#include "engine.hpp"

namespace dominocore {

int State::end_number(int id) const noexcept {
  const int i = r_.find_end(id);
  return i < 0 ? -1 : shown_number(r_.end_num[i]);
}

int State::train_of(int id) const noexcept {
  if (r_.find_end(id) < 0) return -1;
  return games::with_game(r_.rules.game,
                          [&](auto tag) { return decltype(tag)::type::train_of(r_, id); });
}

// An end id belongs to the set-up (ids below its ends' count: the root ends,
// or placement 0's) or to the placement whose range holds it.
int State::created_end_number(int id) const noexcept {
  if (id < 0 || id >= r_.next_end) return -1;
  if (id < r_.root_ends) return -1;  // Block's lead end: no number
  for (int k = 0; k < r_.n_placed; ++k) {
    const Placement& pl = r_.placed[k];
    if (id >= pl.first && id < pl.first + pl.created) {
      const int lo = tile_low(pl.tile), hi = tile_high(pl.tile);
      if (lo == hi) return lo;                                  // a double: ends of its number
      if (pl.by == kNoNumber) return id == pl.first ? lo : hi;  // Block's lead: one per half
      return other_half(pl.tile, pl.by);
    }
  }
  return -1;
}

std::vector<OpenEnd> State::open_ends() const {
  std::vector<OpenEnd> v;
  v.reserve(r_.n_ends);
  for (int i = 0; i < r_.n_ends; ++i) v.push_back(open_end(i));
  return v;
}

std::vector<int> State::pending_ends() const {
  std::vector<int> v;
  for (int i = r_.f.obl_pos; i < r_.f.obl_pos + r_.f.obl_left; ++i) v.push_back(r_.end_id[i]);
  return v;
}

std::vector<int> State::yard() const {
  return std::vector<int>(r_.yard + r_.yard_top, r_.yard + r_.yard_len);
}

std::vector<Move> State::moves() const {
  std::vector<Move> v;
  v.reserve(r_.hist.size());
  for (const Record& rec : r_.hist) v.push_back(rec.move);
  return v;
}

int State::pips(int seat) const { return games::hand_score(r_, seat); }

const RoundResult& State::result() const {
  if (!r_.over) throw StateError("the round is not over yet: there is no result");
  return r_.result;
}

}  // namespace dominocore
