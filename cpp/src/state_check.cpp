// State: the invariants (validate) and comparison.
#include <cstring>
#include <string>

#include "dominocore/state.hpp"
#include "engine.hpp"

namespace dominocore {

void State::validate() const {
  auto fail = [](const std::string& why) { throw StateError("invalid state: " + why); };
  const RoundData& r = r_;
  const int T = r.tiles, p = r.rules.players;
  const TileSet all = TileSet::full(T);
  // Conservation now: hands, live yard, layout, each tile exactly once.
  TileSet seen;
  int count = 0;
  auto add = [&](int t, const char* where) {
    if (t < 0 || t >= T) fail(std::string("tile out of range in ") + where);
    if (seen.test(t)) fail("tile " + tile_name(t) + " twice (" + where + ")");
    seen.set(t);
    ++count;
  };
  for (int s = 0; s < kMaxPlayers; ++s) {
    if (s >= p && r.hands[s].any()) fail("a hand beyond the players is not empty");
    if (minus(r.hands[s], all).any()) fail("a hand holds a tile outside the set");
    r.hands[s].for_each([&](int t) { add(t, "hands"); });
  }
  for (int i = r.yard_top; i < r.yard_len; ++i) add(r.yard[i], "yard");
  for (int k = 0; k < r.n_placed; ++k) add(r.placed[k].tile, "layout");
  if (count != T || seen != all) fail("the set is not conserved");
  // Conservation of the deal.
  TileSet dseen;
  int dcount = 0;
  auto dadd = [&](int t) {
    if (dseen.test(t)) fail("the deal holds " + tile_name(t) + " twice");
    dseen.set(t);
    ++dcount;
  };
  for (int s = 0; s < p; ++s) r.deal_hands[s].for_each(dadd);
  for (int i = r.yard_base; i < r.yard_len; ++i) dadd(r.yard[i]);
  if (r.centre >= 0) dadd(r.centre);
  if (dcount != T || dseen != all) fail("the deal does not conserve the set");
  if (r.yard_base > r.yard_top || r.yard_top > r.yard_len) fail("yard positions");
  if ((r.centre >= 0) != (r.n_placed > 0 && r.placed[0].end < 0)) fail("the set-up's double");
  // Ends: ascending ids, counts, the number of open ends.
  int cnt[kMaxNumbers + 1] = {};
  uint32_t present = 0;
  for (int i = 0; i < r.n_ends; ++i) {
    if (i && r.end_id[i - 1] >= r.end_id[i]) fail("open ends not in ascending id order");
    if (r.end_id[i] >= r.next_end) fail("an open end id not yet handed out");
    const int shown = r.end_num[i] == kNoNumber ? -1 : r.end_num[i];
    if (created_end_number(r.end_id[i]) != shown) fail("an open end's number");
    ++cnt[r.end_num[i]];
    present |= 1u << r.end_num[i];
  }
  for (int v = 0; v <= kMaxNumbers; ++v)
    if (cnt[v] != r.num_count[v]) fail("per-number end counts");
  if (present != r.num_present) fail("per-number presence mask");
  int created = r.root_ends, consumed = 0;
  for (int k = 0; k < r.n_placed; ++k) {
    created += r.placed[k].created;
    consumed += r.placed[k].end >= 0;
  }
  if (created != r.next_end) fail("end ids handed out");
  if (r.n_ends != created - consumed) fail("open-end count");
  // The obligation slice.
  if (r.f.obl_left) {
    if (r.f.obl_pos + r.f.obl_left > r.n_ends) fail("obligation slice out of range");
    int inrange = 0;
    for (int i = 0; i < r.n_ends; ++i)
      if (r.end_id[i] >= r.f.obl_lo && r.end_id[i] < r.f.obl_hi) {
        ++inrange;
        if (i < r.f.obl_pos || i >= r.f.obl_pos + r.f.obl_left) fail("obligation slice");
      }
    if (inrange != r.f.obl_left) fail("obligation count");
    for (int i = r.f.obl_pos; i < r.f.obl_pos + r.f.obl_left; ++i)
      if (r.end_num[i] != r.end_num[r.f.obl_pos]) fail("obligation ends of different numbers");
  } else if (r.f.obl_kind) {
    fail("obligation kind without ends");
  }
  if (r.f.markers >> p) fail("a marker beyond the players");
  if (r.f.drawn >= 0 && (r.over ? false : !r.hands[r.f.cur].test(r.f.drawn)))
    fail("the drawn tile is not in the mover's hand");
  if (r.f.cur < 0 || r.f.cur >= p) fail("current player");
  const TileSet mask = games::with_game(
      r.rules.game, [&](auto tag) { return Engine<DOMINOCORE_GAME(tag)>::legal_mask(r); });
  if (r.legal_mask != mask) fail("cached legal mask");
  if (r.over && r.result.moves != num_moves()) fail("result move count");
}

bool State::operator==(const State& other) const noexcept {
  const RoundData &a = r_, &b = other.r_;
  if (a.rules != b.rules || a.round_index != b.round_index || a.starter != b.starter ||
      a.centre != b.centre || a.over != b.over || a.root_ends != b.root_ends ||
      a.highest_double != b.highest_double || a.n_setup_draws != b.n_setup_draws ||
      std::memcmp(a.setup_draws, b.setup_draws, static_cast<size_t>(a.n_setup_draws)) != 0)
    return false;
  for (int s = 0; s < kMaxPlayers; ++s)
    if (a.hands[s] != b.hands[s] || a.deal_hands[s] != b.deal_hands[s]) return false;
  // The yard as dealt (from the base, so a cross's set-up draws do not count)
  // and how far it has been drawn.
  if (a.yard_len - a.yard_base != b.yard_len - b.yard_base ||
      a.yard_top - a.yard_base != b.yard_top - b.yard_base ||
      std::memcmp(a.yard + a.yard_base, b.yard + b.yard_base,
                  static_cast<size_t>(a.yard_len - a.yard_base)) != 0)
    return false;
  if (a.n_ends != b.n_ends || a.next_end != b.next_end || a.num_present != b.num_present ||
      std::memcmp(a.num_count, b.num_count, sizeof a.num_count) != 0)
    return false;
  for (int i = 0; i < a.n_ends; ++i)
    if (a.end_id[i] != b.end_id[i] || a.end_num[i] != b.end_num[i]) return false;
  if (!(a.f == b.f)) return false;
  if (a.n_placed != b.n_placed) return false;
  for (int k = 0; k < a.n_placed; ++k) {
    const Placement &x = a.placed[k], &y = b.placed[k];
    if (x.tile != y.tile || x.end != y.end || x.first != y.first || x.created != y.created ||
        x.by != y.by || x.seat != y.seat || x.train != y.train)
      return false;
  }
  if (a.over) {
    const RoundResult &x = a.result, &y = b.result;
    if (x.reason != y.reason || x.out_seat != y.out_seat || x.points != y.points ||
        x.play_points != y.play_points || x.end_points != y.end_points || x.starter != y.starter ||
        x.moves != y.moves || x.round_index != y.round_index)
      return false;
  }
  if (a.play_points != b.play_points || a.carried != b.carried) return false;
  if (a.hist.size() != b.hist.size()) return false;
  for (size_t k = 0; k < a.hist.size(); ++k)
    if (a.hist[k].move != b.hist[k].move || a.hist[k].mover != b.hist[k].mover) return false;
  return true;
}

}  // namespace dominocore
