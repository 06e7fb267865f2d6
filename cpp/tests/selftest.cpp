// Plain C++ self-test and micro-benchmark of the dominocore engine.
//   g++ -std=c++17 -O2 -Wall -Wextra -Icpp/include cpp/src/*.cpp cpp/tests/*.cpp -o selftest
//   -pthread
//   ./selftest [--quick]
#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "dominocore/dominocore.hpp"
#include "dominocore/information.hpp"
#include "selftest_check.hpp"

using namespace dominocore;

template <class E, class F>
static bool throws(F f) {
  try {
    f();
  } catch (const E&) {
    return true;
  } catch (...) {
    return false;
  }
  return false;
}

// ---------------------------------------------------------------------------

static void test_rng() {
  Rng a(0);
  CHECK(a.next() == 0xe220a8397b1dcdafull);
  CHECK(a.next() == 0x6e789e6aa1b965f4ull);
  CHECK(a.next() == 0x06c45d188009454full);
  Rng b(42);
  CHECK(b.next() == 0xbdd732262feb6e95ull);
  CHECK(b.next() == 0x28efe333b266f103ull);
  CHECK(b.next() == 0x47526757130f9f52ull);
  int deck[28];
  for (int i = 0; i < 28; ++i) deck[i] = i;
  Rng c(7);
  c.shuffle(deck, 28);
  const int want[28] = {17, 6,  26, 13, 20, 19, 2,  27, 21, 11, 16, 7,  18, 15,
                        4,  14, 8,  1,  9,  5,  25, 12, 0,  10, 3,  22, 24, 23};
  CHECK(std::memcmp(deck, want, sizeof deck) == 0);
  // below(): the table-driven fast path equals the plain formula of 1.6.
  Rng fast(99), plain(99);
  for (int k = 0; k < 200000; ++k) {
    const uint64_t n = k < 100000 ? 1 + static_cast<uint64_t>(k % 700)
                                  : (plain.state() >> (k % 60)) | 1;  // large n too
    const uint64_t t = (uint64_t{0} - n) % n;
    uint64_t x;
    do x = plain.next();
    while (x < t);
    if (fast.below(n) != x % n) {
      CHECK(false);
      break;
    }
  }
  CHECK(fast == plain);
  Rng d(1);
  const uint64_t before = d.state();
  CHECK(d.below(1) == 0 && d.state() != before);  // below(1) still draws
  CHECK(throws<std::invalid_argument>([&] { d.below(0); }));
}

static void test_tiles() {
  CHECK(tile_index(0, 0) == 0 && tile_index(0, 1) == 1 && tile_index(1, 1) == 2 &&
        tile_index(2, 0) == 3);
  CHECK(tile_count(6) == 28 && tile_count(9) == 55 && tile_count(12) == 91 &&
        tile_count(15) == 136 && tile_count(18) == 190);
  for (int v = 0; v <= kMaxSet; ++v)
    CHECK(tile_low(double_tile(v)) == v && is_double(double_tile(v)));
  CHECK(tile_name(tile_index(5, 3)) == "3-5");
  CHECK(parse_tile(" 9-5 ") == tile_index(5, 9));
  CHECK(throws<std::invalid_argument>([] { parse_tile("7-7", 6); }));
  CHECK(throws<std::invalid_argument>([] { parse_tile("x"); }));
  CHECK(move_name(parse_move("9-5@2")) == "5-9@2");
  CHECK(parse_move("DRAW") == Move::draw() && parse_move("pass") == Move::pass());
  CHECK(number_mask(3).count() == 19);  // 0-3..18-3 in the largest set
  TileSet s;
  s.set(5);
  s.set(70);
  s.set(189);
  std::vector<int> seen;
  s.for_each([&](int t) { seen.push_back(t); });
  CHECK((seen == std::vector<int>{5, 70, 189}) && s.count() == 3 && s.first() == 5);
  // TileSet::of is the set of its list, in each of the three words.
  const uint8_t listed[] = {189, 5, 63, 64, 127, 128, 70};
  TileSet one_by_one;
  for (uint8_t t : listed) one_by_one.set(t);
  CHECK(TileSet::of(listed, listed + 7) == one_by_one && TileSet::of(listed, listed) == TileSet{});
  const std::vector<int> first_three{189, 5, 63};
  CHECK(TileSet::of(first_three.begin(), first_three.end()) == TileSet::of(listed, listed + 3) &&
        TileSet::of(listed, listed + 3).count() == 3);
  // The union tables give, for every set of numbers (and the lead end's bit
  // 19, which adds nothing), the union of the per-number masks.
  bool unions_agree = true;
  for (uint32_t numbers = 0; numbers < (1u << (kMaxNumbers + 1)); ++numbers) {
    TileSet any, low, high;
    for (int v = 0; v < kMaxNumbers; ++v)
      if ((numbers >> v) & 1u) {
        any |= number_mask(v);
        low |= low_mask(v);
        high |= high_mask(v);
      }
    unions_agree &=
        numbers_union(numbers) == any && low_union(numbers) == low && high_union(numbers) == high;
  }
  CHECK(unions_agree);
}

// remove_end_at's block moves and insert_end's undo, against a plain list, at
// every index of 45 open ends: the later blocks of kEndBlock run only past
// 17 ends, which few rounds reach.
static void test_end_arrays() {
  bool agree = true;
  for (int at = 0; at < 45; ++at) {
    RoundData r;
    r.n_ends = 0;
    std::memset(r.num_count, 0, sizeof r.num_count);
    r.num_present = 0;
    std::vector<std::pair<int, int>> model;  // (id, number)
    for (int id = 0; id < 45; ++id) {
      r.add_end(id, id % kMaxNumbers);
      model.emplace_back(id, id % kMaxNumbers);
    }
    auto same = [&] {
      bool ok = r.n_ends == static_cast<int>(model.size());
      for (int i = 0; ok && i < r.n_ends; ++i)
        ok = r.end_id[i] == model[i].first && r.end_num[i] == model[i].second;
      for (int v = 0; ok && v < kMaxNumbers; ++v) {
        const auto n =
            std::count_if(model.begin(), model.end(), [&](auto& e) { return e.second == v; });
        ok = r.num_count[v] == n && ((r.num_present >> v) & 1u) == (n > 0);
      }
      return ok;
    };
    const auto removed = model[static_cast<size_t>(at)];
    r.remove_end_at(at);
    model.erase(model.begin() + at);
    agree &= same();
    r.insert_end(removed.first, removed.second);
    model.insert(model.begin() + at, removed);
    agree &= same();
  }
  CHECK(agree);
}

static void test_rules() {
  Rules r = chicken_foot(4);
  CHECK(r.set == 9 && r.hand_size == 11 && r.slots == 4 && r.reserve == 1 &&
        r.drawn_tile == DrawnTile::Must && !r.double_blank_50);
  CHECK(chicken_foot(2).hand_size == 21 && chicken_foot(2).reserve == 2);
  CHECK(chicken_foot(8).hand_size == 5);
  CHECK(chicken_foot(2, 6).hand_size == 21 * 27 / 54);
  CHECK(chicken_foot(4, 18).hand_size == 11 * 189 / 54);
  CHECK(chicken_foot(4, 9, RuleSet::Trains, std::nullopt, 6).slots == 6);
  CHECK(throws<RulesError>([] { chicken_foot(7, 6); }));  // too small for a train each
  CHECK(throws<RulesError>([] { chicken_foot(4, 9, RuleSet::Trains, std::nullopt, 3); }));
  CHECK(throws<RulesError>([] { chicken_foot(4, 9, RuleSet::Trains, std::nullopt, 9); }));
  CHECK(throws<RulesError>([] { chicken_foot(4, 9, RuleSet::Trains, 14); }));  // 56 > 53
  CHECK(chicken_foot(4, 9, RuleSet::Trains, 13).hand_size == 13);              // 52 <= 53
  CHECK(throws<RulesError>([] { chicken_foot(1); }));
  CHECK(throws<RulesError>([] { chicken_foot(9); }));
  CHECK(throws<RulesError>([] { chicken_foot(4, 5); }));
  CHECK(throws<RulesError>([] { chicken_foot(4, 19); }));
  CHECK(throws<RulesError>([] { chicken_foot(4, 9, RuleSet::Trains, 0); }));
  Rules c = chicken_foot(4, 9, RuleSet::Cross);
  CHECK(c.hand_size == 7 && c.slots == 4 && c.reserve == 0 && c.drawn_tile == DrawnTile::May &&
        c.double_blank_50);
  CHECK(throws<RulesError>([] { chicken_foot(4, 9, RuleSet::Cross, std::nullopt, 4); }));
  CHECK(throws<RulesError>(
      [] { chicken_foot(4, 9, RuleSet::Cross, std::nullopt, std::nullopt, false); }));
  CHECK(chicken_foot(4, 9, RuleSet::Cross, std::nullopt, std::nullopt, true).double_blank_50);
  CHECK(throws<RulesError>([] { chicken_foot(5, 6, RuleSet::Cross); }));  // 35 > 28
  CHECK(chicken_foot(4, 6, RuleSet::Cross).hand_size == 7);               // 28 <= 28
  Rules d = doubles(2);
  CHECK(d.set == 6 && d.hand_size == 8 && d.reserve == 2 && d.target == 100 && d.slots == 4);
  CHECK(doubles(3).hand_size == 6 && doubles(4).hand_size == 6);
  CHECK(doubles(2, 9).hand_size == 8 * 55 / 28);
  CHECK(throws<RulesError>([] { doubles(5); }));
  CHECK(throws<RulesError>([] { doubles(2, 6, std::nullopt, 0); }));
  CHECK(doubles(2, 6, std::nullopt, kMaxTarget).target == kMaxTarget);
  CHECK(throws<RulesError>([] { doubles(2, 6, std::nullopt, kMaxTarget + 1); }));
  CHECK(d.max_rounds == kDefaultMaxRounds && chicken_foot(4).max_rounds == 0);
  CHECK(doubles(2, 6, std::nullopt, std::nullopt, kMaxMaxRounds).max_rounds == kMaxMaxRounds);
  CHECK(throws<RulesError>([] { doubles(2, 6, std::nullopt, std::nullopt, 0); }));
  CHECK(throws<RulesError>([] { doubles(2, 6, std::nullopt, std::nullopt, kMaxMaxRounds + 1); }));
  CHECK(describe(d).find("target 100, at most 1000 rounds") != std::string::npos);
  CHECK(doubles(2, 6, std::nullopt, std::nullopt, 7) != d);
  {
    Rules bad = chicken_foot(4);
    bad.max_rounds = 10;
    CHECK(throws<RulesError>([&] { bad.validate(); }));
  }
  CHECK(throws<RulesError>([] { doubles(4, 6, 7); }));  // 28 > 26
  RulesSpec spec;
  spec.game = Game::Doubles;
  spec.players = 2;
  spec.trains = 2;
  CHECK(throws<RulesError>([&] { make_rules(spec); }));
  spec = RulesSpec{};
  spec.players = 4;
  spec.target = 50;
  CHECK(throws<RulesError>([&] { make_rules(spec); }));
  spec = RulesSpec{};
  spec.players = 4;
  spec.max_rounds = 50;
  CHECK(throws<RulesError>([&] { make_rules(spec); }));  // max_rounds is for doubles only
  spec = RulesSpec{};
  CHECK(throws<RulesError>([&] { make_rules(spec); }));  // players missing
  CHECK(parse_game("doubles") == Game::Doubles && throws<RulesError>([] { parse_game("domino"); }));
}

// ---------------------------------------------------------------------------
// Random rounds with every check after every move.

struct Sweep {
  long rounds = 0, moves = 0, rejected = 0, pops = 0;
};

static std::vector<Rules> all_rules() {
  std::vector<Rules> v;
  for (int n : {6, 7, 9, 12, 15, 18}) {
    for (int p = 2; p <= 8; ++p) {
      if (p <= std::min(8, n)) {
        v.push_back(chicken_foot(p, n));
        if (p < std::min(8, n))
          v.push_back(chicken_foot(p, n, RuleSet::Trains, std::nullopt, std::min(8, n)));
        if (n >= 9)
          v.push_back(chicken_foot(p, n, RuleSet::Trains, std::nullopt, std::nullopt, true));
      }
      if (p * 7 <= tile_count(n))
        v.push_back(chicken_foot(p, n, RuleSet::Cross));
      else
        v.push_back(chicken_foot(p, n, RuleSet::Cross, tile_count(n) / p));
      if (p <= 4) v.push_back(doubles(p, n));
    }
  }
  // Small and odd hands: set-up "out", immediate blocks, long yards.
  v.push_back(chicken_foot(2, 6, RuleSet::Cross, 1));
  v.push_back(doubles(2, 6, 1));
  v.push_back(doubles(4, 6, 1));
  v.push_back(chicken_foot(3, 6, RuleSet::Trains, 1));
  v.push_back(chicken_foot(2, 6, RuleSet::Cross, 14));
  v.push_back(doubles(2, 6, 13));
  // Block and Mexican Train on every set and seat count, odd hands too.
  for (int n : {6, 9, 12, 18}) {
    for (int p = 2; p <= 4; ++p) {
      v.push_back(block(p, n));
      v.push_back(block(p, n, std::nullopt, Lead::HighestDouble));
      v.push_back(block(p, n, tile_count(n) / p));  // nothing out of play
    }
    v.push_back(block(3, n, 1));
    for (int p = 2; p <= 8; ++p) {
      v.push_back(mexican_train(p, n));
      v.push_back(mexican_train(p, n, std::nullopt, DrawnTile::May, true));
    }
    v.push_back(mexican_train(2, n, 1));
    v.push_back(mexican_train(3, n, (tile_count(n) - 1) / 3));  // an empty yard
  }
  return v;
}

// Some moves that are probably illegal, to exercise check() and the reasons.
static void candidate_moves(const State& s, Rng& rng, std::vector<Move>& out) {
  out.clear();
  const int T = s.rules().tiles();
  out.push_back(Move::draw());
  out.push_back(Move::pass());
  for (int k = 0; k < 6; ++k) {
    const int t = static_cast<int>(rng.below(static_cast<uint64_t>(T)));
    const int e = static_cast<int>(rng.below(static_cast<uint64_t>(s.next_end_id() + 2))) - 1;
    out.push_back(Move::place(t, e));
  }
  if (s.current_player() >= 0 && s.num_open_ends() > 0) {  // hand tiles on open ends
    std::vector<int> hand;
    s.hand(s.current_player()).for_each([&](int t) { hand.push_back(t); });
    for (int k = 0; k < 8 && !hand.empty(); ++k) {
      const int t = hand[rng.below(hand.size())];
      const int i = static_cast<int>(rng.below(static_cast<uint64_t>(s.num_open_ends())));
      out.push_back(Move::place(t, s.open_end(i).id));
    }
  }
}

// The random policy's pick by rank (a game's DistinctPick, Engine::play_out)
// finds the distinct listing's placements, in its order and no other.
static void check_pick_by_rank(const State& s, const std::vector<Move>& dist) {
  games::with_game(s.rules().game, [&](auto tag) {
    using G = DOMINOCORE_GAME(tag);
    const RoundData& r = s.data();
    TileSet pool;
    if (r.f.drawn >= 0)
      pool.set(r.f.drawn);
    else
      pool = r.hands[r.f.cur];
    const typename G::DistinctPick places(r, pool);
    std::vector<Move> listed;
    for (const Move& m : dist)
      if (m.is_place()) listed.push_back(m);
    CHECK(places.count() == static_cast<int>(listed.size()));
    for (int k = 0; k < places.count() && k < static_cast<int>(listed.size()); ++k) {
      const auto at = places.nth(k);
      CHECK(at.end >= 0 &&
            Move::place(at.tile, r.end_id[at.end]) == listed[static_cast<size_t>(k)]);
    }
  });
}

static void run_round_checks(const Rules& rules, uint64_t seed, bool greedy, Sweep& sw) {
  Rng deal_rng(seed);
  const int k = rules.rounds_per_match() > 0
                    ? static_cast<int>(seed % static_cast<uint64_t>(rules.set + 1))
                    : static_cast<int>(seed % 5);
  State s(rules, deal_rng, k);
  s.validate();
  const State at_deal = s;
  RandomPlayer rp(seed);
  Rng probe(seed * 31 + 7);
  std::vector<Move> full, dist, cands, full2;
  std::vector<int> acts;
  while (!s.is_over()) {
    s.legal_moves(full, false);
    s.legal_moves(dist, true);
    Move buf[kMaxDistinctMoves];
    const int nb = s.distinct_moves(buf);
    CHECK(nb == static_cast<int>(dist.size()) && std::equal(dist.begin(), dist.end(), buf));
    check_pick_by_rank(s, dist);
    CHECK(!full.empty());
    // Every listed move passes check(); distinct is an ordered subset of full.
    for (const Move& m : full) CHECK(s.check(m) == Reason::Ok);
    // Canonical order: by tile, then by end id (Mexican Train: by train).
    const bool by_train = rules.game == Game::MexicanTrain;
    for (size_t a = 1; a < full.size(); ++a) {
      const Move &x = full[a - 1], &y = full[a];
      const int kx = by_train && x.is_place() ? s.train_of(x.end) : x.end;
      const int ky = by_train && y.is_place() ? s.train_of(y.end) : y.end;
      const bool ordered = (x.is_place() && y.is_place())
                               ? (x.tile < y.tile || (x.tile == y.tile && kx < ky))
                               : static_cast<int>(x.kind) < static_cast<int>(y.kind);
      CHECK(ordered);
    }
    if (by_train) CHECK(dist == full);  // M7: the distinct listing is the full one
    size_t j = 0;
    for (const Move& m : dist) {
      while (j < full.size() && full[j] != m) ++j;
      CHECK(j < full.size());
    }
    // Actions: ascending, each one maps to a distinct legal move and back.
    s.legal_actions(acts);
    CHECK(acts.size() == dist.size());
    for (size_t a = 0; a < acts.size(); ++a) {
      if (a) CHECK(acts[a - 1] < acts[a]);
      const Move m = s.action_to_move(acts[a]);
      CHECK(std::find(dist.begin(), dist.end(), m) != dist.end());
      CHECK(s.move_to_action(m) == acts[a]);
    }
    {  // every other id is illegal_action, and a rejected action changes nothing
      const std::vector<uint8_t> mask = s.legal_action_mask();
      CHECK(static_cast<int>(mask.size()) == s.num_actions());
      std::vector<int> from_mask;
      for (int a = 0; a < s.num_actions(); ++a)
        if (mask[static_cast<size_t>(a)]) from_mask.push_back(a);
      CHECK(from_mask == acts);
      for (int tries = 0; tries < 4; ++tries) {
        const int a = static_cast<int>(probe.below(static_cast<uint64_t>(s.num_actions() + 2))) - 1;
        const bool legal = std::binary_search(acts.begin(), acts.end(), a);
        if (!legal) {
          const State before = s;
          bool ok = false;
          try {
            s.apply_action(a);
          } catch (const IllegalMove& e) {
            ok = e.reason() == Reason::IllegalAction;
          }
          CHECK(ok && s == before);
        }
      }
      for (const Move& m : full)
        CHECK(std::binary_search(acts.begin(), acts.end(), s.move_to_action(m)));
    }
    // Candidate moves: check() agrees with the listing; rejected ones change nothing.
    candidate_moves(s, probe, cands);
    for (const Move& m : cands) {
      const Reason r = s.check(m);
      const bool listed = std::find(full.begin(), full.end(), m) != full.end();
      CHECK((r == Reason::Ok) == listed);
      if (r != Reason::Ok) {
        const State before = s;
        bool threw = false;
        try {
          s.push(m);
        } catch (const IllegalMove& e) {
          threw = e.reason() == r && std::strlen(e.what()) > 10;
        }
        CHECK(threw);
        CHECK(s == before);
        ++sw.rejected;
      }
    }
    {  // the wrong player
      const int other = (s.current_player() + 1) % rules.players;
      const State before = s;
      CHECK(throws<IllegalMove>([&] { s.push(full[0], other); }));
      CHECK(s.check(full[0], other) == Reason::NotYourTurn);
      CHECK(s == before);
      CHECK(s.check(full[0], s.current_player()) == Reason::Ok);
    }
    // Play; now and then take the move back and check the exact restore.
    const Move m = greedy ? greedy_move(s) : rp.choose(s);
    CHECK(std::find(dist.begin(), dist.end(), m) != dist.end() || greedy);
    if (probe.below(4) == 0) {
      const State before = s;
      s.push(m);
      CHECK(s.pop() == m);
      CHECK(s == before);
      ++sw.pops;
    }
    s.push(m);
    ++sw.moves;
    s.validate();
  }
  CHECK(s.result().moves == s.num_moves());
  CHECK(s.legal_moves().empty() && s.current_player() == -1);
  CHECK(s.check(Move::pass()) == Reason::RoundOver);
  {  // reasons on a finished round
    const State before = s;
    CHECK(throws<IllegalMove>([&] { s.push(Move::draw()); }));
    CHECK(s == before);
  }
  // Result sanity.
  const RoundResult& r = s.result();
  if (r.reason == EndReason::Out) {
    CHECK(r.out_seat >= 0 && s.hand(r.out_seat).empty());
  } else {
    CHECK(r.out_seat == -1 && s.yard_size() <= rules.reserve);
    for (int p = 0; p < rules.players; ++p) CHECK(!s.has_legal_placement(p));
  }
  if (rules.game == Game::ChickenFoot || rules.game == Game::MexicanTrain) {
    for (int p = 0; p < rules.players; ++p) {
      int pips = 0;
      s.hand(p).for_each([&](int t) { pips += tile_score(t, rules.double_blank_50); });
      CHECK(r.points[p] == pips);
    }
  }
  // Replay from the recorded deal gives the same state.
  State replay(rules, s.deal());
  for (const Move& m : s.moves()) replay.push(m);
  CHECK(replay == s);
  // Pop all the way back to the deal.
  while (s.num_moves() > 0) s.pop();
  CHECK(s == at_deal);
  CHECK(throws<IllegalMove>([&] { s.pop(); }));
  ++sw.rounds;
}

// The fives family, whose rules selftest_fives.cpp checks by hand: the pick
// by rank against the listing at every position of random rounds, with the
// spinner's sides opening either way, and in teams.
static void test_fives_pick_by_rank(bool quick) {
  std::vector<Rules> rs;
  for (int n : {6, 9, 12})
    for (int p : {2, 3, 4}) {
      rs.push_back(all_fives(p, n));
      rs.push_back(fives_and_threes(p, n));
    }
  RulesSpec spec;
  spec.game = Game::AllFives;
  spec.players = 4;
  spec.sides_open = SidesOpen::AtOnce;
  rs.push_back(make_rules(spec));
  spec.teams = 2;
  rs.push_back(make_rules(spec));
  long positions = 0;
  std::vector<Move> dist;
  for (size_t i = 0; i < rs.size(); ++i)
    for (uint64_t k = 0; k < (quick ? 4u : 16u); ++k) {
      const uint64_t seed = 1000003ull * i + k;
      Rng deal(seed);
      State s(rs[i], deal);
      RandomPlayer rp(seed);
      while (!s.is_over()) {
        s.legal_moves(dist, true);
        check_pick_by_rank(s, dist);
        ++positions;
        s.push(rp.choose(s));
      }
    }
  std::printf("  fives pick by rank: %zu rule configurations, %ld positions\n", rs.size(),
              positions);
}

static void test_random_rounds(bool quick) {
  Sweep sw;
  const std::vector<Rules> rs = all_rules();
  const int per = quick ? 4 : 16;
  for (size_t i = 0; i < rs.size(); ++i)
    for (int k = 0; k < per; ++k)
      run_round_checks(rs[i], 1000003ull * i + static_cast<uint64_t>(k), k % 4 == 3, sw);
  std::printf(
      "  sweep: %zu rule configurations, %ld rounds, %ld moves, %ld rejected moves, %ld push/pop\n",
      rs.size(), sw.rounds, sw.moves, sw.rejected, sw.pops);
}

// ---------------------------------------------------------------------------

static void test_setups() {
  // Trains: the start double is in the centre, starter = (k + pos) mod p.
  for (uint64_t seed = 0; seed < 200; ++seed) {
    const Rules r = chicken_foot(4);
    const int k = static_cast<int>(seed % 10);
    Rng g(seed);
    State s(r, g, k);
    Rng g2(seed);
    uint8_t deck[55];
    for (int t = 0; t < 55; ++t) deck[t] = static_cast<uint8_t>(t);
    g2.shuffle(deck, 55);
    int pos = 0;
    while (deck[pos] != double_tile(9 - k)) ++pos;
    CHECK(s.starter() == (k + pos) % 4 && s.current_player() == s.starter());
    CHECK(s.centre() == double_tile(9 - k) && s.num_open_ends() == 4 &&
          s.pending_kind() == Pending::Start);
    for (int p = 0; p < 4; ++p) CHECK(s.hand(p).count() == 11);
    CHECK(s.yard_size() == 54 - 44);
  }
  // Cross: the holder of the double starts, the next seat moves.
  int searched = 0;
  for (uint64_t seed = 0; seed < 300; ++seed) {
    const Rules r = chicken_foot(3, 9, RuleSet::Cross);
    State s(r, seed, 0);
    CHECK(s.current_player() == (s.starter() + 1) % 3 && s.centre() == double_tile(9));
    int held = 0;
    for (int p = 0; p < 3; ++p) held += s.hand(p).count();
    if (held > 3 * 7 - 1) ++searched;  // the double came from the yard
    CHECK(held + s.yard_size() + 1 == 55);
  }
  CHECK(searched > 0);
  // Doubles: the highest double in any hand is the centre.
  for (uint64_t seed = 0; seed < 200; ++seed) {
    const Rules r = doubles(2);
    State s(r, seed, 0);
    const int v = tile_low(s.centre());
    for (int w = v + 1; w <= 6; ++w)
      for (int p = 0; p < 2; ++p) CHECK(!s.hand(p).test(double_tile(w)));
    CHECK(s.hand(s.starter()).count() == 7 && s.unlocked() == (1u << v));
  }
  // Bad deals are rejected.
  const Rules r = chicken_foot(2, 6);
  State s(r, uint64_t{5}, 0);
  Deal d = s.deal();
  CHECK(State(r, d) == s);
  Deal bad = d;
  bad.yard.push_back(bad.yard.front());
  CHECK(throws<StateError>([&] { State x(r, bad); }));
  bad = d;
  bad.yard.pop_back();
  CHECK(throws<StateError>([&] { State x(r, bad); }));
  bad = d;
  bad.starter = 2;
  CHECK(throws<StateError>([&] { State x(r, bad); }));
  bad = d;
  bad.round_index = 1;  // centre 6-6 is round 0's
  CHECK(throws<StateError>([&] { State x(r, bad); }));
  bad = d;
  bad.hands.pop_back();
  CHECK(throws<StateError>([&] { State x(r, bad); }));
  CHECK(throws<StateError>([&] { State x(r, uint64_t{1}, 7); }));

  // A hand-built deal with several empty hands: the lowest of those seats is
  // out at the set-up, whoever the starter (docs/engine.md 11).
  const Rules r3 = chicken_foot(3, 6);
  for (int starter = 0; starter < 3; ++starter) {
    Deal e;
    e.centre = double_tile(6);
    e.starter = starter;
    e.hands = {{}, {tile_index(1, 2)}, {}};
    for (int t = 0; t < 28; ++t)
      if (t != e.centre && t != tile_index(1, 2)) e.yard.push_back(t);
    State x(r3, e);
    CHECK(x.is_over() && x.result().reason == EndReason::Out && x.result().out_seat == 0);
    e.hands = {{tile_index(1, 2)}, {}, {}};
    State y(r3, e);
    CHECK(y.is_over() && y.result().out_seat == 1);
  }
}

static uint64_t fnv1a(const std::string& text) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (const char c : text) h = (h ^ static_cast<uint8_t>(c)) * 0x100000001b3ull;
  return h;
}

// The set-up's facts and the information queries (docs/information.md 2, 3).
static void test_information() {
  // Every game: the hash is FNV-1a of the string; a replay from the recorded
  // deal (its set-up facts included) has the same information for every
  // seat; the history stays within the tensor's bound; tensors are finite.
  const std::vector<Rules> rs = all_rules();
  std::vector<float> ist, obs;
  for (size_t i = 0; i < rs.size(); i += 3) {
    const Rules& rules = rs[i];
    ist.assign(static_cast<size_t>(information_state_tensor_size(rules)), -1.0f);
    obs.assign(static_cast<size_t>(observation_tensor_size(rules)), -1.0f);
    Rng rng(i);
    State s(rules, rng, 0);
    CHECK(s.highest_double() == (rules.game == Game::Doubles ||
                                 (rules.game == Game::Block && rules.lead == Lead::HighestDouble)));
    CHECK(s.num_setup_draws() == 0 || rules.rule_set == RuleSet::Cross);
    std::vector<Move> buf;
    while (!s.is_over()) {
      s.legal_moves(buf, true);
      s.push_unchecked(buf[rng.below(buf.size())]);
    }
    CHECK(s.num_moves() <= information_state_history_bound(rules));
    State replay(rules, s.deal());
    for (const Move& m : s.moves()) replay.push(m);
    CHECK(replay == s);
    int draws = 0;
    for (int k = 0; k < s.num_moves(); ++k)
      CHECK(
          s.drawn_at(k) ==
          (s.move_at(k).kind == MoveKind::Draw ? s.deal().yard[static_cast<size_t>(draws++)] : -1));
    for (int seat = 0; seat < rules.players; ++seat) {
      const std::string text = information_state(s, seat);
      CHECK(text == information_state(replay, seat));
      CHECK(information_state_hash(s, seat) == fnv1a(text));
      information_state_tensor(s, seat, ist.data());
      observation_tensor(s, seat, obs.data());
      // counts and flags, and a finished round's points (below a double-18 set's 3,420 pips)
      CHECK(std::all_of(ist.begin(), ist.end(), [](float x) { return x >= 0.0f && x < 3421.0f; }));
      CHECK(std::all_of(obs.begin(), obs.end(), [](float x) { return x >= 0.0f && x < 200.0f; }));
    }
  }
  // The cross's search is recorded, in order, and validated in a deal.
  const Rules cross = chicken_foot(3, 9, RuleSet::Cross);
  int searched = 0;
  for (uint64_t seed = 0; seed < 60; ++seed) {
    const State s(cross, seed, 1);
    const Deal d = s.deal();
    if (d.setup_draws.empty()) continue;
    ++searched;
    CHECK(d.setup_draws.back() == s.centre() &&
          (1 + static_cast<int>(d.setup_draws.size()) - 1) % 3 == s.starter());
    CHECK(State(cross, d) == s);
    Deal bad = d;
    bad.setup_draws.pop_back();
    CHECK(throws<StateError>([&] { State x(cross, bad); }));
    bad = d;
    std::swap(bad.setup_draws.front(), bad.setup_draws.back());
    CHECK(throws<StateError>([&] { State x(cross, bad); }));
    bad = d;
    bad.highest_double = true;
    CHECK(throws<StateError>([&] { State x(cross, bad); }));
    // "d": the starter's count includes the double; "x" lists its own draws.
    const std::string text = information_state(s, s.starter());
    CHECK(text.find(tile_name(s.centre()) + ";m") != std::string::npos);
  }
  CHECK(searched > 0);
  // highest_double is validated against the deal.
  const Rules blk = block(2, 6, std::nullopt, Lead::Winner);
  Deal e;
  e.centre = double_tile(3);
  e.starter = 0;
  e.hands = {{tile_index(0, 1), double_tile(5)}, {tile_index(2, 3)}};
  for (int t = 0; t < 28; ++t)
    if (t != e.centre && t != tile_index(0, 1) && t != double_tile(5) && t != tile_index(2, 3))
      e.yard.push_back(t);
  e.highest_double = true;
  CHECK(throws<StateError>([&] { State x(blk, e); }));  // 5-5 is above the centre 3-3
  e.highest_double = false;
  CHECK(!State(blk, e).highest_double());
  e.setup_draws = {double_tile(3)};
  CHECK(throws<StateError>([&] { State x(blk, e); }));  // a search only in the cross
  // The exact string of a hand-built Block round.
  e.setup_draws.clear();
  State b(blk, e);
  b.push(Move::place(tile_index(2, 3), 0), 1);
  CHECK(information_state(b, 0) == "r0;s0;c3-3;t0;H0;d0,0;n2,1;h0-1,5-5;x;m1:2-3@0;e0,11");
  CHECK(information_state(b, 1) == "r0;s1;c3-3;t0;H0;d0,0;n2,1;h2-3;x;m1:2-3@0;e0,11");
  // The set-up's public facts after the centre: highest_double, then the
  // round index's 31 bits (least significant first), in the string, the hash
  // and the tensor. The same deal with 5-5 as its centre, the highest dealt:
  Deal f = e;
  f.centre = double_tile(5);
  f.hands = {{tile_index(0, 1), double_tile(3)}, {tile_index(2, 3)}};
  const int T = blk.tiles(), p = blk.players;
  const size_t facts = static_cast<size_t>(2 * p + T + 1);  // after seat, starter, centre
  std::vector<float> ta(static_cast<size_t>(information_state_tensor_size(blk))), tb(ta.size());
  CHECK(ta.size() == static_cast<size_t>(5 * p + (T + 1) + 2 * T + 32 +
                                         information_state_history_bound(blk) * (p + 3 + T + 10)));
  Deal g = f;
  g.highest_double = true;
  const State fs(blk, f), gs(blk, g);
  CHECK(information_state(fs, 0) == "r0;s0;c5-5;t0;H0;d0,0;n2,1;h0-1,3-3;x;m;e0,7");
  CHECK(information_state(gs, 0) == "r0;s0;c5-5;t0;H1;d0,0;n2,1;h0-1,3-3;x;m;e0,7");
  CHECK(information_state_hash(fs, 0) != information_state_hash(gs, 0));
  information_state_tensor(fs, 0, ta.data());
  information_state_tensor(gs, 0, tb.data());
  CHECK(ta[facts] == 0.0f && tb[facts] == 1.0f);
  ta[facts] = 1.0f;
  CHECK(ta == tb);
  g = f;
  g.round_index = (1 << 30) + 5;  // Block takes any index >= 0
  const State hs(blk, g);
  CHECK(information_state(hs, 1) == "r1073741829;s1;c5-5;t0;H0;d0,0;n2,1;h2-3;x;m;e0,7");
  CHECK(information_state_hash(fs, 1) != information_state_hash(hs, 1));
  information_state_tensor(fs, 1, ta.data());
  information_state_tensor(hs, 1, tb.data());
  for (int bit = 0; bit < 31; ++bit) {
    CHECK(ta[facts + 1 + static_cast<size_t>(bit)] == 0.0f);
    CHECK(tb[facts + 1 + static_cast<size_t>(bit)] ==
          (bit == 0 || bit == 2 || bit == 30 ? 1.0f : 0.0f));
  }
  for (int bit : {0, 2, 30}) ta[facts + 1 + static_cast<size_t>(bit)] = 1.0f;
  CHECK(ta == tb);
}

static void test_scenarios() {
  // Doubles on double-6: hand-built position to check locks and spinners.
  const Rules r = doubles(2, 6, 3);
  // centre 3-3 placed by seat 0; seat 1 moves first.
  Deal d;
  d.centre = double_tile(3);
  d.starter = 0;
  d.hands = {{tile_index(3, 6), tile_index(0, 1), tile_index(6, 6)},
             {tile_index(3, 5), tile_index(5, 5), tile_index(2, 4)}};
  TileSet used;
  for (auto& h : d.hands)
    for (int t : h) used.set(t);
  used.set(d.centre);
  for (int t = 0; t < 28; ++t)
    if (!used.test(t)) d.yard.push_back(t);
  State s(r, d);
  CHECK(s.current_player() == 1);
  CHECK(s.legal_moves() ==
        (std::vector<Move>{Move::place(tile_index(3, 5), 0), Move::place(tile_index(3, 5), 1),
                           Move::place(tile_index(3, 5), 2), Move::place(tile_index(3, 5), 3)}));
  CHECK(s.legal_moves(true) == std::vector<Move>{Move::place(tile_index(3, 5), 0)});
  s.push(Move::place(tile_index(3, 5), 2));  // creates end 4 of number 5 (locked)
  CHECK(s.end_number(4) == 5 && !s.is_unlocked(5));
  // seat 0: 3-6 on an end of 3 is legal; nothing on the 5.
  s.push(Move::place(tile_index(3, 6), 0));  // end 5: number 6 (locked)
  CHECK(s.check(Move::place(tile_index(2, 4), 4)) == Reason::NoMatch);
  s.push(Move::place(tile_index(5, 5), 4));  // seat 1: the double on the locked 5 unlocks it
  CHECK(s.is_unlocked(5) && s.end_number(6) == 5 && s.end_number(8) == 5);
  // seat 0 holds 0-1 and 6-6: 6-6 on end 5 (number 6, locked) is legal.
  CHECK(s.legal_moves() == (std::vector<Move>{Move::place(tile_index(6, 6), 5)}));
  s.pop();
  s.pop();
  // seat 0 again after popping two: check a locked placement is refused.
  CHECK(s.current_player() == 0);
  s.push(Move::place(tile_index(3, 6), 1));
  // seat 1: 2-4 fits nowhere, 5-5 on end 4 (5, locked) ok; 3-5 placed already.
  CHECK(s.check(Move::draw()) == Reason::MustPlace);
  s.push(Move::place(tile_index(5, 5), 4));
  // seat 0: 6-6 on end 5 (6 locked): legal; 0-1 nowhere.
  CHECK(s.check(Move::place(tile_index(0, 1), 5)) == Reason::NoMatch);

  // Chicken foot trains: the start slots come first, then a foot's toes.
  const Rules cf = chicken_foot(2, 6, RuleSet::Trains, 4, 2);  // 2 slots
  Deal c;
  c.round_index = 0;
  c.centre = double_tile(6);
  c.starter = 0;
  c.hands = {{tile_index(6, 2), tile_index(2, 2), tile_index(2, 0), tile_index(2, 1)},
             {tile_index(6, 4), tile_index(2, 3), tile_index(2, 4), tile_index(2, 5)}};
  used = TileSet{};
  for (auto& h : c.hands)
    for (int t : h) used.set(t);
  used.set(c.centre);
  for (int t = 0; t < 28; ++t)
    if (!used.test(t)) c.yard.push_back(t);
  State f(cf, c);
  CHECK(f.current_player() == 0 && f.pending_ends() == (std::vector<int>{0, 1}));
  f.push(Move::place(tile_index(6, 2), 1));  // end 2 (number 2)
  CHECK(f.check(Move::place(tile_index(2, 3), 2)) == Reason::StartUnfinished);
  CHECK(f.check(Move::place(tile_index(2, 3), 0)) == Reason::NoMatch);
  f.push(Move::place(tile_index(6, 4), 0));  // end 3 (number 4); start finished
  CHECK(f.pending_kind() == Pending::None);
  f.push(Move::place(tile_index(2, 2), 2));  // a foot: toes 4, 5, 6 of number 2
  CHECK(f.pending_kind() == Pending::Foot && f.pending_ends() == (std::vector<int>{4, 5, 6}));
  CHECK(f.check(Move::place(tile_index(2, 4), 3)) == Reason::FootUnfinished);
  CHECK(f.check(Move::place(tile_index(2, 0), 3)) == Reason::NotInHand);
  CHECK(f.check(Move::place(tile_index(4, 2), 3), 1) == Reason::FootUnfinished);
  f.push(Move::place(tile_index(2, 4), 5));  // end 7 (number 4), not legal until the foot is done
  CHECK(f.check(Move::place(tile_index(2, 0), 7)) == Reason::FootUnfinished);
  CHECK(f.legal_moves(true) ==
        (std::vector<Move>{Move::place(tile_index(0, 2), 4), Move::place(tile_index(1, 2), 4)}));
  CHECK(f.legal_actions() ==
        (std::vector<int>{2 * tile_index(0, 2) + 1, 2 * tile_index(1, 2) + 1}));
  {  // no end of number 0 is legal: not an action now, and nothing changes
    const State before = f;
    bool ok = false;
    try {
      f.apply_action(2 * tile_index(0, 2));
    } catch (const IllegalMove& e) {
      ok = e.reason() == Reason::IllegalAction && std::string(e.code()) == "illegal_action";
    }
    CHECK(ok && f == before);
  }
  CHECK(f.move_to_action(Move::place(tile_index(0, 2), 6)) ==
        2 * tile_index(0, 2) + 1);  // twin of @4
  CHECK(throws<IllegalMove>([&] { f.move_to_action(Move::place(tile_index(0, 2), 7)); }));
  f.validate();
}

// ---------------------------------------------------------------------------
// Block and Mexican Train: exact outcomes of hand-built positions.

// A deal whose yard is `top` (in that order) followed by every other tile in index order.
static Deal make_deal(const Rules& r, int centre, int starter, std::vector<std::vector<int>> hands,
                      std::vector<int> top = {}, int round_index = 0) {
  Deal d;
  d.round_index = round_index;
  d.centre = centre;
  d.starter = starter;
  d.hands = std::move(hands);
  TileSet used;
  for (auto& h : d.hands)
    for (int t : h) used.set(t);
  if (centre >= 0) used.set(centre);
  for (int t : top) used.set(t);
  d.yard = top;
  for (int t = 0; t < r.tiles(); ++t)
    if (!used.test(t)) d.yard.push_back(t);
  return d;
}

static int ti(int a, int b) { return tile_index(a, b); }
static Move pl(int a, int b, int end) { return Move::place(tile_index(a, b), end); }

// Partnerships (docs/games/partnership.md): the options, the teams' scoring
// (P3), the margins (P2), the lead "puerto_rico" (P4) and the teammates plane (P5).
static void test_partnership() {
  // P1: teams of two or more seats, k dividing p; team_scoring and
  // puerto_rico only with teams; only Block takes teams.
  const Rules r = block(4, 6, 7, Lead::Winner, std::nullopt, std::nullopt, 2);
  CHECK(r.teams == 2 && r.team_scoring == TeamScoring::AllPips && r.sides() == 2);
  CHECK(r.team_of(0) == 0 && r.team_of(1) == 1 && r.team_of(2) == 0 && r.team_of(3) == 1);
  CHECK(block(4).teams == 0 && block(4).sides() == 4 && block(4).team_of(3) == 3);
  CHECK(r != block(4, 6, 7) && r == block(4, 6, 7, Lead::Winner, std::nullopt, std::nullopt, 2));
  CHECK(block(4, 6, 7, Lead::Winner, std::nullopt, std::nullopt, 0) == block(4, 6, 7));
  CHECK(describe(r).find(", 2 teams (all_pips)") != std::string::npos);
  CHECK(describe(block(4)).find("teams") == std::string::npos);
  CHECK(throws<RulesError>([] { block(2, 6, std::nullopt, Lead::Winner, {}, {}, 2); }));
  CHECK(throws<RulesError>([] { block(3, 6, std::nullopt, Lead::Winner, {}, {}, 3); }));
  CHECK(throws<RulesError>([] { block(4, 6, std::nullopt, Lead::Winner, {}, {}, 3); }));
  CHECK(throws<RulesError>([] { block(4, 6, std::nullopt, Lead::Winner, {}, {}, 4); }));
  CHECK(throws<RulesError>([] { block(4, 6, std::nullopt, Lead::Winner, {}, {}, 1); }));
  CHECK(throws<RulesError>([] { block(4, 6, std::nullopt, Lead::Winner, {}, {}, -2); }));
  CHECK(throws<RulesError>(
      [] { block(4, 6, std::nullopt, Lead::Winner, {}, {}, {}, TeamScoring::FewerPips); }));
  CHECK(throws<RulesError>(
      [] { block(4, 6, std::nullopt, Lead::Winner, {}, {}, 0, TeamScoring::AllPips); }));
  CHECK(throws<RulesError>([] { block(4, 6, std::nullopt, Lead::PuertoRico); }));
  CHECK(block(4, 6, 7, Lead::PuertoRico, 200, {}, 2).lead == Lead::PuertoRico);
  CHECK(parse_lead("puerto_rico") == Lead::PuertoRico &&
        std::string(lead_name(Lead::PuertoRico)) == "puerto_rico");
  CHECK(parse_team_scoring("fewer_pips") == TeamScoring::FewerPips &&
        std::string(team_scoring_name(TeamScoring::AllPips)) == "all_pips");
  CHECK(throws<RulesError>([] { parse_team_scoring("most_pips"); }));
  {
    RulesSpec spec;
    spec.game = parse_game("doubles");
    spec.players = 4;
    spec.teams = 2;
    CHECK(throws<RulesError>([&] { make_rules(spec); }));
    spec.teams.reset();
    spec.team_scoring = TeamScoring::AllPips;
    CHECK(throws<RulesError>([&] { make_rules(spec); }));
    Rules bad = r;
    bad.teams = 3;
    CHECK(throws<RulesError>([&] { bad.validate(); }));
    bad = block(4, 6, 7);
    bad.team_scoring = TeamScoring::FewerPips;
    CHECK(throws<RulesError>([&] { bad.validate(); }));
    bad.team_scoring = TeamScoring::AllPips;
    bad.lead = Lead::PuertoRico;
    CHECK(throws<RulesError>([&] { bad.validate(); }));
  }

  const Rules fewer = block(4, 6, 7, Lead::Winner, {}, {}, 2, TeamScoring::FewerPips);
  const Rules pr = block(4, 6, 7, Lead::PuertoRico, {}, {}, 2);
  auto play = [](const Rules& rules, const Deal& d, const std::vector<Move>& moves) {
    State s(rules, d);
    for (const Move& m : moves) s.push(m);
    CHECK(s.is_over());
    s.validate();
    return s.result();
  };
  auto points = [](const RoundResult& x) {
    return std::vector<int>(x.points.begin(), x.points.begin() + x.players);
  };
  auto margins = [](const Rules& rules, const RoundResult& x) {
    double m[kMaxPlayers];
    round_margins(rules, x, m);
    return std::vector<double>(m, m + x.players);
  };
  // The example of P3: seat 1 leads its last tile and goes out; seat 0 holds
  // 6-6, seat 2 0-1 and seat 3 2-3.
  const Deal example = make_deal(r, -1, 1, {{ti(6, 6)}, {ti(4, 5)}, {ti(0, 1)}, {ti(2, 3)}});
  for (const Rules& rules : {r, pr}) {
    const RoundResult out = play(rules, example, {pl(4, 5, 0)});
    CHECK(out.reason == EndReason::Out && out.out_seat == 1 && out.last_placer == 1);
    CHECK((points(out) == std::vector<int>{0, 18, 0, 18}));
    CHECK((margins(rules, out) == std::vector<double>{-18, 18, -18, 18}));
    CHECK(next_leader(rules, out) == 1);
  }
  {
    const RoundResult out = play(fewer, example, {pl(4, 5, 0)});
    CHECK((points(out) == std::vector<int>{0, 13, 0, 13}));
    CHECK((margins(fewer, out) == std::vector<double>{-13, 13, -13, 13}));
  }
  // fewer_pips: seat 0 goes out, but its partner holds more than the other
  // team: team {1, 3} wins the 12 pips of team {0, 2}.
  {
    const Deal d = make_deal(r, -1, 0, {{ti(4, 5)}, {ti(0, 1)}, {ti(6, 6)}, {ti(0, 2)}});
    const RoundResult all = play(r, d, {pl(4, 5, 0)});
    CHECK((points(all) == std::vector<int>{15, 0, 15, 0}));
    const RoundResult few = play(fewer, d, {pl(4, 5, 0)});
    CHECK(few.out_seat == 0 && (points(few) == std::vector<int>{0, 12, 0, 12}));
    CHECK(next_leader(fewer, few) == 0);  // B2: the seat that went out
  }
  // Blocked at once: seat 0 leads 5-5 and nobody holds a 5. Seat 0 is the blocker.
  struct Blocked {
    std::vector<std::vector<int>> hands;
    std::vector<int> all_pips, fewer_pips;
    int next_pr;  // the next leader under puerto_rico
  };
  const std::vector<Blocked> blocked = {
      // team {0, 2}: 0 + 3, team {1, 3}: 2 + 4: the blocker's team wins
      {{{ti(5, 5), ti(0, 0)}, {ti(1, 1)}, {ti(1, 2)}, {ti(2, 2)}}, {9, 0, 9, 0}, {6, 0, 6, 0}, 0},
      // 12 + 3 against 2 + 4: the blocker's team loses; the seat after it leads
      {{{ti(5, 5), ti(6, 6)}, {ti(1, 1)}, {ti(1, 2)}, {ti(2, 2)}},
       {0, 21, 0, 21},
       {0, 15, 0, 15},
       1},
      // 3 + 2 against 2 + 3: nobody wins; the leader leads again
      {{{ti(5, 5), ti(0, 3)}, {ti(1, 1)}, {ti(0, 2)}, {ti(1, 2)}}, {0, 0, 0, 0}, {0, 0, 0, 0}, 0},
  };
  for (const Blocked& b : blocked) {
    const Deal d = make_deal(r, -1, 0, b.hands);
    const RoundResult x = play(r, d, {pl(5, 5, 0)});
    CHECK(x.reason == EndReason::Blocked && x.last_placer == 0 && x.starter == 0);
    CHECK(points(x) == b.all_pips);
    CHECK(points(play(fewer, d, {pl(5, 5, 0)})) == b.fewer_pips);
    CHECK(next_leader(pr, play(pr, d, {pl(5, 5, 0)})) == b.next_pr);
  }
  {
    const Deal d =
        make_deal(r, -1, 2, {{ti(2, 3)}, {ti(1, 3), ti(0, 2)}, {ti(0, 0), ti(6, 6)}, {ti(0, 4)}});
    // 0-0 led by seat 2 (ends 0, 0); seat 3 places 0-4 (ends 0, 4) and goes out.
    const RoundResult x = play(pr, d, {pl(0, 0, 0), pl(0, 4, 1)});
    CHECK(x.out_seat == 3 && x.last_placer == 3 && next_leader(pr, x) == 3);
    CHECK((points(x) == std::vector<int>{0, 23, 0, 23}));
  }
  {
    const Deal d = make_deal(
        r, -1, 2, {{ti(2, 3)}, {ti(1, 3), ti(1, 1)}, {ti(0, 0), ti(6, 6)}, {ti(0, 5), ti(2, 2)}});
    // The blocker is not the leader: 0-0 led by seat 2; seat 3 places 0-5
    // (ends 0, 5): nobody holds a 0 or a 5: blocked by seat 3. Team {0, 2}:
    // 5 + 12, team {1, 3}: 6 + 4: seat 3's team wins, seat 3 leads; under
    // all_pips it scores 27.
    const RoundResult x = play(pr, d, {pl(0, 0, 0), pl(0, 5, 1)});
    CHECK(x.reason == EndReason::Blocked && x.last_placer == 3 && x.starter == 2);
    CHECK((points(x) == std::vector<int>{0, 27, 0, 27}) && next_leader(pr, x) == 3);
    CHECK(next_leader(r, x) == 1);  // lead = winner: the first seat of the winning team
  }

  // P2: three teams of two (made-up rules: the margins read only the teams).
  {
    Rules six = r;
    six.players = 6;
    six.teams = 3;
    RoundResult x;
    x.players = 6;
    x.points = {10, 4, 0, 10, 4, 0};
    CHECK((margins(six, x) == std::vector<double>{8, -1, -7, 8, -1, -7}));
  }

  // P4 set-up: a round whose leader no match chose is led by the holder of
  // the highest double dealt (placed for them); a chosen leader leads any tile.
  for (uint64_t seed = 0; seed < 50; ++seed) {
    State s(pr, seed, 3);
    CHECK(s.centre() == double_tile(6) && s.highest_double() && s.hand(s.starter()).count() == 6);
    CHECK(s.current_player() == (s.starter() + 1) % 4);
    Rng g(seed);
    State chosen(pr, g, 3, 2);
    CHECK(chosen.centre() == -1 && !chosen.highest_double() && chosen.starter() == 2 &&
          chosen.current_player() == 2 && chosen.hand(2).count() == 7);
    // 5 tiles each: sometimes no double is dealt; then seat round_index mod p leads any tile.
    const Rules five = block(4, 6, std::nullopt, Lead::PuertoRico, {}, {}, 2);
    State f(five, seed, 5);
    CHECK(f.highest_double());
    if (f.centre() < 0) CHECK(f.starter() == 1 && f.current_player() == 1);
  }

  // P4 in matches: every round after the first is led by the seat the rule
  // names, with any tile; the batch's matches deal the same rounds.
  int cases[4] = {};  // out, blocker's team won, nobody won, blocker's team lost
  for (uint64_t seed = 0; seed < 40; ++seed) {
    const Rules five = block(4, 6, std::nullopt, Lead::PuertoRico, 150, {}, 2);
    Match m(five, seed);
    RoundResult prev;
    while (!m.is_over()) {
      State s = m.new_round();
      if (m.rounds_played() == 0) {
        CHECK(s.highest_double());
      } else {
        CHECK(!s.highest_double() && s.centre() == -1);
        int want;
        if (prev.out_seat >= 0) {
          want = prev.out_seat;
          ++cases[0];
        } else {
          int won = -1;
          for (int q = 0; q < 4; ++q)
            if (prev.points[q] > 0) won = q % 2;
          const int b = prev.last_placer;
          want = won < 0 ? prev.starter : won == b % 2 ? b : (b + 1) % 4;
          ++cases[won < 0 ? 2 : won == b % 2 ? 1 : 3];
        }
        CHECK(s.starter() == want && s.current_player() == want);
      }
      Bots bots({Policy::Random}, 4, seed);
      bots.play_out(s);
      prev = s.result();
      CHECK(prev.points[0] == prev.points[2] && prev.points[1] == prev.points[3]);
      m.add_result(prev);
    }
  }
  CHECK(cases[0] > 0 && cases[1] > 0 && cases[2] > 0 && cases[3] > 0);

  // P5: the teammates plane ends the observation.
  {
    const int base = observation_tensor_size(block(4, 6, 7));
    CHECK(observation_tensor_size(r) == base + 4);
    State s(r, 7);
    std::vector<float> obs(static_cast<size_t>(base + 4));
    for (int seat = 0; seat < 4; ++seat) {
      observation_tensor(s, seat, obs.data());
      for (int q = 0; q < 4; ++q) CHECK(obs[static_cast<size_t>(base + q)] == (q % 2 == seat % 2));
    }
  }
}

// What a newcomer's first mistakes are told (issue 20): a draw in a game
// without drawing says so first, and a tile beyond the set is not "not in hand".
static void test_first_words() {
  const State blocked(block(2), 3);
  const std::string draw = blocked.explain(Move::draw(), blocked.check(Move::draw()), -1);
  CHECK(draw.find("illegal move draw: Block has no drawing: ") == 0);
  const State cross(chicken_foot(2, 6), 1);
  const Move nine = Move::place(tile_index(9, 9), 0);
  CHECK(cross.check(nine) == Reason::NotInHand);
  CHECK(
      cross.explain(nine, Reason::NotInHand, -1).find("9-9 is not a tile of this set (double-6") !=
      std::string::npos);
}

static void test_block() {
  // Set-up: one shuffle, seat s takes positions s*h.., the rest is out of play;
  // a round on its own is led by seat k mod p on the lead end 0, which has no number.
  for (uint64_t seed = 0; seed < 100; ++seed) {
    const Rules r = block(3);
    const int k = static_cast<int>(seed % 7);
    State s(r, seed, k);
    Rng g(seed);
    uint8_t deck[28];
    for (int t = 0; t < 28; ++t) deck[t] = static_cast<uint8_t>(t);
    g.shuffle(deck, 28);
    bool dealt = true;
    for (int p = 0; p < 3; ++p)
      for (int j = 0; j < 5; ++j) dealt = dealt && s.hand(p).test(deck[p * 5 + j]);
    CHECK(dealt && s.yard_size() == 13 && s.yard_tile(0) == deck[15] && r.reserve == 13);
    CHECK(s.centre() == -1 && s.starter() == k % 3 && s.current_player() == k % 3);
    CHECK(s.num_open_ends() == 1 && s.open_end(0) == (OpenEnd{0, -1}) && s.num_placements() == 0);
    std::vector<Move> want;
    std::vector<int> acts;
    s.hand(k % 3).for_each([&](int t) {
      want.push_back(Move::place(t, 0));
      acts.push_back(2 * t);
    });
    CHECK(s.legal_moves() == want && s.legal_moves(true) == want && s.legal_actions() == acts);
    CHECK(s.num_actions() == 58 && s.check(Move::draw()) == Reason::MustPlace);
  }
  // lead = highest_double: the holder of the highest double has it placed; the next seat moves.
  for (uint64_t seed = 0; seed < 100; ++seed) {
    const Rules r = block(2, 6, std::nullopt, Lead::HighestDouble);
    State s(r, seed, 0);
    int best = -1, holder = -1;
    const Deal d = s.deal();
    for (int v = 6; v >= 0 && best < 0; --v)
      for (int p = 0; p < 2; ++p)
        if (s.hand(p).test(double_tile(v)) || d.centre == double_tile(v)) {
          best = v;
          holder = d.centre == double_tile(v) ? s.starter() : p;
        }
    if (d.centre >= 0) {
      CHECK(d.centre == double_tile(best) && s.starter() == holder &&
            s.current_player() == 1 - holder);
      CHECK(s.open_ends() == (std::vector<OpenEnd>{{0, best}, {1, best}}) &&
            s.num_placements() == 1);
      CHECK(s.hand(holder).count() == 6);
    } else {
      CHECK(s.starter() == 0 && s.open_end(0) == (OpenEnd{0, -1}));
    }
  }

  // A hand-built round: seat 1 leads.
  const Rules r = block(2);
  const Deal d = make_deal(
      r, -1, 1, {{ti(2, 5), ti(5, 5), ti(0, 1), ti(1, 5)}, {ti(2, 3), ti(3, 3), ti(6, 6)}});
  State s(r, d);
  const State at_deal = s;
  CHECK(s.current_player() == 1 && s.yard_size() == 21);
  CHECK(s.legal_moves() == (std::vector<Move>{pl(2, 3, 0), pl(3, 3, 0), pl(6, 6, 0)}));
  CHECK(s.legal_actions() == (std::vector<int>{2 * ti(2, 3), 2 * ti(3, 3), 2 * ti(6, 6)}));
  CHECK(s.move_to_action(pl(2, 3, 0)) == 2 * ti(2, 3) &&
        s.action_to_move(2 * ti(2, 3)) == pl(2, 3, 0));
  CHECK(throws<IllegalMove>([&] { s.action_to_move(2 * ti(2, 3) + 1); }));  // never a lead
  CHECK(s.check(pl(2, 3, 1)) == Reason::EndNotOpen && s.check(Move::pass()) == Reason::MustPlace);
  s.push(pl(2, 3, 0));  // the lead opens end 1 (its low half) and end 2 (its high half)
  CHECK(s.open_ends() == (std::vector<OpenEnd>{{1, 2}, {2, 3}}) && s.current_player() == 0);
  CHECK(s.placement(0).by == kNoNumber && s.placement(0).first == 1 && s.placement(0).created == 2);
  CHECK(s.legal_moves() == std::vector<Move>{pl(2, 5, 1)});
  CHECK(s.legal_actions() == std::vector<int>{2 * ti(2, 5)});
  CHECK(s.check(pl(2, 5, 2)) == Reason::NoMatch && s.check(Move::draw()) == Reason::MustPlace);
  s.push(pl(2, 5, 1));
  s.push(pl(3, 3, 2));  // a double is no spinner: one end of its number
  CHECK(s.open_ends() == (std::vector<OpenEnd>{{3, 5}, {4, 3}}) && s.current_player() == 0);
  s.push(pl(5, 5, 3));
  // Seat 1 holds 6-6 only: it passes (nobody draws in Block).
  CHECK(s.legal_moves() == std::vector<Move>{Move::pass()} &&
        s.legal_actions() == std::vector<int>{57});
  CHECK(s.check(Move::draw()) == Reason::YardExhausted && !s.is_over());
  s.push(Move::pass());
  s.push(pl(1, 5, 5));
  s.push(Move::pass());
  CHECK(s.legal_moves() == std::vector<Move>{pl(0, 1, 6)} &&
        s.legal_actions() == std::vector<int>{2 * ti(0, 1) + 1});
  s.push(pl(0, 1, 6));  // out: seat 0 scores the pips left in seat 1's hand
  CHECK(s.is_over() && s.result().reason == EndReason::Out && s.result().out_seat == 0);
  CHECK(s.result().points[0] == 12 && s.result().points[1] == 0 && s.result().moves == 8);
  CHECK(next_leader(r, s.result()) == 0);
  s.validate();
  State replay(r, s.deal());
  for (const Move& m : s.moves()) replay.push(m);
  CHECK(replay == s);
  while (s.num_moves()) s.pop();
  CHECK(s == at_deal);

  // A led double opens two ends of its number: equal numbers, one distinct placement.
  State t(r, make_deal(r, -1, 0, {{ti(3, 3), ti(1, 2)}, {ti(3, 4), ti(4, 4)}}));
  t.push(pl(3, 3, 0));
  CHECK(t.open_ends() == (std::vector<OpenEnd>{{1, 3}, {2, 3}}));
  CHECK(t.legal_moves() == (std::vector<Move>{pl(3, 4, 1), pl(3, 4, 2)}));
  CHECK(t.legal_moves(true) == std::vector<Move>{pl(3, 4, 1)});
  CHECK(t.legal_actions() == std::vector<int>{2 * ti(3, 4)} &&
        t.move_to_action(pl(3, 4, 2)) == 2 * ti(3, 4));

  // Blocked at the set-up (a double led by hand, nothing fits): the unique
  // lowest count wins the others' pips; a shared lowest count scores nobody.
  State b1(r, make_deal(r, double_tile(6), 0, {{ti(0, 2)}, {ti(0, 1)}}));
  CHECK(b1.is_over() && b1.result().reason == EndReason::Blocked && b1.result().points[1] == 2 &&
        b1.result().points[0] == 0 && next_leader(r, b1.result()) == 1);
  State b2(r, make_deal(r, double_tile(6), 1, {{ti(0, 2)}, {ti(1, 1)}}));
  CHECK(b2.is_over() && b2.result().points[0] == 0 && b2.result().points[1] == 0);
  CHECK(next_leader(r, b2.result()) == 0);  // nobody won: the seat after the leader
  CHECK(b2.current_player() == -1);
  CHECK(
      throws<StateError>([&] { State x(r, make_deal(r, ti(2, 3), 0, {{ti(0, 2)}, {ti(1, 1)}})); }));

  // A match: round 0 led by seat 0, then by the previous winner (or the next seat).
  for (uint64_t seed = 0; seed < 20; ++seed) {
    const Rules mr = block(3, 6, std::nullopt, Lead::Winner, 60);
    Match m(mr, seed);
    m.play({Policy::Random});
    const auto& res = m.results();
    CHECK(res[0].starter == 0);
    for (size_t i = 1; i < res.size(); ++i) CHECK(res[i].starter == next_leader(mr, res[i - 1]));
    const std::vector<int> tot = m.totals();
    const int best = *std::max_element(tot.begin(), tot.end());
    CHECK(best >= 60 || m.rounds_played() == mr.max_rounds);
    for (int p = 0; p < 3; ++p) CHECK(m.winners()[p] == (tot[p] == best));
  }
}

static void test_mexican_train() {
  // Set-up: the engine (N-k) in the hub, the rest shuffled once and dealt;
  // seat k mod p moves first; hub end t is train t (p: the Mexican train).
  for (uint64_t seed = 0; seed < 60; ++seed) {
    const Rules r = mexican_train(4);
    const int k = static_cast<int>(seed % 13);
    State s(r, seed, k);
    Rng g(seed);
    uint8_t deck[91];
    int n = 0;
    for (int t = 0; t < 91; ++t)
      if (t != double_tile(12 - k)) deck[n++] = static_cast<uint8_t>(t);
    g.shuffle(deck, 90);
    bool dealt = true;
    for (int p = 0; p < 4; ++p)
      for (int j = 0; j < 15; ++j) dealt = dealt && s.hand(p).test(deck[p * 15 + j]);
    CHECK(dealt && s.yard_size() == 30 && s.yard_tile(0) == deck[60]);
    CHECK(s.centre() == double_tile(12 - k) && s.starter() == k % 4 && s.current_player() == k % 4);
    CHECK(s.num_open_ends() == 5 && s.num_actions() == 457 && s.markers() == 0);
    for (int t = 0; t < 5; ++t) CHECK(s.open_end(t) == (OpenEnd{t, 12 - k}) && s.train_of(t) == t);
    CHECK(s.train_of(5) == -1 && s.train_of(-1) == -1);
  }

  // A hand-built round on double-6, 2 players: trains 0, 1 and the Mexican train 2.
  const Rules r = mexican_train(2, 6);
  CHECK(r.hand_size == 4 && r.slots == 3 && r.reserve == 0);
  const Deal d = make_deal(
      r, double_tile(6), 0,
      {{ti(3, 6), ti(3, 3), ti(5, 6), ti(0, 1)}, {ti(2, 4), ti(4, 4), ti(0, 5), ti(1, 3)}},
      {ti(0, 0), ti(2, 5), ti(0, 3)});
  State s(r, d);
  const State at_deal = s;
  CHECK(s.current_player() == 0 && s.num_actions() == 28 * 3 + 2);
  // Canonical order by (tile, train); action id = tile * 3 + train.
  CHECK(s.legal_moves() == (std::vector<Move>{pl(3, 6, 0), pl(3, 6, 2), pl(5, 6, 0), pl(5, 6, 2)}));
  CHECK(s.legal_moves(true) == s.legal_moves());
  CHECK(s.legal_actions() ==
        (std::vector<int>{ti(3, 6) * 3, ti(3, 6) * 3 + 2, ti(5, 6) * 3, ti(5, 6) * 3 + 2}));
  CHECK(s.action_to_move(ti(5, 6) * 3 + 2) == pl(5, 6, 2) &&
        s.move_to_action(pl(3, 6, 2)) == ti(3, 6) * 3 + 2);
  CHECK(s.check(pl(3, 6, 1)) == Reason::NotYourTrain);  // seat 1's train, no marker
  CHECK(throws<IllegalMove>([&] { s.action_to_move(ti(3, 6) * 3 + 1); }));
  s.push(pl(3, 6, 0));  // end 3 (number 3) on train 0
  CHECK(s.train_of(3) == 0 && s.train_of(0) == -1 && s.current_player() == 1);
  // Seat 1 has no 6: it must draw; 0-0 fits nowhere; it passes and marks its train.
  CHECK(s.legal_moves() == std::vector<Move>{Move::draw()} &&
        s.check(Move::pass()) == Reason::MustDraw);
  s.push(Move::draw());
  CHECK(s.drawn_tile() == ti(0, 0) && s.legal_moves() == std::vector<Move>{Move::pass()});
  CHECK(s.check(pl(2, 4, 1)) == Reason::NotDrawnTile &&
        s.check(Move::draw()) == Reason::AlreadyDrew);
  s.push(Move::pass());
  CHECK(s.markers() == 2u && s.has_marker(1) && s.current_player() == 0);
  // Seat 1's train is open to seat 0 now.
  CHECK(s.legal_moves() == (std::vector<Move>{pl(3, 3, 3), pl(5, 6, 1), pl(5, 6, 2)}));
  s.push(pl(5, 6, 1));  // end 4 (number 5) on train 1; the marker stays
  CHECK(s.train_of(4) == 1 && s.markers() == 2u);
  s.push(pl(0, 5, 4));  // seat 1 on its own train: the marker comes off
  CHECK(s.markers() == 0u && s.current_player() == 0 && s.train_of(5) == 1);
  CHECK(s.check(pl(0, 1, 5)) == Reason::NotYourTrain);
  // A double: unsatisfied, and seat 0 moves again.
  s.push(pl(3, 3, 3));
  CHECK(s.current_player() == 0 && s.pending_kind() == Pending::Double &&
        s.pending_ends() == std::vector<int>{6});
  CHECK(s.train_of(6) == 0 && s.check(pl(0, 1, 5)) == Reason::DoubleUnsatisfied);
  // Seat 0 cannot satisfy it: it draws 2-5 (no 3) and passes, marking its train.
  CHECK(s.legal_moves() == std::vector<Move>{Move::draw()});
  s.push(Move::draw());
  s.push(Move::pass());
  CHECK(s.markers() == 1u && s.current_player() == 1 && s.pending_ends() == std::vector<int>{6});
  // The obligation moves on: seat 1's only legal end is the double's.
  CHECK(s.legal_moves() == std::vector<Move>{pl(1, 3, 6)});
  CHECK(s.check(pl(2, 4, 2)) == Reason::DoubleUnsatisfied);
  s.push(pl(1, 3, 6));
  CHECK(s.pending_kind() == Pending::None && s.current_player() == 0 && s.end_number(7) == 1);
  // Seat 0 on its own train lifts its marker.
  CHECK(s.legal_moves() == std::vector<Move>{pl(0, 1, 7)});
  s.push(pl(0, 1, 7));
  CHECK(s.markers() == 0u && s.current_player() == 1);
  // Seat 1: 0-0 on its own train (number 0): a double again, its extra turn;
  // the drawn 0-3 satisfies it and must be placed.
  CHECK(s.legal_moves() == std::vector<Move>{pl(0, 0, 5)});
  s.push(pl(0, 0, 5));
  CHECK(s.current_player() == 1 && s.pending_ends() == std::vector<int>{9});
  s.push(Move::draw());
  CHECK(s.drawn_tile() == ti(0, 3) && s.legal_moves() == std::vector<Move>{pl(0, 3, 9)});
  CHECK(s.check(Move::pass()) == Reason::MustPlaceDrawn);
  CHECK(s.legal_actions() == std::vector<int>{ti(0, 3) * 3 + 1});
  s.push(pl(0, 3, 9));
  CHECK(s.current_player() == 0 && s.num_moves() == 13 && !s.is_over());
  s.validate();
  // Play it out; replay the record; pop back to the deal.
  Bots bots({Policy::Greedy}, 2, 1);
  bots.play_out(s);
  CHECK(s.is_over());
  for (int p = 0; p < 2; ++p) CHECK(s.result().points[p] == s.pips(p));
  State replay(r, s.deal());
  for (const Move& m : s.moves()) replay.push(m);
  CHECK(replay == s);
  while (s.num_moves()) s.pop();
  CHECK(s == at_deal);

  // Going out on a double ends the round at once; the double stays unsatisfied.
  State o(r, make_deal(r, double_tile(6), 0, {{ti(5, 6), ti(5, 5)}, {ti(1, 2)}}));
  o.push(pl(5, 6, 0));
  o.push(Move::draw());
  while (o.current_player() == 1) o.push(o.legal_moves().front());
  CHECK(o.legal_moves().front() == pl(5, 5, 3));
  o.push(pl(5, 5, 3));
  CHECK(o.is_over() && o.result().reason == EndReason::Out && o.result().out_seat == 0);
  CHECK(o.pending_ends() == std::vector<int>{o.next_end_id() - 1} && o.result().points[0] == 0);

  // The engine of a hand-built deal must be the round's double.
  CHECK(throws<StateError>(
      [&] { State x(r, make_deal(r, double_tile(5), 0, {{ti(1, 2)}, {ti(1, 3)}})); }));
  CHECK(throws<StateError>([&] { State x(r, make_deal(r, -1, 0, {{ti(1, 2)}, {ti(1, 3)}})); }));

  // A match: N+1 rounds from the engines N..0, seat k mod p first, lowest total wins.
  for (uint64_t seed = 0; seed < 10; ++seed) {
    const Rules mr = mexican_train(3, 6);
    Match m(mr, seed);
    m.play({Policy::Random, Policy::Greedy, Policy::Random});
    CHECK(m.rounds_played() == 7);
    for (int k = 0; k < 7; ++k) CHECK(m.results()[static_cast<size_t>(k)].starter == k % 3);
    const std::vector<int> tot = m.totals();
    const int best = *std::min_element(tot.begin(), tot.end());
    for (int p = 0; p < 3; ++p) CHECK(!m.winners()[p] || tot[p] == best);
  }
}

// Leaves of the tree of every legal move (the full listing), to `depth`: a
// fingerprint of move generation, apply and undo. The counts were checked
// against the pure-Python reference (dominocore.reference).
static long perft(State& s, int depth) {
  if (depth == 0 || s.is_over()) return 1;
  long n = 0;
  for (const Move& m : s.legal_moves()) {
    s.push(m);
    n += perft(s, depth - 1);
    s.pop();
  }
  return n;
}

static void test_perft() {
  struct Case {
    Rules r;
    uint64_t seed;
    int depth;
    long leaves;
  };
  const std::vector<Case> cases = {
      {block(2), 3, 6, 1433},
      {block(4, 9, std::nullopt, Lead::HighestDouble), 5, 8, 1924},
      {mexican_train(4), 7, 6, 3549},
      {mexican_train(2, 9, std::nullopt, DrawnTile::May), 11, 8, 5201},
      {chicken_foot(3, 6), 1, 7, 5328},
      {doubles(2), 2, 5, 1296},
  };
  for (const Case& c : cases) {
    State s(c.r, c.seed, 0);
    const State before = s;
    const long n = perft(s, c.depth);
    if (n != c.leaves)
      std::printf("  perft %s seed %llu depth %d: %ld leaves (expected %ld)\n",
                  describe(c.r).c_str(), static_cast<unsigned long long>(c.seed), c.depth, n,
                  c.leaves);
    CHECK(n == c.leaves && s == before);
  }
}

static void test_match_and_sim() {
  // A whole Chicken Foot match: N+1 rounds from the doubles N..0.
  for (uint64_t seed = 0; seed < 20; ++seed) {
    Match m(chicken_foot(3, 6), seed);
    int k = 0;
    while (!m.is_over()) {
      State s = m.new_round();
      CHECK(s.round_index() == k && s.centre() == double_tile(6 - k));
      CHECK(throws<StateError>([&] { m.new_round(); }));
      Bots b({Policy::Greedy, Policy::Random, Policy::Random}, 3, seed);
      b.play_out(s);
      m.add_result(s.result());
      ++k;
    }
    CHECK(k == 7 && m.rounds_played() == 7);
    const std::vector<bool> w = m.winners();
    int nw = 0, best = 1 << 30;
    for (int p = 0; p < 3; ++p) best = std::min(best, m.total(p));
    for (int p = 0; p < 3; ++p) {
      nw += w[p];
      if (w[p]) CHECK(m.total(p) == best);
    }
    CHECK(nw >= 1);
  }
  // Tie-breaks of docs/rules.md 2.5 on made-up results.
  const Rules r = chicken_foot(3, 6);
  std::vector<RoundResult> res(7);
  for (auto& x : res) x.players = 3;
  res[0].points = {10, 0, 5};
  res[1].points = {0, 10, 5};  // totals 10, 10, 10; zeros 1, 1, 0
  CHECK((match_winners(r, res) == std::vector<bool>{true, true, false}));
  res[2].points = {0, 0, 0};
  res[0].points = {4, 0, 5};
  res[1].points = {6, 10, 5};  // totals 10, 10, 10; zeros: 1, 2, 1 -> seat 1
  CHECK((match_winners(r, res) == std::vector<bool>{false, true, false}));
  res[0].points = {4, 0, 0};
  res[1].points = {6, 10, 10};  // zeros 1,2,2; lowest non-zero: 10 vs 10 -> share
  CHECK((match_winners(r, res) == std::vector<bool>{false, true, true}));
  res[1].points = {6, 10, 9};
  res[3].points = {0, 0, 1};  // totals 10, 10, 10; zeros 5, 6, 5 -> seat 1
  CHECK((match_winners(r, res) == std::vector<bool>{false, true, false}));

  // Doubles match: ends when a total reaches the target.
  for (uint64_t seed = 0; seed < 20; ++seed) {
    Match m(doubles(3), seed);
    m.play({Policy::Random});
    const std::vector<bool> w = m.winners();
    int nw = 0;
    for (int p = 0; p < 3; ++p) {
      nw += w[p];
      CHECK(!w[p] || m.total(p) >= 100);
    }
    CHECK(nw == 1);
  }

  // Simulation: same arrays with 1 and 2 threads; matches simulate as Match::play.
  struct Case {
    Rules r;
    std::vector<Policy> pol;
  };
  const std::vector<Case> cases = {
      {chicken_foot(4), {Policy::Random}},
      {chicken_foot(3, 12, RuleSet::Cross), {Policy::Greedy, Policy::Random, Policy::Random}},
      {doubles(2), {Policy::Random}},
      {block(3), {Policy::Random}},
      {block(2, 9, std::nullopt, Lead::HighestDouble), {Policy::Greedy, Policy::Random}},
      {mexican_train(4, 9), {Policy::Random}},
      {mexican_train(3, 12, std::nullopt, DrawnTile::May),
       {Policy::Greedy, Policy::Random, Policy::Random}},
      {doubles(4, 9), {Policy::Greedy}}};
  for (const Case& c : cases) {
    const SimResult a = simulate_matches(c.r, 1200, 77, c.pol, 1);
    const SimResult b = simulate_matches(c.r, 1200, 77, c.pol, 2);
    CHECK(a.points == b.points && a.reason == b.reason && a.out_seat == b.out_seat &&
          a.starter == b.starter && a.moves == b.moves && a.match_index == b.match_index &&
          a.totals == b.totals && a.winners == b.winners);
    CHECK(a.num_matches() == 1200);
    if ((c.r.game == Game::ChickenFoot))
      CHECK(a.num_rounds() == 1200u * static_cast<unsigned>(c.r.set + 1));
    // Match 5 replayed by hand.
    Match m(c.r, 77 + 5);
    m.play(c.pol);
    size_t first = 0;
    while (a.match_index[first] != 5) ++first;
    for (int k = 0; k < m.rounds_played(); ++k)
      for (int p = 0; p < c.r.players; ++p)
        CHECK(a.points[(first + static_cast<size_t>(k)) * static_cast<size_t>(c.r.players) +
                       static_cast<size_t>(p)] ==
              m.results()[static_cast<size_t>(k)].points[static_cast<size_t>(p)]);
    const SimResult x = simulate_rounds(c.r, 2000, 5, 2, c.pol, 1);
    const SimResult y = simulate_rounds(c.r, 2000, 5, 2, c.pol, 2);
    CHECK(x.points == y.points && x.reason == y.reason && x.out_seat == y.out_seat &&
          x.starter == y.starter && x.moves == y.moves && x.match_index == y.match_index);
    // Round 7 by hand: its own generators.
    State s(c.r, uint64_t{5 + 7}, 2);
    Bots bots(c.pol, c.r.players, 5 + 7);
    bots.play_out(s);
    CHECK(x.moves[7] == s.result().moves && x.starter[7] == s.result().starter);
  }
  CHECK(throws<RulesError>(
      [] { simulate_rounds(chicken_foot(4), 10, 1, 0, {Policy::Random, Policy::Greedy}); }));
  CHECK(throws<StateError>([] { simulate_rounds(chicken_foot(4), 10, 1, 10); }));
}

// Plays matches round by round and checks the running tally of Match against
// the results recomputed from scratch after every round.
static void test_match_tally() {
  const std::vector<Rules> rules = {chicken_foot(3, 6), chicken_foot(4, 9, RuleSet::Cross),
                                    doubles(2), doubles(3, 6, std::nullopt, 60, 4)};
  for (const Rules& r : rules)
    for (uint64_t seed = 0; seed < 30; ++seed) {
      Match m(r, seed);
      Bots bots({Policy::Random}, r.players, seed);
      while (!m.is_over()) {
        State s = m.new_round();
        bots.play_out(s);
        m.add_result(s.result());
        bool totals_agree = true;
        for (int p = 0; p < r.players; ++p) {
          int total = 0, zeros = 0, low = INT_MAX;
          for (const RoundResult& x : m.results()) {
            total += x.points[p];
            if (x.points[p] == 0)
              ++zeros;
            else
              low = std::min(low, x.points[p]);
          }
          totals_agree = totals_agree && total == m.total(p) && zeros == m.tally().zero_rounds[p] &&
                         low == m.tally().lowest_nonzero[p];
        }
        CHECK(totals_agree);
        CHECK(m.is_over() == match_over(r, m.results()));
        CHECK(m.winners() == match_winners(r, m.results()));
      }
      if ((r.game == Game::Doubles)) {  // the highest totals win
        const std::vector<int> totals = m.totals();
        const int best = *std::max_element(totals.begin(), totals.end());
        for (int p = 0; p < r.players; ++p) CHECK(m.winners()[p] == (m.total(p) == best));
        CHECK(best >= r.target || m.rounds_played() == r.max_rounds);
      }
    }

  // Doubles max_rounds: a target out of reach ends every match after exactly
  // max_rounds rounds; equal highest totals share the win.
  const Rules capped = doubles(2, 6, std::nullopt, kMaxTarget, 3);
  for (uint64_t seed = 0; seed < 20; ++seed) {
    Match m(capped, seed);
    m.play({Policy::Random});
    CHECK(m.rounds_played() == 3);
  }
  std::vector<RoundResult> res(3);
  for (auto& x : res) x.players = 2;
  res[0].points = {10, 0};
  res[1].points = {0, 10};
  CHECK(!match_over(capped, std::vector<RoundResult>(res.begin(), res.begin() + 2)));
  CHECK(match_over(capped, res));
  CHECK((match_winners(capped, res) == std::vector<bool>{true, true}));
  res[2].points = {0, 1};
  CHECK((match_winners(capped, res) == std::vector<bool>{false, true}));
  const SimResult sim = simulate_matches(capped, 50, 9, {Policy::Random}, 2);
  CHECK(sim.num_rounds() == 150 && sim.num_matches() == 50);
}

// Thread cap, count cap, progress and cancellation of the simulations.
static void test_sim_control() {
  const Rules r = chicken_foot(2, 6);
  CHECK(
      throws<RulesError>([&] { simulate_rounds(r, 10, 1, 0, {Policy::Random}, kMaxThreads + 1); }));
  CHECK(throws<RulesError>([&] { simulate_matches(r, 10, 1, {Policy::Random}, kMaxThreads + 1); }));
  CHECK(throws<RulesError>([&] { simulate_rounds(r, kMaxSimCount + 1, 1); }));
  CHECK(throws<RulesError>([&] { simulate_matches(r, kMaxSimCount + 1, 1); }));
  CHECK(throws<RulesError>([&] { simulate_rounds(r, ~uint64_t{0}, 1); }));
  // The largest count is accepted, but its result cannot fit in memory.
  CHECK(throws<std::bad_alloc>([&] { simulate_rounds(r, kMaxSimCount, 1); }));
  CHECK(throws<std::bad_alloc>([&] { simulate_matches(r, kMaxSimCount, 1); }));
  // As many threads as allowed (one per chunk of 16 matches), or all cores:
  // the same results as one thread.
  const SimResult one = simulate_matches(r, 16 * kMaxThreads, 3, {Policy::Random}, 1);
  const SimResult most = simulate_matches(r, 16 * kMaxThreads, 3, {Policy::Random}, kMaxThreads);
  const SimResult cores = simulate_matches(r, 16 * kMaxThreads, 3, {Policy::Random}, 0);
  CHECK(one.points == most.points && one.totals == most.totals && one.winners == most.winners);
  CHECK(one.points == cores.points && one.match_index == cores.match_index);
  const SimResult none = simulate_rounds(r, 0, 3, 0, {Policy::Random}, 4);
  CHECK(none.num_rounds() == 0 && none.points.empty());

  // The monitor: done never decreases and ends at total, with a last call.
  for (bool matches : {false, true}) {
    std::vector<std::pair<uint64_t, uint64_t>> calls;
    auto record = [&](uint64_t done, uint64_t total) {
      calls.emplace_back(done, total);
      return true;
    };
    const uint64_t n = matches ? 3000 : 60000;
    const SimResult res = matches ? simulate_matches(r, n, 1, {Policy::Random}, 2, record)
                                  : simulate_rounds(r, n, 1, 0, {Policy::Random}, 2, record);
    CHECK(!calls.empty() && calls.back() == std::make_pair(n, n));
    for (size_t k = 0; k < calls.size(); ++k)
      CHECK(calls[k].second == n && calls[k].first <= n &&
            (k == 0 || calls[k - 1].first <= calls[k].first));
    CHECK(matches ? res.num_matches() == n : res.num_rounds() == n);
  }
  {  // an empty run still reports its end
    int calls = 0;
    simulate_rounds(r, 0, 1, 0, {Policy::Random}, 1, [&](uint64_t done, uint64_t total) {
      ++calls;
      return done == 0 && total == 0;
    });
    CHECK(calls == 1);
  }

  // Stopping: matches that would take minutes (max_rounds rounds each, the
  // target out of reach) stop between the rounds of a match, soon after the
  // monitor says so; what the monitor throws comes out unchanged.
  const Rules long_matches = doubles(2, 6, std::nullopt, kMaxTarget, kMaxMaxRounds);
  struct Stop {
    int code;
  };
  for (int how = 0; how < 3; ++how) {
    const auto t0 = std::chrono::steady_clock::now();
    double stopped_after = -1;
    auto monitor = [&](uint64_t, uint64_t) {
      stopped_after = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (how == 2) throw Stop{7};
      return false;
    };
    bool threw = false;
    try {
      if (how == 0)
        simulate_matches(long_matches, 1000, 1, {Policy::Random}, 2, monitor);
      else
        simulate_rounds(chicken_foot(4), 2000000, 1, 0, {Policy::Random}, 2, monitor);
    } catch (const Cancelled&) {
      threw = how < 2;
    } catch (const Stop& e) {
      threw = how == 2 && e.code == 7;
    }
    const double total =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    CHECK(threw && stopped_after >= 0);
    CHECK(total - stopped_after < 0.5);  // about a round's time, plus the joins
  }
}

static void bench() {
  // Best of 5 runs: the figure is a rough one, and other processes share the CPU.
  const Rules r = chicken_foot(4, 9);
  const uint64_t n = 60000;
  double best = 1e30;
  long moves = 0;
  for (int rep = 0; rep < 5; ++rep) {
    const auto t0 = std::chrono::steady_clock::now();
    const SimResult res = simulate_rounds(r, n, 12345 + rep * n, 0, {Policy::Random}, 1);
    const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (sec < best) {
      best = sec;
      moves = 0;
      for (int32_t m : res.moves) moves += m;
    }
  }
  std::printf(
      "  bench: trains d9 4p random, 1 thread: %.0f rounds/s, %.1f moves/round, %.1f ns/move\n",
      static_cast<double>(n) / best, static_cast<double>(moves) / static_cast<double>(n),
      best * 1e9 / static_cast<double>(moves));
  auto t0 = std::chrono::steady_clock::now();
  auto t1 = t0;
  // Set-up alone, for reference.
  Rng g(1);
  State s(r, g, 0);
  t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 200000; ++i) s.set_up(g, 0);
  t1 = std::chrono::steady_clock::now();
  std::printf("  bench: trains d9 4p set-up only: %.0f ns\n",
              std::chrono::duration<double>(t1 - t0).count() * 1e9 / 200000);
  // Clone: a mid-round state (20 moves of history) copied, as search does.
  for (int i = 0; i < 20 && !s.is_over(); ++i) s.push_unchecked(s.legal_moves(true).front());
  long sink = 0;
  t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 200000; ++i) {
    State copy = s;
#if defined(__GNUC__)
    asm volatile("" : : "r"(&copy) : "memory");  // keep the whole copy
#endif
    sink += copy.num_moves();
  }
  t1 = std::chrono::steady_clock::now();
  std::printf(
      "  bench: clone of a round state (sizeof %zu bytes + %d moves of history): %.0f ns%s\n",
      sizeof(State), s.num_moves(), std::chrono::duration<double>(t1 - t0).count() * 1e9 / 200000,
      sink ? "" : " ");
  // What a seat may know, in mid-round (20 moves): the hash and the observation.
  std::vector<float> obs(static_cast<size_t>(observation_tensor_size(r)));
  uint64_t hashes = 0;
  t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 200000; ++i) hashes += information_state_hash(s, i & 3);
  t1 = std::chrono::steady_clock::now();
  const double hash_ns = std::chrono::duration<double>(t1 - t0).count() * 1e9 / 200000;
  t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 200000; ++i) observation_tensor(s, i & 3, obs.data());
  t1 = std::chrono::steady_clock::now();
  std::printf("  bench: information_state_hash %.0f ns, observation_tensor %.0f ns%s\n", hash_ns,
              std::chrono::duration<double>(t1 - t0).count() * 1e9 / 200000,
              hashes + static_cast<uint64_t>(obs[0]) ? "" : " ");
  const Rules d = doubles(2);
  t0 = std::chrono::steady_clock::now();
  const SimResult rd = simulate_matches(d, 20000, 1, {Policy::Random}, 1);
  t1 = std::chrono::steady_clock::now();
  std::printf("  bench: doubles d6 2p random: %.0f rounds/s (%zu rounds in %zu matches)\n",
              static_cast<double>(rd.num_rounds()) / std::chrono::duration<double>(t1 - t0).count(),
              rd.num_rounds(), rd.num_matches());
}

void test_fives();    // selftest_fives.cpp
void test_network();  // selftest_network.cpp

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  const bool no_bench = argc > 1 && std::strcmp(argv[argc - 1], "--no-bench") == 0;
  std::printf("dominocore self-test\n");
  test_rng();
  std::printf("  rng ok\n");
  test_tiles();
  test_end_arrays();
  test_rules();
  std::printf("  tiles and rules ok\n");
  test_setups();
  test_scenarios();
  test_block();
  test_partnership();
  test_first_words();
  test_mexican_train();
  test_fives();
  test_network();
  test_perft();
  test_information();
  std::printf("  set-ups, scenarios and information ok\n");
  test_random_rounds(quick);
  test_fives_pick_by_rank(quick);
  test_match_and_sim();
  test_match_tally();
  test_sim_control();
  std::printf("  matches and simulation ok\n");
  if (!no_bench) bench();
  std::printf("%s: %ld checks, %d failures\n", selftest::failures ? "FAILED" : "OK",
              selftest::checks, selftest::failures);
  return selftest::failures ? 1 : 0;
}
