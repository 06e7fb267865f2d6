// The checks of what a seat knows that need no world (search_knowledge.hpp).
#include "search_knowledge.hpp"

#include <string>
#include <vector>

#include "dominocore/games/registry.hpp"
#include "dominocore/information.hpp"

namespace dominocore::detail {

namespace {
std::string str(long long v) { return std::to_string(v); }
}  // namespace

[[noreturn]] void bad_knowledge(const std::string& why) {
  throw StateError("inconsistent seat knowledge: " + why);
}

void check_knowledge(const Rules& rules, const SeatKnowledge& k) {
  const int p = rules.players, T = rules.tiles(), s = k.seat;
  if (s < 0 || s >= p) bad_knowledge("seat " + str(s) + " is not a seat 0.." + str(p - 1));
  const int rounds = rules.rounds_per_match();
  if (k.round_index < 0 || (rounds > 0 && k.round_index >= rounds))
    bad_knowledge("round index " + str(k.round_index) + " is out of range" +
                  (rounds > 0 ? " 0.." + str(rounds - 1) : std::string(" (must be >= 0)")));
  if (k.centre < -1 || k.centre >= T)
    bad_knowledge("centre " + str(k.centre) + " is not a tile of the set (0.." + str(T - 1) + ")");
  Deal probe;  // the games' centre checks read the round index and the centre only
  probe.round_index = k.round_index;
  probe.centre = k.centre;
  bool searches = false, highest_double = false;  // what the game's set-up may do
  games::with_game(rules.game, [&](auto tag) {
    using G = DOMINOCORE_GAME(tag);
    G::check_deal(rules, probe);
    searches = G::setup_searches(rules);
    highest_double = G::setup_highest_double(rules);
  });
  if (k.starter < 0 || k.starter >= p)
    bad_knowledge("starter " + str(k.starter) + " is not a seat 0.." + str(p - 1));
  if (k.highest_double && !highest_double)
    bad_knowledge("highest_double is only a fact of Doubles' and Block's set-ups");
  // Sizes, before anything is sized by them.
  if (static_cast<int>(k.hand_sizes.size()) != p || static_cast<int>(k.search_counts.size()) != p)
    bad_knowledge("hand sizes and search counts need one entry per seat (" + str(p) + ")");
  for (int j = 0; j < p; ++j) {
    const int h = k.hand_sizes[static_cast<size_t>(j)], c = k.search_counts[static_cast<size_t>(j)];
    if (h < 0 || h > T)
      bad_knowledge("hand size " + str(h) + " of seat " + str(j) + " is not 0.." + str(T));
    if (c < 0 || c > T)
      bad_knowledge("search count " + str(c) + " of seat " + str(j) + " is not 0.." + str(T));
  }
  if (static_cast<int>(k.hand.size()) != k.hand_sizes[static_cast<size_t>(s)])
    bad_knowledge("the seat holds " + str(static_cast<long long>(k.hand.size())) +
                  " tiles but its hand size is " + str(k.hand_sizes[static_cast<size_t>(s)]));
  const size_t n = k.moves.size();
  if (n > static_cast<size_t>(information_state_history_bound(rules)))
    bad_knowledge("a history of " + str(static_cast<long long>(n)) +
                  " moves is longer than any round of these rules (" +
                  str(information_state_history_bound(rules)) + ")");
  if (k.movers.size() != n || k.drawn.size() != n)
    bad_knowledge("the history's movers, moves and drawn tiles differ in length");
  if (k.own_search.size() > static_cast<size_t>(T))
    bad_knowledge("more own search draws than tiles in the set");

  // The cross's search: seats (round_index + i) mod p drew in turn, the last
  // (the starter) the round's double.
  int total_search = 0;
  for (int c : k.search_counts) total_search += c;
  if (total_search > 0) {
    if (!searches) bad_knowledge("only Chicken Foot's cross searches for the round's double");
    if (total_search > T) bad_knowledge("more search draws than tiles in the set");
    std::vector<int> expected(static_cast<size_t>(p), 0);
    for (int i = 0; i < total_search; ++i)
      ++expected[static_cast<size_t>((k.round_index % p + i) % p)];
    if (expected != k.search_counts)
      bad_knowledge("the search counts do not follow the rotation from seat round_index mod p");
    const int last = (k.round_index % p + total_search - 1) % p;
    if (last != k.starter)
      bad_knowledge("the search's last draw (the round's double) was seat " + str(last) +
                    "'s, so the starter must be " + str(last) + ", not " + str(k.starter));
  }
  if (static_cast<int>(k.own_search.size()) != k.search_counts[static_cast<size_t>(s)])
    bad_knowledge("the seat's own search draws do not match its search count");

  // Tiles: each where it can be, once. `where[t]`: 0 unseen, 1 centre, 2 own
  // hand, 3 placed.
  std::vector<int> where(static_cast<size_t>(T), 0);
  auto tile_ok = [&](int t, const char* what) {
    if (t < 0 || t >= T)
      bad_knowledge(std::string(what) + " " + str(t) + " is not a tile of the set (0.." +
                    str(T - 1) + ")");
  };
  if (k.centre >= 0) where[static_cast<size_t>(k.centre)] = 1;
  for (int t : k.hand) {
    tile_ok(t, "a tile of the hand");
    if (where[static_cast<size_t>(t)] != 0)
      bad_knowledge("the hand's tile " + tile_name(t) + " is the centre or held twice");
    where[static_cast<size_t>(t)] = 2;
  }
  std::vector<int> places(static_cast<size_t>(p), 0), draws(static_cast<size_t>(p), 0);
  std::vector<uint8_t> own_drawn(static_cast<size_t>(T), 0);  // 1 drawn, 2 drawn then placed
  std::vector<int> placer(static_cast<size_t>(T), -1);
  for (size_t i = 0; i < n; ++i) {
    const int m = k.movers[i];
    if (m < 0 || m >= p)
      bad_knowledge("move " + str(static_cast<long long>(i)) + "'s mover " + str(m) +
                    " is not a seat");
    const Move& mv = k.moves[i];
    const bool own_draw = mv.kind == MoveKind::Draw && m == s;
    if (!own_draw && k.drawn[i] != -1)
      bad_knowledge("move " + str(static_cast<long long>(i)) +
                    " shows a drawn tile but is not the seat's own Draw");
    if (mv.kind == MoveKind::Place) {
      tile_ok(mv.tile, "a placed tile");
      if (where[static_cast<size_t>(mv.tile)] != 0)
        bad_knowledge("move " + str(static_cast<long long>(i)) + " places " + tile_name(mv.tile) +
                      ", which is the centre, placed before or still in the seat's hand");
      where[static_cast<size_t>(mv.tile)] = 3;
      placer[static_cast<size_t>(mv.tile)] = m;
      if (own_drawn[static_cast<size_t>(mv.tile)] == 1) {
        if (m != s)
          bad_knowledge("move " + str(static_cast<long long>(i)) + " places " + tile_name(mv.tile) +
                        ", which the seat drew");
        own_drawn[static_cast<size_t>(mv.tile)] = 2;
      }
      ++places[static_cast<size_t>(m)];
    } else if (mv.kind == MoveKind::Draw) {
      ++draws[static_cast<size_t>(m)];
      if (own_draw) {
        const int t = k.drawn[i];
        tile_ok(t, "a drawn tile");
        if (own_drawn[static_cast<size_t>(t)] != 0 || where[static_cast<size_t>(t)] == 1 ||
            where[static_cast<size_t>(t)] == 3)
          bad_knowledge("move " + str(static_cast<long long>(i)) + " draws " + tile_name(t) +
                        ", which was drawn, placed or set up before");
        own_drawn[static_cast<size_t>(t)] = 1;
      }
    }
  }
  for (int t = 0; t < T; ++t)  // a drawn tile is still held, or was placed by the seat
    if (own_drawn[static_cast<size_t>(t)] == 1 && where[static_cast<size_t>(t)] != 2)
      bad_knowledge("the seat drew " + tile_name(t) + " but neither holds nor placed it");
  // Hands as dealt (search draws but the centre included), and the yard.
  long long dealt = 0;
  for (int j = 0; j < p; ++j) {
    const long long initial = static_cast<long long>(k.hand_sizes[static_cast<size_t>(j)]) +
                              places[static_cast<size_t>(j)] - draws[static_cast<size_t>(j)];
    const int searched =
        k.search_counts[static_cast<size_t>(j)] - (total_search > 0 && j == k.starter ? 1 : 0);
    if (initial < searched || initial > T)
      bad_knowledge("seat " + str(j) +
                    "'s hand does not add up: " + str(k.hand_sizes[static_cast<size_t>(j)]) +
                    " tiles now, " + str(places[static_cast<size_t>(j)]) + " placed, " +
                    str(draws[static_cast<size_t>(j)]) + " drawn, " + str(searched) + " searched");
    if (n > 0 && initial == 0)
      bad_knowledge("seat " + str(j) + " held no tile at the deal: the round was over at once");
    dealt += initial;
  }
  const long long yard = T - (k.centre >= 0 ? 1 : 0) - dealt;
  long long total_draws = 0;
  for (int d : draws) total_draws += d;
  if (yard < total_draws)
    bad_knowledge("the hands, the layout and the draws hold more tiles than the set");
  // The seat's own search draws: in its dealt hand (the round's double last, when it is the
  // starter).
  for (size_t i = 0; i < k.own_search.size(); ++i) {
    const int t = k.own_search[i];
    tile_ok(t, "an own search draw");
    const bool closes = total_search > 0 && s == k.starter && i + 1 == k.own_search.size();
    const bool dealt_to_seat =
        own_drawn[static_cast<size_t>(t)] == 0 &&
        (where[static_cast<size_t>(t)] == 2 ||
         (where[static_cast<size_t>(t)] == 3 && placer[static_cast<size_t>(t)] == s));
    if (closes ? t != k.centre : !dealt_to_seat)
      bad_knowledge("the seat's search draw " + tile_name(t) + " is not in its dealt hand");
    if (!closes)
      for (size_t j = 0; j < i; ++j)
        if (k.own_search[j] == t) bad_knowledge("a search draw repeats " + tile_name(t));
  }
  // Hand counts through the history: a seat that emptied its hand ended the round.
  std::vector<long long> held(static_cast<size_t>(p));
  for (int j = 0; j < p; ++j)
    held[static_cast<size_t>(j)] = static_cast<long long>(k.hand_sizes[static_cast<size_t>(j)]) +
                                   places[static_cast<size_t>(j)] - draws[static_cast<size_t>(j)];
  for (size_t i = 0; i < n; ++i) {
    long long& h = held[static_cast<size_t>(k.movers[i])];
    if (k.moves[i].kind == MoveKind::Draw) ++h;
    if (k.moves[i].kind != MoveKind::Place) continue;
    if (h <= 0)
      bad_knowledge("move " + str(static_cast<long long>(i)) + " places from an empty hand");
    if (--h == 0 && (i + 1 < n || !k.over))
      bad_knowledge("move " + str(static_cast<long long>(i)) +
                    " empties the mover's hand, which ends the round");
  }
  if (!k.over)
    for (int j = 0; j < p; ++j)
      if (held[static_cast<size_t>(j)] == 0)
        bad_knowledge("seat " + str(j) + " holds no tile: the round is over");
  // Under highest_double, the seat's own dealt hand holds no double above the centre.
  if (k.highest_double)
    for (int t = 0; t < T; ++t) {
      const bool own =
          own_drawn[static_cast<size_t>(t)] == 0 &&
          (where[static_cast<size_t>(t)] == 2 ||
           (where[static_cast<size_t>(t)] == 3 && placer[static_cast<size_t>(t)] == s));
      if (own && is_double(t) && (k.centre < 0 || tile_low(t) > tile_low(k.centre)))
        bad_knowledge("highest_double is true but the seat was dealt " + tile_name(t) +
                      ", a double above the centre");
    }
}

}  // namespace dominocore::detail
