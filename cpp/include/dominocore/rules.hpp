// Game rules: a resolved, validated description of one game (docs/rules.md 2-4).
//
// Build Rules with make_rules(RulesSpec) (or a game's shorthand, e.g.
// chicken_foot() in games/chickenfoot.hpp): the factory applies the defaults
// of docs/rules.md, rejects options that do not apply to the game and values
// out of range, and returns a struct whose every field is resolved. What is
// particular to a game (its defaults, ranges and fixed fields) the factory
// asks the game's module (games/common.hpp lists those hooks). The engine reads only this struct;
// rule sets differ through its data (slots, drawn-tile rule, reserve, scoring flags), not through
// code copies.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "dominocore/games/list.hpp"
#include "dominocore/tiles.hpp"

namespace dominocore {

/// Bad rules or options (docs/rules.md 4). Python: RulesError.
class RulesError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// The games (docs/rules.md, docs/games/block.md, docs/games/mexican_train.md),
/// numbered as games/list.hpp, the one list of games, numbers them. What each
/// one does lives in its module under dominocore/games/; the one place that
/// maps a Game to its module is games/registry.hpp.
enum class Game : uint8_t {
#define DOMINOCORE_GAME_ENUMERATOR(Module, number, name) Module = number,
  DOMINOCORE_GAMES(DOMINOCORE_GAME_ENUMERATOR)
#undef DOMINOCORE_GAME_ENUMERATOR
};
/// Chicken Foot's rule sets (its module, games/chickenfoot.hpp, reads and
/// names them); every other game has none, the value None.
enum class RuleSet : uint8_t { Trains = 0, Cross = 1, None = 2 };
/// What a player who drew a placeable tile does: must place it, or may pass.
enum class DrawnTile : uint8_t { Must = 0, May = 1 };
/// Block: who leads a round (docs/games/block.md B2; PuertoRico, with teams
/// only: docs/games/partnership.md P4).
enum class Lead : uint8_t { Winner = 0, HighestDouble = 1, PuertoRico = 2 };
/// How a round played in partnerships is scored (docs/games/partnership.md
/// P3): the winning team takes every pip left (AllPips), or the team with
/// the fewest pips takes the other teams' (FewerPips).
enum class TeamScoring : uint8_t { AllPips = 0, FewerPips = 1 };
/// The games that score during play (docs/games/all_fives.md): how a seat
/// without a placement draws (F6): once a turn (every other game's rule), or
/// until it draws a tile it can place.
enum class Draw : uint8_t { One = 0, UntilPlayable = 1 };
/// Which double is a spinner (F3): none, or the first placed.
enum class Spinner : uint8_t { None = 0, First = 1 };
/// When the spinner's sides open (F3).
enum class SidesOpen : uint8_t { AfterEnds = 0, AtOnce = 1 };
/// What going out, or winning a block, scores (F7).
enum class OutPoints : uint8_t { NearestFive = 0, Exact = 1, One = 2 };

/// Doubles match options: target 1..kMaxTarget (default 100); the match also
/// ends after max_rounds rounds, 1..kMaxMaxRounds (default kDefaultMaxRounds),
/// so that a run of blocked rounds scoring nobody cannot last for ever.
inline constexpr int kDefaultTarget = 100;
inline constexpr int kMaxTarget = 1000000;
inline constexpr int kDefaultMaxRounds = 1000;
inline constexpr int kMaxMaxRounds = 100000;

struct Rules {
  // A default Rules is Chicken Foot's trains (Game and RuleSet 0) for 4
  // players; make_rules builds every other.
  Game game{};
  RuleSet rule_set{};
  int set = 9;         ///< N of the double-N set, 6..18
  int players = 4;     ///< 2..8 (Chicken Foot, Mexican Train), 2..4 (Doubles, Block)
  int hand_size = 11;  ///< tiles dealt to each seat
  /// Open ends the set-up creates: the centre double's slots (trains option,
  /// 4 cross arms, 4 spinner sides), Block's lead end (1), Mexican Train's
  /// hub ends (players + 1, one per train).
  int slots = 4;
  DrawnTile drawn_tile = DrawnTile::Must;
  int reserve = 1;               ///< yard tiles that are never drawn (Block: every undealt tile)
  bool double_blank_50 = false;  ///< 0-0 scores 50 in a hand
  int target = 0;                ///< Doubles, Block: match target, 1..kMaxTarget; else 0
  int max_rounds = 0;        ///< Doubles, Block: most rounds in a match, 1..kMaxMaxRounds; else 0
  Lead lead = Lead::Winner;  ///< Block only (Winner elsewhere)
  /// Partnerships (docs/games/partnership.md P1): 0, every seat for itself,
  /// or k teams, seat s on team s mod k (p a multiple of k, two seats or
  /// more a team); only in a game whose RulesInfo takes teams.
  int teams = 0;
  TeamScoring team_scoring = TeamScoring::AllPips;  ///< AllPips when teams is 0
  // The games that score during play (docs/games/all_fives.md); every other
  // game holds the defaults below (its own rules: one draw a turn, no spinner).
  Draw draw = Draw::One;
  Spinner spinner = Spinner::None;
  SidesOpen sides_open = SidesOpen::AfterEnds;
  OutPoints out_points = OutPoints::NearestFive;
  bool end_in_play = false;  ///< a round stops when a side reaches the target (F8)

  /// The team of `seat`: seat mod teams, or the seat itself without teams.
  int team_of(int seat) const noexcept { return teams ? seat % teams : seat; }
  /// The sides that score apart: the teams, or every seat.
  int sides() const noexcept { return teams ? teams : players; }

  int tiles() const noexcept { return tile_count(set); }
  /// Rounds in a match: N+1 when every round has its own start double
  /// (Chicken Foot, Mexican Train), -1 when a match plays to a target
  /// (Doubles, Block: max_rounds at most).
  int rounds_per_match() const noexcept { return target == 0 ? set + 1 : -1; }

  /// Throws RulesError unless every field is in range and consistent with
  /// what make_rules would produce for the game (derived fields included).
  void validate() const;

  friend bool operator==(const Rules& a, const Rules& b) noexcept {
    return a.game == b.game && a.rule_set == b.rule_set && a.set == b.set &&
           a.players == b.players && a.hand_size == b.hand_size && a.slots == b.slots &&
           a.drawn_tile == b.drawn_tile && a.reserve == b.reserve &&
           a.double_blank_50 == b.double_blank_50 && a.target == b.target &&
           a.max_rounds == b.max_rounds && a.lead == b.lead && a.teams == b.teams &&
           a.team_scoring == b.team_scoring && a.draw == b.draw && a.spinner == b.spinner &&
           a.sides_open == b.sides_open && a.out_points == b.out_points &&
           a.end_in_play == b.end_in_play;
  }
  friend bool operator!=(const Rules& a, const Rules& b) noexcept { return !(a == b); }
};

/// The user's options; every unset field takes the default of the game's
/// rules page. Setting an option that does not apply to the game is an error
/// (e.g. `trains` for cross or Doubles, `target` or `max_rounds` for Chicken Foot).
struct RulesSpec {
  Game game{};                      ///< default: Chicken Foot (0)
  std::optional<RuleSet> rule_set;  ///< Chicken Foot: default Trains; others: must be unset
  std::optional<int> set;      ///< default 9 (Chicken Foot), 6 (Doubles, Block), 12 (Mexican Train)
  std::optional<int> players;  ///< required
  std::optional<int> hand_size;  ///< default from the game's hand-size table
  std::optional<int> trains;     ///< trains only: slots, default = players
  std::optional<bool>
      double_blank_50;  ///< trains, Mexican Train: default false; cross: must be true if given
  std::optional<int> target;            ///< Doubles, Block: default kDefaultTarget
  std::optional<int> max_rounds;        ///< Doubles, Block: default kDefaultMaxRounds
  std::optional<DrawnTile> drawn_tile;  ///< Mexican Train only: default Must
  std::optional<Lead> lead;             ///< Block only: default Winner
  std::optional<int> teams;  ///< games that take teams (Block): default 0, every seat for itself
  std::optional<TeamScoring> team_scoring;  ///< with teams only: default AllPips
  // The games that score during play (all_fives.md, fives_and_threes.md);
  // the others refuse them.
  std::optional<int> reserve;  ///< default 2, at most the undealt tiles
  std::optional<Draw> draw;
  std::optional<Spinner> spinner;
  std::optional<SidesOpen> sides_open;
  std::optional<OutPoints> out_points;
  std::optional<bool> end_in_play;
};

/// Resolves and validates a spec (throws RulesError with a clear message).
Rules make_rules(const RulesSpec& spec);

// Each game's shorthand for make_rules (chicken_foot(), doubles(), block(),
// mexican_train()) is declared with its module, dominocore/games/<game>.hpp.

/// The default hand size of docs/rules.md for a game (no validation of the result;
/// throws RulesError for a player count the table does not cover).
int default_hand_size(Game game, RuleSet rule_set, int set, int players);

/// Names used in records and messages: "chickenfoot"/"doubles"/"block"/
/// "mexican_train", "trains"/"cross"/"none", "must"/"may",
/// "winner"/"highest_double"/"puerto_rico", "all_pips"/"fewer_pips".
/// parse_* throw RulesError.
const char* game_name(Game g) noexcept;
const char* rule_set_name(RuleSet r) noexcept;
const char* drawn_tile_name(DrawnTile d) noexcept;
const char* lead_name(Lead l) noexcept;
const char* team_scoring_name(TeamScoring t) noexcept;
/// "until_playable"/"one", "first"/"none", "after_ends"/"at_once",
/// "nearest_five"/"exact"/"one".
const char* draw_name(Draw d) noexcept;
const char* spinner_name(Spinner s) noexcept;
const char* sides_open_name(SidesOpen s) noexcept;
const char* out_points_name(OutPoints o) noexcept;
Draw parse_draw(std::string_view s);
Spinner parse_spinner(std::string_view s);
SidesOpen parse_sides_open(std::string_view s);
OutPoints parse_out_points(std::string_view s);
Game parse_game(std::string_view s);
RuleSet parse_rule_set(std::string_view s);
DrawnTile parse_drawn_tile(std::string_view s);
Lead parse_lead(std::string_view s);
TeamScoring parse_team_scoring(std::string_view s);

/// One line, e.g. "chickenfoot/trains double-9, 4 players, hand 11, 4 trains, ...".
std::string describe(const Rules& r);

}  // namespace dominocore
