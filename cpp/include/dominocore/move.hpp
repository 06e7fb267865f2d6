// Moves, rejection reasons and the engine's exceptions (docs/rules.md 1.4, 4;
// docs/engine.md "Reasons a move is rejected").
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace dominocore {

enum class MoveKind : uint8_t { Place = 0, Draw = 1, Pass = 2 };

/// The largest end id a move may name. No round creates that many ends (the
/// most is 8 + 3 * 190), so a larger id is malformed rather than "not open".
inline constexpr int kMaxEndId = 4095;

/// Place(tile, end id), Draw or Pass. Draw and Pass carry tile = end = -1.
struct Move {
  MoveKind kind = MoveKind::Pass;
  int16_t tile = -1;  ///< tile index (Place)
  int16_t end = -1;   ///< open-end id (Place)

  static constexpr Move place(int tile, int end) noexcept {
    return Move{MoveKind::Place, static_cast<int16_t>(tile), static_cast<int16_t>(end)};
  }
  static constexpr Move draw() noexcept { return Move{MoveKind::Draw, -1, -1}; }
  static constexpr Move pass() noexcept { return Move{MoveKind::Pass, -1, -1}; }
  constexpr bool is_place() const noexcept { return kind == MoveKind::Place; }

  friend constexpr bool operator==(const Move& a, const Move& b) noexcept {
    return a.kind == b.kind && a.tile == b.tile && a.end == b.end;
  }
  friend constexpr bool operator!=(const Move& a, const Move& b) noexcept { return !(a == b); }
};

/// A move as one int (the Python wrapper's and the search tree's key): a
/// Place is tile * kMoveCodeEnds + end, Draw kDrawCode, Pass kPassCode.
inline constexpr int kMoveCodeEnds = kMaxEndId + 1;
inline constexpr int kDrawCode = -1;
inline constexpr int kPassCode = -2;
constexpr int move_code(const Move& m) noexcept {
  switch (m.kind) {
    case MoveKind::Place: return m.tile * kMoveCodeEnds + m.end;
    case MoveKind::Draw: return kDrawCode;
    default: return kPassCode;
  }
}

/// "3-5@2", "draw", "pass".
std::string move_name(const Move& m);
/// Parses "a-b@e" (halves in either order), "draw", "pass" (case-insensitive,
/// blanks trimmed). Throws std::invalid_argument on bad syntax, a half above
/// max_number or an end id above kMaxEndId.
Move parse_move(std::string_view text, int max_number = 18);

/// Why a move is illegal, in the check order of docs/engine.md.
enum class Reason : uint8_t {
  Ok = 0,
  RoundOver,          ///< round_over
  NotYourTurn,        ///< not_your_turn (only when the caller names the player)
  NotDrawnTile,       ///< not_drawn_tile: a drawn tile is pending and this is another
  NotInHand,          ///< not_in_hand
  EndNotOpen,         ///< end_not_open
  StartUnfinished,    ///< start_unfinished: the start double's slots come first
  FootUnfinished,     ///< foot_unfinished: a chicken foot's toes come first
  DoubleUnsatisfied,  ///< double_unsatisfied (Mexican Train): the unsatisfied double's end comes
                      ///< first
  NotYourTrain,       ///< not_your_train (Mexican Train): another seat's train without a marker
  NoMatch,            ///< no_match: neither half equals the end's number
  Locked,             ///< locked (Doubles): non-double on a locked number
  AlreadyDrew,        ///< already_drew
  MustPlace,          ///< must_place: holds a legal placement
  YardExhausted,      ///< yard_exhausted: yard size <= reserve
  MustPlaceDrawn,     ///< must_place_drawn: the drawn tile is placeable under "must"
  MustDraw,           ///< must_draw: no placement, yard above its reserve
  IllegalAction,      ///< illegal_action: an action id that is not legal now (action API only)
  NoMove,             ///< no_move: pop() at the deal, nothing to take back
};

/// The code string of docs/engine.md ("ok" for Reason::Ok).
const char* reason_code(Reason r) noexcept;

/// A rejected move. Python: IllegalMoveError (with .reason = reason_code()).
class IllegalMove : public std::invalid_argument {
 public:
  IllegalMove(Reason reason, const Move& move, const std::string& message)
      : std::invalid_argument(message), reason_(reason), move_(move) {}
  Reason reason() const noexcept { return reason_; }
  const char* code() const noexcept { return reason_code(reason_); }
  const Move& move() const noexcept { return move_; }

 private:
  Reason reason_;
  Move move_;
};

/// A state, deal or record that is not valid (does not conserve the set, bad
/// centre, starter out of range, ...), or an operation the state cannot do now.
/// Python: StateError.
class StateError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

}  // namespace dominocore
