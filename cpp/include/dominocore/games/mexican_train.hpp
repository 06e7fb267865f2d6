// Mexican Train (docs/games/mexican_train.md): a train per seat plus the
// public Mexican train from the engine in the hub; markers open a seat's
// train to everyone; a double must be satisfied, and whoever laid it moves again;
// pips left in hand, N+1 rounds. Its own action space: tile x train.
//
// Every train has exactly one open end. The hub ends have ids 0..p (train t's
// is id t) and every later placement opens exactly one end, so placement k
// (k >= 1) opened end p + k: the train of any end is found in O(1).
#pragma once

#include <cstring>
#include <optional>
#include <string>

#include "dominocore/games/common.hpp"

namespace dominocore {
namespace games {

class OpenTrains;
class DistinctByTrain;

struct MexicanTrain : GameBase {
  // ---- the rules (mexican_train.md M1, M8) --------------------------------
  static constexpr RulesInfo kRules{
      /*default_set=*/12, /*max_players=*/8,   /*to_target=*/false,
      /*lead=*/false,     /*drawn_tile=*/true, /*teams=*/false};
  static constexpr bool kPointsAreCosts = true;
  /// One hub end per train (players + 1), reserve 0; drawn_tile and
  /// double_blank_50 from the spec.
  static void resolve(const RulesSpec& spec, Rules& r);
  /// M1: 15, 12 or 10 tiles by players on double-12, scaled to the set.
  static int default_hand_size(RuleSet, int set, int players) noexcept;
  static DealRoom check_fixed(const Rules& r);
  static std::string describe_options(const Rules& r);

  /// M1: the engine (N-k)-(N-k) goes to the hub; the other T-1 tiles are
  /// shuffled once and dealt; seat k mod p moves first.
  static void set_up(RoundData& r, Rng& rng, int round_index, int leader);
  /// A hand-built deal: the centre must be the round's engine (N-k).
  static void check_deal(const Rules& rules, const Deal& deal);
  /// M2: the engine opens one hub end per train, ids 0..p; the starter moves.
  static void place_centre(RoundData& r, int centre, int starter) noexcept;

  /// The train of an end ever created: hub end t is train t. Written as a
  /// select, not a branch, which the listing's walk over the ends
  /// mispredicted: a hub end reads placed[0], the engine, and drops it.
  static int train_of(const RoundData& r, int end_id) noexcept {
    const int k = end_id - r.players();
    const int train = r.placed[k > 0 ? k : 0].train;
    return k > 0 ? train : end_id;
  }
  /// M2: own train, the Mexican train, and any train with a marker.
  static bool open_to(const RoundData& r, int train, int seat) noexcept {
    return (train == seat) | (train == r.players()) | ((r.f.markers >> train) & 1u);
  }
  static TileSet seat_mask(const RoundData& r, int seat) noexcept;
  /// Called once the engine has found no unsatisfied double elsewhere.
  static Reason may_attach(const RoundData& r, int tile, int i, int seat) noexcept {
    if (!r.f.obl_left && !open_to(r, train_of(r, r.end_id[i]), seat)) return Reason::NotYourTrain;
    return shows(tile, r.end_num[i]) ? Reason::Ok : Reason::NoMatch;
  }
  /// The observation's legal ends: while no double is unsatisfied, those of
  /// the trains open to the seat.
  static bool end_open_to(const RoundData& r, int i, int seat) noexcept {
    return r.f.obl_left || open_to(r, train_of(r, r.end_id[i]), seat);
  }
  /// The observation's train ends: for each train t = 0..p (p: the Mexican),
  /// the one-hot of its open end's number, n + 1 entries (n: none open).
  static int observation_planes(const Rules& rules) noexcept {
    return (rules.players + 1) * (rules.set + 2);
  }
  static void write_observation_planes(const RoundData& r, int /*viewer*/, float* o) noexcept {
    const int p = r.players(), n = r.rules.set + 1;
    bool open[kMaxPlayers + 1] = {};
    for (int i = 0; i < r.n_ends; ++i) {
      const int t = train_of(r, r.end_id[i]);
      o[t * (n + 1) + (r.end_num[i] == kNoNumber ? n : r.end_num[i])] = 1.0f;
      open[t] = true;
    }
    for (int t = 0; t <= p; ++t)
      if (!open[t]) o[t * (n + 1) + n] = 1.0f;
  }
  /// M7: by tile, then by train; the distinct listing is the full one.
  using DistinctPick = DistinctByTrain;
  template <class Emit>
  static void for_each_place(const RoundData& r, const TileSet& pool, bool distinct, Emit& emit);

  /// Remembers the train of a placement; one end on the same train.
  static void single_opens(RoundData& r, Placement& pl) noexcept {
    pl.train = static_cast<int8_t>(train_of(r, pl.end));
    GameBase::single_opens(r, pl);
  }
  /// M3: one end of its number on the same train, and it is unsatisfied.
  static void double_opens(RoundData& r, Placement& pl) noexcept {
    pl.train = static_cast<int8_t>(train_of(r, pl.end));
    const int pos = r.n_ends;
    r.open_new_end(pl.by);
    r.set_obligation(Pending::Double, pos, 1);
  }
  /// M4: placing on one's own train lifts its marker; M3: whoever laid a double
  /// moves again, anything else passes the turn on.
  static void after_place(RoundData& r, int mover, const Placement& pl) noexcept {
    if (pl.train == mover) r.f.markers &= static_cast<uint16_t>(~(1u << mover));
    if (is_double(pl.tile))
      r.f.cur = static_cast<int8_t>(mover);
    else
      r.turn_to_next(mover);
  }
  /// M4: whoever passes puts a marker on their own train.
  static void after_pass(RoundData& r, int mover) noexcept {
    r.f.markers |= static_cast<uint16_t>(1u << mover);
    r.turn_to_next(mover);
  }

  // ---- M7: tile i on train t is i*(p+1) + t; Draw T*(p+1), Pass T*(p+1)+1
  static int num_actions(const Rules& rules) noexcept {
    return rules.tiles() * (rules.players + 1) + 2;
  }
  static int action_of(const RoundData& r, int tile, int i) noexcept {
    return tile * (r.players() + 1) + train_of(r, r.end_id[i]);
  }
  static bool action_move(const RoundData& r, int a, Move& out) noexcept {
    const int trains = r.players() + 1;
    if (a < 0 || a >= r.tiles * trains) return false;
    const int tile = a / trains, train = a % trains;
    if (!(r.f.drawn >= 0 ? r.f.drawn == tile : r.hands[r.f.cur].test(tile))) return false;
    int b, e;
    r.legal_slice(b, e);
    for (int i = b; i < e; ++i)
      if (train_of(r, r.end_id[i]) == train) {
        if (may_attach(r, tile, i, r.f.cur) != Reason::Ok) return false;
        out = Move::place(tile, r.end_id[i]);
        return true;
      }
    return false;
  }

  static void score_round(const RoundData& r, RoundResult& res) noexcept {
    score_pips_in_hand(r, res);
  }
  static bool match_over(const Rules& rules, const MatchTally& t) noexcept {
    return over_after_every_double(rules, t);
  }
  static Winners match_winners(const Rules& rules, const MatchTally& t) noexcept {
    return lowest_total_wins(rules, t);
  }
};

/// The trains open to `seat` now (M2; M3: under an unsatisfied double, its
/// end alone, whoever's train), by the number their end shows: a tile's
/// placements are the trains of its two numbers, in train order. Every train
/// has one open end. Built without a branch per train: the listing's test
/// of each train for each tile mispredicted about six times a move.
class OpenTrains {
 public:
  OpenTrains(const RoundData& r, int seat) noexcept {
    std::memset(by_number_, 0, sizeof by_number_);
    int b, e;
    r.legal_slice(b, e);
    for (int i = b; i < e; ++i) {
      const int t = MexicanTrain::train_of(r, r.end_id[i]), v = r.end_num[i];
      const unsigned open = r.f.obl_left ? 1u : MexicanTrain::open_to(r, t, seat);
      at_[t] = static_cast<int8_t>(i);
      by_number_[v] = static_cast<uint16_t>(by_number_[v] | open << t);
      numbers_ |= open << v;
    }
  }
  /// The tiles that go on one of the trains.
  TileSet tiles() const noexcept { return numbers_union(numbers_); }
  /// The trains `tile` goes on (bit t: train t).
  unsigned trains_of(int tile) const noexcept {
    return by_number_[tile_low(tile)] | by_number_[tile_high(tile)];
  }
  /// The end index of train t's open end.
  int end_of(int train) const noexcept { return at_[train]; }
  /// The placements of the tiles of `cand`: each once per train of its numbers.
  int placements(const TileSet& cand) const noexcept {
    int n = 0;
    for (uint32_t x = numbers_; x; x &= x - 1) {
      const int v = detail::ctz64(x);
      n += detail::popcount64(by_number_[v]) * (cand & number_mask(v)).count();
    }
    return n;
  }

 private:
  uint16_t by_number_[kMaxNumbers];  // bit t: train t is open and its end shows v
  int8_t at_[kMaxPlayers + 1];       // end index of each train's end, where read
  uint32_t numbers_ = 0;             // the numbers of the open trains' ends
};

/// The random seats' pick by rank (GameBase::DistinctPick): the listing of
/// for_each_place counted and walked, without writing it.
class DistinctByTrain {
 public:
  DistinctByTrain(const RoundData& r, const TileSet& pool) noexcept
      : open_(r, r.f.cur), cand_(pool & open_.tiles()) {}
  int count() const noexcept { return cand_.any() ? open_.placements(cand_) : 0; }
  /// The k-th placement in canonical order (0 <= k < count()).
  PickedPlace nth(int k) const noexcept {
    const int tile = tile_at_rank(cand_, k, [&](int w, int bit) {
      return detail::popcount64(open_.trains_of(w * 64 + bit));
    });
    if (tile < 0) return PickedPlace{};  // k out of range
    unsigned trains = open_.trains_of(tile);
    for (; k > 0; --k) trains &= trains - 1;  // its k-th train
    return PickedPlace{tile, open_.end_of(detail::ctz64(trains))};
  }

 private:
  OpenTrains open_;
  TileSet cand_;
};

inline TileSet MexicanTrain::seat_mask(const RoundData& r, int seat) noexcept {
  return OpenTrains(r, seat).tiles();
}

template <class Emit>
void MexicanTrain::for_each_place(const RoundData& r, const TileSet& pool, bool /*distinct*/,
                                  Emit& emit) {
  const OpenTrains open(r, r.f.cur);
  (pool & open.tiles()).for_each([&](int tile) {
    for (unsigned trains = open.trains_of(tile); trains; trains &= trains - 1)
      emit(tile, open.end_of(detail::ctz64(trains)));
  });
}

}  // namespace games

/// make_rules for Mexican Train (docs/games/mexican_train.md).
Rules mexican_train(int players = 4, int set = 12, std::optional<int> hand_size = std::nullopt,
                    DrawnTile drawn_tile = DrawnTile::Must, bool double_blank_50 = false);

}  // namespace dominocore
