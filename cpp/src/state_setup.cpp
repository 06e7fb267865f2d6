// State: construction, the set-up of a round and explicit deals.
#include <algorithm>
#include <cstring>
#include <string>

#include "dominocore/state.hpp"
#include "engine.hpp"

namespace dominocore {

const char* end_reason_name(EndReason r) noexcept {
  switch (r) {
    case EndReason::Out: return "out";
    case EndReason::Blocked: return "blocked";
    case EndReason::Target: return "target";
    default: return "none";
  }
}

void RoundData::deal_out(const uint8_t* deck, int n) noexcept {
  const int p = rules.players, h = rules.hand_size;
  for (int s = 0; s < kMaxPlayers; ++s) {
    const uint8_t* hand = deck + s * h;
    hands[s] = s < p ? TileSet::of(hand, hand + h) : TileSet{};
  }
  yard_len = static_cast<int16_t>(n - p * h);
  std::memcpy(yard, deck + p * h, static_cast<size_t>(yard_len));
  yard_top = 0;
}

void RoundData::open_root(int tile, int by_seat, int count) noexcept {
  const int v = tile >= 0 ? tile_low(tile) : kNoNumber;
  centre = static_cast<int16_t>(tile);
  starter = static_cast<int8_t>(by_seat);
  for (int i = 0; i < count; ++i) add_end(i, v);
  next_end = static_cast<int16_t>(count);
  if (tile >= 0) {
    placed[0] = Placement{
        static_cast<int16_t>(tile),   -1, 0, static_cast<uint8_t>(count), static_cast<uint8_t>(v),
        static_cast<int8_t>(by_seat), -1};
    n_placed = 1;
    root_ends = 0;
  } else {
    n_placed = 0;
    root_ends = static_cast<uint8_t>(count);
  }
  f = Flow{};
  f.unlocked = (1u << (rules.set + 1)) - 1;  // no locks unless the game sets some
}

namespace {
// Chicken Foot and Mexican Train rounds are numbered by their start double,
// 0..N; other games take any index >= 0.
void check_round_index(const Rules& rules, int k) {
  const int rounds = rules.rounds_per_match();
  if (k < 0 || (rounds > 0 && k >= rounds))
    throw StateError("round index " + std::to_string(k) + " is out of range" +
                     (rounds > 0 ? " 0.." + std::to_string(rounds - 1) +
                                       " (a match has N+1 rounds, one per start double)"
                                 : std::string(" (must be >= 0)")));
}
}  // namespace

State::State(const Rules& rules) {
  rules.validate();
  r_.rules = rules;
  r_.tiles = rules.tiles();
  std::memset(r_.yard, 0, sizeof r_.yard);
  std::memset(r_.setup_draws, 0, sizeof r_.setup_draws);
  std::memset(r_.end_id, 0, sizeof r_.end_id);
  std::memset(r_.end_num, 0, sizeof r_.end_num);
  std::memset(r_.num_count, 0, sizeof r_.num_count);
  std::memset(r_.placed, 0, sizeof r_.placed);
  reserve_history(kReservedMoves);
}

State::State(const Rules& rules, Rng& rng, int round_index, int leader,
             const std::vector<int>& carried)
    : State(rules) {
  set_up(rng, round_index, leader, carried);
}

State::State(const Rules& rules, uint64_t seed, int round_index) : State(rules) {
  Rng rng(seed);
  set_up(rng, round_index);
}

State::State(const Rules& rules, const Deal& deal) : State(rules) { load_deal_(deal); }

void State::clear_round_() noexcept {
  r_.over = false;
  r_.result = RoundResult{};
  r_.centre = -1;
  for (auto& h : r_.hands) h = TileSet{};
  for (auto& h : r_.deal_hands) h = TileSet{};
  r_.yard_len = r_.yard_top = r_.yard_base = 0;
  r_.n_setup_draws = 0;
  r_.highest_double = false;
  r_.n_ends = 0;
  std::memset(r_.num_count, 0, sizeof r_.num_count);
  r_.num_present = 0;
  r_.next_end = 0;
  r_.root_ends = 0;
  r_.f = Flow{};
  r_.n_placed = 0;
  r_.hist.clear();
  r_.n_moves = 0;
  r_.play_points = {};
  r_.carried = {};
}

// all_fives.md F8: every seat's total, nonnegative, partners equal; zeros in
// the games that score only at the end. Checked before the round changes.
namespace {
void check_carried(const Rules& rules, const std::vector<int>& carried) {
  if (carried.empty()) return;
  const int p = rules.players;
  if (static_cast<int>(carried.size()) != p)
    throw StateError("carried holds " + std::to_string(carried.size()) + " totals for " +
                     std::to_string(p) + " players");
  const bool in_play =
      games::with_game(rules.game, [](auto tag) { return decltype(tag)::type::kScoresInPlay; });
  for (int s = 0; s < p; ++s) {
    const int v = carried[static_cast<size_t>(s)];
    if (v < 0 || v > kMaxCarried)
      throw StateError("carried[" + std::to_string(s) + "] = " + std::to_string(v) +
                       " is out of range 0.." + std::to_string(kMaxCarried));
    if (v != 0 && !in_play)
      throw StateError(std::string("carried must be zeros: ") + game_name(rules.game) +
                       " scores no points during play");
    const int first = carried[static_cast<size_t>(rules.team_of(s))];
    if (rules.teams && v != first)
      throw StateError("carried must be equal for partners: seat " + std::to_string(s) +
                       " carries " + std::to_string(v) + ", seat " +
                       std::to_string(rules.team_of(s)) + " " + std::to_string(first));
  }
}
}  // namespace

void State::set_carried_(const std::vector<int>& carried) {
  for (size_t s = 0; s < carried.size(); ++s) r_.carried[s] = carried[s];
}

void State::set_up(Rng& rng, int round_index, int leader, const std::vector<int>& carried) {
  check_round_index(r_.rules, round_index);
  if (leader >= r_.rules.players)
    throw StateError("leader " + std::to_string(leader) + " is out of range");
  check_carried(r_.rules, carried);
  clear_round_();
  set_carried_(carried);
  r_.round_index = round_index;
  games::with_game(r_.rules.game, [&](auto tag) {
    using G = DOMINOCORE_GAME(tag);
    G::set_up(r_, rng, round_index, leader);
    Engine<G>::finish_set_up(r_);
  });
}

void State::load_deal_(const Deal& d) {
  const int T = r_.tiles, p = r_.rules.players, N = r_.rules.set;
  if (static_cast<int>(d.hands.size()) != p)
    throw StateError("the deal has " + std::to_string(d.hands.size()) + " hands for " +
                     std::to_string(p) + " players");
  bool seen[kMaxTiles] = {};
  auto take = [&](int t, const std::string& where) {
    if (t < 0 || t >= T)
      throw StateError("tile index " + std::to_string(t) + " in " + where +
                       " is not a tile of the double-" + std::to_string(N) + " set (0.." +
                       std::to_string(T - 1) + ")");
    if (seen[t])
      throw StateError("tile " + tile_name(t) + " appears more than once (again in " + where +
                       "): the deal must hold every tile exactly once");
    seen[t] = true;
  };
  for (int s = 0; s < p; ++s)
    for (int t : d.hands[s]) take(t, "hand " + std::to_string(s));
  for (int t : d.yard) take(t, "the yard");
  if (d.centre >= 0 || d.centre < -1) take(d.centre, "the centre");
  std::string missing;  // worded as the reference words it
  for (int t = 0; t < T; ++t)
    if (!seen[t]) missing += (missing.empty() ? "" : ", ") + tile_name(t);
  if (!missing.empty()) throw StateError("tiles missing from the deal: " + missing);
  check_round_index(r_.rules, d.round_index);
  games::with_game(r_.rules.game, [&](auto tag) { decltype(tag)::type::check_deal(r_.rules, d); });
  if (d.starter < 0 || d.starter >= p)
    throw StateError("starter " + std::to_string(d.starter) + " is out of range 0.." +
                     std::to_string(p - 1));
  check_setup_facts_(d);
  check_carried(r_.rules, d.carried);

  clear_round_();
  set_carried_(d.carried);
  r_.round_index = d.round_index;
  for (int s = 0; s < p; ++s) r_.hands[s] = TileSet::of(d.hands[s].begin(), d.hands[s].end());
  r_.yard_len = static_cast<int16_t>(d.yard.size());
  for (size_t i = 0; i < d.yard.size(); ++i) r_.yard[i] = static_cast<uint8_t>(d.yard[i]);
  r_.yard_top = 0;
  r_.n_setup_draws = static_cast<int16_t>(d.setup_draws.size());
  for (size_t i = 0; i < d.setup_draws.size(); ++i)
    r_.setup_draws[i] = static_cast<uint8_t>(d.setup_draws[i]);
  r_.highest_double = d.highest_double;
  games::with_game(r_.rules.game, [&](auto tag) {
    using G = DOMINOCORE_GAME(tag);
    G::place_centre(r_, d.centre, d.starter);
    Engine<G>::finish_set_up(r_);
  });
}

// The set-up's facts of an explicit deal (docs/information.md 2), checked
// after the deal itself (every tile once, the centre, the starter).
void State::check_setup_facts_(const Deal& d) const {
  const Rules& rules = r_.rules;
  const int T = r_.tiles, p = rules.players, n = static_cast<int>(d.setup_draws.size());
  bool searches = false, highest_double = false;  // what the game's set-up may do
  games::with_game(rules.game, [&](auto tag) {
    using G = DOMINOCORE_GAME(tag);
    searches = G::setup_searches(rules);
    highest_double = G::setup_highest_double(rules);
  });
  if (n > 0) {
    if (!searches)
      throw StateError(
          "setup_draws must be empty: only Chicken Foot's cross searches for the round's double");
    bool seen[kMaxTiles] = {};
    for (int i = 0; i < n; ++i) {
      const int t = d.setup_draws[i];
      if (t < 0 || t >= T)
        throw StateError("tile index " + std::to_string(t) +
                         " in setup_draws is not a tile of the set (0.." + std::to_string(T - 1) +
                         ")");
      if (seen[t])
        throw StateError("tile " + tile_name(t) + " appears more than once in setup_draws");
      seen[t] = true;
      const int seat = (d.round_index + i) % p;
      if (i + 1 < n) {
        const auto& hand = d.hands[static_cast<size_t>(seat)];
        if (std::find(hand.begin(), hand.end(), t) == hand.end())
          throw StateError("setup_draws tile " + std::to_string(i) + " (" + tile_name(t) +
                           ") was drawn by seat " + std::to_string(seat) +
                           " but is not in that seat's hand");
      } else {
        if (t != d.centre)
          throw StateError("the last of setup_draws (" + tile_name(t) +
                           ") must be the round's double " + tile_name(d.centre));
        if (seat != d.starter)
          throw StateError("the round's double, the last of " + std::to_string(n) +
                           " setup_draws, was drawn by seat " + std::to_string(seat) +
                           ", so the starter must be " + std::to_string(seat) + ", not " +
                           std::to_string(d.starter));
      }
    }
  }
  if (d.highest_double) {
    if (!highest_double)
      throw StateError(
          "highest_double must be false: only Doubles and Block choose the centre as the "
          "highest double dealt");
    for (int s = 0; s < p; ++s)
      for (int t : d.hands[static_cast<size_t>(s)])
        if (is_double(t) && (d.centre < 0 || tile_low(t) > tile_low(d.centre)))
          throw StateError(
              "highest_double is true but hand " + std::to_string(s) + " holds " + tile_name(t) +
              (d.centre < 0 ? std::string(", and there is no centre (nobody was dealt a double)")
                            : ", a double higher than the centre " + tile_name(d.centre)));
  }
}

Deal State::deal() const {
  Deal d;
  d.round_index = r_.round_index;
  d.centre = r_.centre;
  d.starter = r_.starter;
  d.hands.resize(static_cast<size_t>(r_.rules.players));
  for (int s = 0; s < r_.rules.players; ++s)
    r_.deal_hands[s].for_each([&](int t) { d.hands[s].push_back(t); });
  d.yard.assign(r_.yard + r_.yard_base, r_.yard + r_.yard_len);
  d.setup_draws.assign(r_.setup_draws, r_.setup_draws + r_.n_setup_draws);
  d.highest_double = r_.highest_double;
  d.carried.assign(r_.carried.begin(), r_.carried.begin() + r_.rules.players);
  return d;
}

int State::drawn_at(int i) const {
  if (r_.hist[static_cast<size_t>(i)].move.kind != MoveKind::Draw) return -1;
  int k = 0;  // Draws before move i
  for (int j = 0; j < i; ++j) k += r_.hist[static_cast<size_t>(j)].move.kind == MoveKind::Draw;
  return r_.yard[r_.yard_base + k];
}

}  // namespace dominocore
