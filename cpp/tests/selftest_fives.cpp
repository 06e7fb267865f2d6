// Self-test of the games that score during play (docs/games/all_fives.md,
// docs/games/fives_and_threes.md): the count and its points, the spinner's
// arms, drawing until a tile fits, undo, the target, action ids, greedy.
// Called from selftest.cpp's main.
#include <cstdio>
#include <vector>

#include "dominocore/dominocore.hpp"
#include "selftest_check.hpp"

using namespace dominocore;

namespace {

/// A hand-built round of `rules` led by seat 0 on the lead end; the rest of
/// the double-6 set goes to the yard in index order.
State dealt(const Rules& rules, std::vector<std::vector<int>> hands, std::vector<int> yard = {},
            std::vector<int> carried = {}) {
  Deal d;
  d.starter = 0;
  d.hands = std::move(hands);
  d.carried = std::move(carried);
  TileSet used;
  for (auto& h : d.hands)
    for (int t : h) used.set(t);
  for (int t : yard) used.set(t);
  d.yard = std::move(yard);
  for (int t = 0; t < 28; ++t)
    if (!used.test(t)) d.yard.push_back(t);
  return State(rules, d);
}

Move place(int a, int b, int end) { return Move::place(tile_index(a, b), end); }

}  // namespace

/// Returns the number of failed checks.
void test_fives() {
  const std::vector<std::vector<int>> example = {
      {tile_index(5, 5), tile_index(3, 5), tile_index(1, 1)},
      {tile_index(0, 5), tile_index(2, 5), tile_index(6, 6)}};
  // F4's example: 5-5 alone 10; 0-5 on arm 0: 10 + 0; 3-5: 0 + 3, the sides open; 2-5 on a side: 5.
  {
    State s = dealt(all_fives(), example);
    s.push(place(5, 5, 0));
    CHECK(s.play_points(0) == 10 && s.points_at(0) == 10);
    CHECK(s.legal_actions() == (std::vector<int>{4 * 15, 4 * 15 + 1, 4 * 17, 4 * 17 + 1}));
    s.push(place(0, 5, 1));
    s.push(place(3, 5, 2));
    CHECK(s.points_at(1) == 10 && s.points_at(2) == 0 && s.num_open_ends() == 4);
    CHECK(s.legal_actions() == (std::vector<int>{4 * 17 + 2, 4 * 17 + 3}));
    s.push(place(2, 5, 5));
    CHECK(s.points_at(3) == 5 && s.play_points(1) == 15);
    s.pop();
    s.pop();
    CHECK(s.play_points(1) == 10 && s.num_open_ends() == 2);  // the sides close again
  }
  // Sides open at once: the spinner counts once for both its open line ends.
  {
    RulesSpec spec;
    spec.game = Game::AllFives;
    spec.players = 2;
    spec.sides_open = SidesOpen::AtOnce;
    State s = dealt(make_rules(spec), example);
    s.push(place(5, 5, 0));
    s.push(place(0, 5, 3));
    CHECK(s.num_open_ends() == 4 && s.points_at(1) == 10);
  }
  // Fives and Threes: 6-6 led counts 12 (four threes); 3-6 beside it 15 (three fives, five threes).
  {
    State s = dealt(fives_and_threes(),
                    {{tile_index(6, 6), tile_index(1, 1)}, {tile_index(3, 6), tile_index(0, 0)}});
    s.push(place(6, 6, 0));
    s.push(place(3, 6, 1));
    CHECK(s.points_at(0) == 4 && s.points_at(1) == 8 && s.num_actions() == 2 * 28 + 2);
  }
  // Drawing until a tile fits: a pass is refused while a draw is allowed, a
  // draw once the drawn tile fits, and greedy places it.
  {
    State s = dealt(all_fives(),
                    {{tile_index(5, 5), tile_index(0, 1)}, {tile_index(6, 6), tile_index(1, 2)}},
                    {tile_index(2, 3), tile_index(2, 4), tile_index(5, 6)});
    s.push(place(5, 5, 0));
    CHECK(s.check(Move::pass()) == Reason::MustDraw);
    s.push(Move::draw());
    CHECK(s.check(Move::pass()) == Reason::MustDraw && s.check(Move::draw()) == Reason::Ok);
    s.push(Move::draw());
    s.push(Move::draw());
    CHECK(s.drawn_tile() == tile_index(5, 6) && s.check(Move::draw()) == Reason::MustPlaceDrawn);
    CHECK(s.check(Move::pass()) == Reason::MustPlaceDrawn);
  }
  // The target: a placement bringing its side to the target ends the round,
  // with no points at the end; going out is scored as usual.
  {
    State s = dealt(all_fives(), example, {}, {130, 145});
    s.push(place(5, 5, 0));
    CHECK(!s.is_over());
    s.push(place(0, 5, 1));
    CHECK(s.is_over() && s.result().reason == EndReason::Target && s.result().points[1] == 10 &&
          s.result().end_points[1] == 0);
    s.pop();
    CHECK(!s.is_over());
    State out = dealt(all_fives(), {{tile_index(0, 5)}, {tile_index(4, 4), tile_index(6, 6)}}, {},
                      {148, 0});
    out.push(place(0, 5, 0));
    CHECK(out.is_over() && out.result().reason == EndReason::Out &&
          out.result().end_points[0] == 20 && out.result().play_points[0] == 5);
  }
  // Greedy takes the most points now: 0-5 (10), not the heavier 2-5 (12 scores nothing).
  {
    State s = dealt(all_fives(), example);
    s.push(place(5, 5, 0));
    CHECK(greedy_move(s) == place(0, 5, 1));
  }
}
