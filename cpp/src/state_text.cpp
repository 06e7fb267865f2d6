// State: notation and printing (the messages of rejected moves, to_string).
#include <cctype>
#include <sstream>
#include <string>

#include "dominocore/state.hpp"

namespace dominocore {

namespace {
std::string number_text(int v) { return v == kNoNumber ? "any" : std::to_string(v); }

std::string list_moves(const std::vector<Move>& v, size_t limit = 24) {
  std::string s;
  for (size_t k = 0; k < v.size() && k < limit; ++k) {
    if (k) s += ", ";
    s += move_name(v[k]);
  }
  if (v.size() > limit) s += ", ... (" + std::to_string(v.size()) + " in all)";
  return s;
}
}  // namespace

std::string State::ends_text_(bool legal_only) const {
  std::string s;
  int b = 0, e = r_.n_ends;
  if (legal_only) r_.legal_slice(b, e);
  for (int i = b; i < e; ++i) {
    if (!s.empty()) s += ", ";
    s += std::to_string(r_.end_id[i]) + ":" + number_text(r_.end_num[i]);
    const int t = train_of(r_.end_id[i]);
    if (t >= 0) s += t == r_.rules.players ? " (Mexican)" : " (train " + std::to_string(t) + ")";
  }
  return s.empty() ? "none" : s;
}

std::string State::explain(const Move& m, Reason r, int player) const {
  const int cur = r_.over ? -1 : r_.f.cur;
  const int who = player >= 0 ? player : cur;
  std::string tile =
      (m.tile >= 0 && m.tile < kMaxTiles) ? tile_name(m.tile) : "#" + std::to_string(m.tile);
  std::string s = "illegal move " + move_name(m) + ": ";
  // A game whose reserve is everything the deal leaves (Block) never draws:
  // a newcomer's draw there is told so first.
  const bool never_draws =
      r_.rules.reserve + r_.rules.players * r_.rules.hand_size >= r_.rules.tiles();
  std::string no_drawing = std::string(game_name(r_.rules.game)) + " has no drawing: ";
  no_drawing[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(no_drawing[0])));
  switch (r) {
    case Reason::Ok: return "move " + move_name(m) + " is legal";
    case Reason::RoundOver:
      return s + "the round is over (" + end_reason_name(r_.result.reason) +
             "); no move can be made (docs/rules.md 1.5)";
    case Reason::NotYourTurn:  // the seat to move's legal moves are not this seat's to know
      return s + "it is seat " + std::to_string(cur) + "'s turn, not seat " +
             std::to_string(player) + "'s (docs/rules.md 1.2)";
    case Reason::NotDrawnTile:
      s += "after a draw only the drawn tile " + tile_name(r_.f.drawn) +
           " is in question (docs/rules.md 1.4)";
      break;
    case Reason::NotInHand:
      if (m.tile >= 0 && m.tile < kMaxTiles && tile_high(m.tile) > r_.rules.set) {
        s += tile + " is not a tile of this set (double-" + std::to_string(r_.rules.set) +
             ": halves 0 to " + std::to_string(r_.rules.set) + ") (docs/rules.md 1.1)";
      } else {
        s += "tile " + tile + " is not in seat " + std::to_string(who) + "'s hand";
      }
      break;
    case Reason::EndNotOpen:
      s += "end " + std::to_string(m.end) +
           " is not an open end (open ends id:number: " + ends_text_(false) + ")";
      break;
    case Reason::StartUnfinished:
      s += "every slot of the start double must hold a tile before any other end is played "
           "(docs/rules.md 2.2); unfilled slots: " +
           ends_text_(true);
      break;
    case Reason::FootUnfinished:
      s += "all three toes of the chicken foot must hold a tile before any other end is played "
           "(docs/rules.md 2.3); unfilled toes: " +
           ends_text_(true);
      break;
    case Reason::DoubleUnsatisfied:
      s += "a double is unsatisfied: its end is the only legal end until a tile is placed on it "
           "(docs/games/mexican_train.md M3); its end: " +
           ends_text_(true);
      break;
    case Reason::NotYourTrain:
      s += "end " + std::to_string(m.end) + " is on the train of seat " +
           std::to_string(train_of(m.end)) + ", which carries no marker: seat " +
           std::to_string(who) +
           " may play on its own train, the Mexican train and marked trains "
           "(docs/games/mexican_train.md M2)";
      break;
    case Reason::NoMatch:
      s += "neither half of " + tile + " matches end " + std::to_string(m.end) + " (number " +
           std::to_string(end_number(m.end)) + ") (docs/rules.md 1.3)";
      break;
    case Reason::Locked: {
      const int v = end_number(m.end);
      s += "number " + std::to_string(v) + " is locked until its double " +
           tile_name(double_tile(v)) +
           " is in the layout; only that double may attach there (docs/rules.md 3)";
      break;
    }
    case Reason::AlreadyDrew:
      s += "seat " + std::to_string(cur) + " has already drawn this turn; place the drawn tile " +
           tile_name(r_.f.drawn) + " or pass (docs/rules.md 1.4)";
      break;
    case Reason::MustPlace:
      if (m.kind == MoveKind::Draw && never_draws) s += no_drawing;
      s += "seat " + std::to_string(cur) + " holds a legal placement and must place rather than " +
           (m.kind == MoveKind::Draw ? "draw" : "pass") + " (docs/rules.md 1.4)";
      break;
    case Reason::YardExhausted:
      if (never_draws) {
        s += no_drawing + "a seat that cannot place passes (docs/rules.md 1.4)";
        break;
      }
      s += "the yard holds " + std::to_string(yard_size()) +
           " tile(s) that may not be drawn (a reserve of " + std::to_string(r_.rules.reserve) +
           "; in Block every undealt tile is out of play), so nobody may draw (docs/rules.md "
           "1.4)";
      break;
    case Reason::MustPlaceDrawn:
      s += "the drawn tile " + tile_name(r_.f.drawn) +
           " has a legal placement and must be placed (drawn_tile = \"must\", docs/rules.md 1.4)";
      break;
    case Reason::IllegalAction: s += "it is not a legal action now (docs/rules.md 1.8)"; break;
    case Reason::NoMove: return "no move to take back: the round is at its deal";
    case Reason::MustDraw:
      s += "seat " + std::to_string(cur) +
           " holds no legal placement and the yard holds more than its reserve, so they must "
           "draw (docs/rules.md 1.4)";
      break;
  }
  s += ". Legal now: " + list_moves(legal_moves(false)) + ".";
  return s;
}

std::string State::to_string() const {
  std::ostringstream o;
  o << describe(r_.rules) << "\nround " << r_.round_index << ", centre "
    << (r_.centre >= 0 ? tile_name(r_.centre) : std::string("none")) << ", starter "
    << int(r_.starter) << ", moves " << num_moves();
  if (r_.over) {
    o << ", over: " << end_reason_name(r_.result.reason);
    if (r_.result.out_seat >= 0) o << " (seat " << r_.result.out_seat << ")";
    o << ", points";
    for (int s = 0; s < r_.rules.players; ++s) o << ' ' << r_.result.points[s];
  } else {
    o << ", to move: seat " << int(r_.f.cur);
    if (r_.f.drawn >= 0) o << " (drew " << tile_name(r_.f.drawn) << ")";
  }
  o << "\nopen ends (id:number): " << ends_text_(false);
  static const char* const kPending[] = {"", "start slots", "foot toes", "unsatisfied double"};
  if (r_.f.obl_left) o << "\npending " << kPending[r_.f.obl_kind] << ": " << ends_text_(true);
  const uint32_t all = (1u << (r_.rules.set + 1)) - 1;
  if (r_.f.unlocked != all) {
    o << "\nunlocked:";
    for (int v = 0; v <= r_.rules.set; ++v)
      if (is_unlocked(v)) o << ' ' << v;
  }
  if (r_.f.markers) {
    o << "\nmarkers:";
    for (int s = 0; s < r_.rules.players; ++s)
      if (has_marker(s)) o << " train " << s;
  }
  for (int s = 0; s < r_.rules.players; ++s) {
    o << "\nhand " << s << ":";
    r_.hands[s].for_each([&](int t) { o << ' ' << tile_name(t); });
  }
  o << "\nyard (" << yard_size() << ", top first):";
  for (int i = r_.yard_top; i < r_.yard_len; ++i) o << ' ' << tile_name(r_.yard[i]);
  o << "\nmoves:";
  for (const Record& rec : r_.hist) o << ' ' << move_name(rec.move);
  o << '\n';
  return o.str();
}

}  // namespace dominocore
