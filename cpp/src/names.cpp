// Names and parsing of tiles, moves and rejection reasons.
#include "dominocore/tiles.hpp"

#include <stdexcept>

#include "dominocore/move.hpp"

namespace dominocore {

std::string tile_name(int t) {
  if (t < 0 || t >= kMaxTiles)
    throw std::invalid_argument("tile index " + std::to_string(t) + " is out of range");
  return std::to_string(tile_low(t)) + "-" + std::to_string(tile_high(t));
}

namespace {
std::string_view trim(std::string_view s) {
  while (!s.empty() &&
         (s.front() == ' ' || s.front() == '\t' || s.front() == '\n' || s.front() == '\r'))
    s.remove_prefix(1);
  while (!s.empty() &&
         (s.back() == ' ' || s.back() == '\t' || s.back() == '\n' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

// Digits only, at most max_digits of them; -1 otherwise.
int parse_number(std::string_view s, size_t max_digits = 3) {
  if (s.empty() || s.size() > max_digits) return -1;
  int v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return -1;
    v = v * 10 + (c - '0');
  }
  return v;
}
}  // namespace

int parse_tile(std::string_view text, int max_number) {
  const std::string_view s = trim(text);
  const size_t dash = s.find('-');
  const int a = dash == std::string_view::npos ? -1 : parse_number(trim(s.substr(0, dash)));
  const int b = dash == std::string_view::npos ? -1 : parse_number(trim(s.substr(dash + 1)));
  if (a < 0 || b < 0)
    throw std::invalid_argument("'" + std::string(text) +
                                "' is not a tile: write it as a-b, e.g. 3-5");
  if (a > max_number || b > max_number)
    throw std::invalid_argument("tile '" + std::string(text) + "' has a half above " +
                                std::to_string(max_number));
  return tile_index(a, b);
}

std::string move_name(const Move& m) {
  switch (m.kind) {
    case MoveKind::Draw: return "draw";
    case MoveKind::Pass: return "pass";
    case MoveKind::Place: break;
  }
  const std::string t =
      (m.tile >= 0 && m.tile < kMaxTiles) ? tile_name(m.tile) : "#" + std::to_string(m.tile);
  return t + "@" + std::to_string(m.end);
}

Move parse_move(std::string_view text, int max_number) {
  const std::string_view s = trim(text);
  std::string low;
  for (char c : s) low += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  if (low == "draw") return Move::draw();
  if (low == "pass") return Move::pass();
  const size_t at = s.find('@');
  if (at == std::string_view::npos)
    throw std::invalid_argument("'" + std::string(text) +
                                "' is not a move: write a-b@end (e.g. 5-9@2), draw or pass");
  const int tile = parse_tile(s.substr(0, at), max_number);
  const int end = parse_number(trim(s.substr(at + 1)), 6);
  if (end < 0)
    throw std::invalid_argument("'" + std::string(text) + "': the end id after @ must be a number");
  if (end > kMaxEndId)
    throw std::invalid_argument("'" + std::string(text) + "': end ids go up to " +
                                std::to_string(kMaxEndId));
  return Move::place(tile, end);
}

const char* reason_code(Reason r) noexcept {
  switch (r) {
    case Reason::Ok: return "ok";
    case Reason::RoundOver: return "round_over";
    case Reason::NotYourTurn: return "not_your_turn";
    case Reason::NotDrawnTile: return "not_drawn_tile";
    case Reason::NotInHand: return "not_in_hand";
    case Reason::EndNotOpen: return "end_not_open";
    case Reason::StartUnfinished: return "start_unfinished";
    case Reason::FootUnfinished: return "foot_unfinished";
    case Reason::DoubleUnsatisfied: return "double_unsatisfied";
    case Reason::NotYourTrain: return "not_your_train";
    case Reason::NoMatch: return "no_match";
    case Reason::Locked: return "locked";
    case Reason::AlreadyDrew: return "already_drew";
    case Reason::MustPlace: return "must_place";
    case Reason::YardExhausted: return "yard_exhausted";
    case Reason::MustPlaceDrawn: return "must_place_drawn";
    case Reason::MustDraw: return "must_draw";
    case Reason::IllegalAction: return "illegal_action";
    case Reason::NoMove: return "no_move";
  }
  return "unknown";
}

}  // namespace dominocore
