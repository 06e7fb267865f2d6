// Game rules: a resolved, validated description of one game (docs/rules.md 2-4).
//
// Build Rules with make_rules(RulesSpec) (or chicken_foot() / doubles()): the
// factory applies the defaults of docs/rules.md, rejects options that do not apply
// to the game and values out of range, and returns a struct whose every field
// is resolved. The engine reads only this struct; rule sets differ through its
// data (slots, drawn-tile rule, reserve, scoring flags), not through code copies.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "dominocore/tiles.hpp"

namespace dominocore {

/// Bad rules or options (docs/rules.md 4). Python: RulesError.
class RulesError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

enum class Game : uint8_t { ChickenFoot = 0, Doubles = 1 };
/// Chicken Foot rule sets; Doubles has none (RuleSet::None).
enum class RuleSet : uint8_t { Trains = 0, Cross = 1, None = 2 };
/// What a player who drew a placeable tile does: must place it, or may pass.
enum class DrawnTile : uint8_t { Must = 0, May = 1 };

/// Doubles match options: target 1..kMaxTarget (default 100); the match also
/// ends after max_rounds rounds, 1..kMaxMaxRounds (default kDefaultMaxRounds),
/// so that a run of blocked rounds scoring nobody cannot last for ever.
inline constexpr int kDefaultTarget = 100;
inline constexpr int kMaxTarget = 1000000;
inline constexpr int kDefaultMaxRounds = 1000;
inline constexpr int kMaxMaxRounds = 100000;

struct Rules {
  Game game = Game::ChickenFoot;
  RuleSet rule_set = RuleSet::Trains;
  int set = 9;                 ///< N of the double-N set, 6..18
  int players = 4;             ///< 2..8 (Chicken Foot), 2..4 (Doubles)
  int hand_size = 11;          ///< tiles dealt to each seat
  int slots = 4;               ///< open ends of the centre double: trains option, 4 (cross arms), 4 (Doubles spinner)
  DrawnTile drawn_tile = DrawnTile::Must;
  int reserve = 1;             ///< yard tiles that are never drawn
  bool double_blank_50 = false;  ///< 0-0 scores 50 in a hand
  int target = 0;              ///< Doubles: match target, 1..kMaxTarget; 0 for Chicken Foot
  int max_rounds = 0;          ///< Doubles: most rounds in a match, 1..kMaxMaxRounds; 0 for Chicken Foot

  int tiles() const noexcept { return tile_count(set); }
  /// Size of the fixed action space, 2*T + 2 (docs/rules.md 1.8).
  int num_actions() const noexcept { return 2 * tiles() + 2; }
  /// Rounds in a match: N+1 for Chicken Foot, -1 for Doubles (until a total
  /// reaches the target, max_rounds at most).
  int rounds_per_match() const noexcept { return game == Game::ChickenFoot ? set + 1 : -1; }
  bool is_chicken_foot() const noexcept { return game == Game::ChickenFoot; }
  bool is_doubles() const noexcept { return game == Game::Doubles; }

  /// Throws RulesError unless every field is in range and consistent with
  /// what make_rules would produce for the game (derived fields included).
  void validate() const;

  friend bool operator==(const Rules& a, const Rules& b) noexcept {
    return a.game == b.game && a.rule_set == b.rule_set && a.set == b.set &&
           a.players == b.players && a.hand_size == b.hand_size && a.slots == b.slots &&
           a.drawn_tile == b.drawn_tile && a.reserve == b.reserve &&
           a.double_blank_50 == b.double_blank_50 && a.target == b.target &&
           a.max_rounds == b.max_rounds;
  }
  friend bool operator!=(const Rules& a, const Rules& b) noexcept { return !(a == b); }
};

/// The user's options; every unset field takes the docs/rules.md default.
/// Setting an option that does not apply to the game is an error
/// (e.g. `trains` for cross or Doubles, `target` or `max_rounds` for Chicken Foot).
struct RulesSpec {
  Game game = Game::ChickenFoot;
  std::optional<RuleSet> rule_set;       ///< Chicken Foot: default Trains; Doubles: must be unset
  std::optional<int> set;                ///< default 9 (Chicken Foot), 6 (Doubles)
  std::optional<int> players;            ///< required
  std::optional<int> hand_size;          ///< default from the tables of docs/rules.md 2.6 / 2.7 / 3
  std::optional<int> trains;             ///< trains only: slots, default = players
  std::optional<bool> double_blank_50;   ///< trains: default false; cross: must be true if given
  std::optional<int> target;             ///< Doubles only: default kDefaultTarget
  std::optional<int> max_rounds;         ///< Doubles only: default kDefaultMaxRounds
};

/// Resolves and validates a spec (throws RulesError with a clear message).
Rules make_rules(const RulesSpec& spec);

/// Shorthands for make_rules.
Rules chicken_foot(int players, int set = 9, RuleSet rule_set = RuleSet::Trains,
                   std::optional<int> hand_size = std::nullopt,
                   std::optional<int> trains = std::nullopt,
                   std::optional<bool> double_blank_50 = std::nullopt);
Rules doubles(int players, int set = 6, std::optional<int> hand_size = std::nullopt,
              std::optional<int> target = std::nullopt,
              std::optional<int> max_rounds = std::nullopt);

/// The default hand size of docs/rules.md for a game (no validation of the result;
/// throws RulesError for a player count the table does not cover).
int default_hand_size(Game game, RuleSet rule_set, int set, int players);

/// Names used in records and messages: "chickenfoot"/"doubles",
/// "trains"/"cross"/"none", "must"/"may". parse_* throw RulesError.
const char* game_name(Game g) noexcept;
const char* rule_set_name(RuleSet r) noexcept;
const char* drawn_tile_name(DrawnTile d) noexcept;
Game parse_game(std::string_view s);
RuleSet parse_rule_set(std::string_view s);

/// One line, e.g. "chickenfoot/trains double-9, 4 players, hand 11, 4 trains, ...".
std::string describe(const Rules& r);

}  // namespace dominocore
