#include "dominocore/state.hpp"

#include "dominocore/players.hpp"

#include <algorithm>
#include <cstring>
#include <sstream>
#include <stdexcept>

namespace dominocore {

const char* end_reason_name(EndReason r) noexcept {
  switch (r) {
    case EndReason::Out: return "out";
    case EndReason::Blocked: return "blocked";
    default: return "none";
  }
}

// ---------------------------------------------------------------------------
// construction and set-up

State::State(const Rules& rules) : rules_(rules) {
  rules_.validate();
  tiles_ = rules_.tiles();
  std::memset(yard_, 0, sizeof yard_);
  std::memset(end_id_, 0, sizeof end_id_);
  std::memset(end_num_, 0, sizeof end_num_);
  std::memset(num_count_, 0, sizeof num_count_);
  std::memset(placed_, 0, sizeof placed_);
  hist_.reserve(128);
}

State::State(const Rules& rules, Rng& rng, int round_index) : State(rules) {
  set_up(rng, round_index);
}

State::State(const Rules& rules, uint64_t seed, int round_index) : State(rules) {
  Rng rng(seed);
  set_up(rng, round_index);
}

State::State(const Rules& rules, const Deal& deal) : State(rules) { load_deal_(deal); }

void State::clear_round_() noexcept {
  over_ = false;
  result_ = RoundResult{};
  for (auto& h : hands_) h = TileSet{};
  for (auto& h : deal_hands_) h = TileSet{};
  yard_len_ = yard_top_ = yard_base_ = 0;
  n_ends_ = 0;
  std::memset(num_count_, 0, sizeof num_count_);
  num_present_ = 0;
  next_end_ = 0;
  f_ = Flow{};
  n_placed_ = 0;
  hist_.clear();
}

// Seat s takes deck[s*h .. s*h+h-1]; the rest, in order, is the yard (top first).
void State::deal_out_(const uint8_t* deck, int n) noexcept {
  const int p = rules_.players, h = rules_.hand_size;
  for (int s = 0; s < kMaxPlayers; ++s) hands_[s] = TileSet{};
  for (int s = 0; s < p; ++s)
    for (int j = 0; j < h; ++j) hands_[s].set(deck[s * h + j]);
  yard_len_ = static_cast<int16_t>(n - p * h);
  std::memcpy(yard_, deck + p * h, static_cast<size_t>(yard_len_));
  yard_top_ = 0;
}

void State::set_up(Rng& rng, int round_index) {
  const int T = tiles_, p = rules_.players, N = rules_.set;
  if (rules_.is_chicken_foot() ? (round_index < 0 || round_index > N) : round_index < 0) {
    throw StateError("round index " + std::to_string(round_index) + " is out of range" +
                     (rules_.is_chicken_foot() ? " 0.." + std::to_string(N) +
                                                     " (a Chicken Foot match has N+1 rounds)"
                                               : std::string(" (must be >= 0)")));
  }
  clear_round_();
  round_index_ = round_index;
  uint8_t deck[kMaxTiles] = {};
  auto fresh_shuffle = [&]() {  // every shuffle starts from index order
    for (int t = 0; t < T; ++t) deck[t] = static_cast<uint8_t>(t);
    rng.shuffle(deck, static_cast<size_t>(T));
  };

  if (rules_.is_chicken_foot()) {
    const int d = double_tile(N - round_index);
    if (rules_.rule_set == RuleSet::Trains) {
      // Seats from (k mod p) draw in turn from the top until the double shows:
      // position pos falls to seat (k + pos) mod p.
      fresh_shuffle();
      int pos = 0;
      while (deck[pos] != d) ++pos;
      const int starter = (round_index + pos) % p;
      int n = 0;  // the other T-1 tiles, in index order, shuffled and dealt
      for (int t = 0; t < T; ++t)
        if (t != d) deck[n++] = static_cast<uint8_t>(t);
      rng.shuffle(deck, static_cast<size_t>(n));
      deal_out_(deck, n);
      place_centre_(d, starter);
    } else {
      fresh_shuffle();
      deal_out_(deck, T);
      int holder = -1;
      for (int s = 0; s < p && holder < 0; ++s)
        if (hands_[s].test(d)) holder = s;
      if (holder < 0) {
        // Nobody holds it: seats from (k mod p) draw one tile each into their
        // hands until someone draws it (set-up, ignores the reserve).
        for (int s = round_index % p;; s = (s + 1) % p) {
          const int t = yard_[yard_top_++];
          hands_[s].set(t);
          if (t == d) {
            holder = s;
            break;
          }
        }
      }
      hands_[holder].reset(d);
      place_centre_(d, holder);
    }
  } else {
    // Doubles: redeal from a fresh shuffle while no hand holds a double.
    for (;;) {
      fresh_shuffle();
      deal_out_(deck, T);
      for (int v = N; v >= 0; --v) {
        const int dd = double_tile(v);
        for (int s = 0; s < p; ++s)
          if (hands_[s].test(dd)) {
            hands_[s].reset(dd);
            place_centre_(dd, s);
            return;
          }
      }
    }
  }
}

void State::place_centre_(int tile, int starter) noexcept {
  const int v = tile_low(tile), S = rules_.slots, p = rules_.players;
  centre_ = static_cast<int16_t>(tile);
  starter_ = static_cast<int8_t>(starter);
  for (int i = 0; i < S; ++i) add_end_(i, v);
  next_end_ = static_cast<int16_t>(S);
  placed_[0] = Placement{static_cast<int16_t>(tile), -1, 0, static_cast<uint8_t>(S),
                         static_cast<uint8_t>(v), static_cast<int8_t>(starter)};
  n_placed_ = 1;
  f_ = Flow{};
  if (rules_.is_chicken_foot()) {
    f_.obl_kind = static_cast<uint8_t>(Pending::Start);
    f_.obl_left = static_cast<uint8_t>(S);
    f_.obl_pos = 0;
    f_.obl_lo = 0;
    f_.obl_hi = static_cast<int16_t>(S);
    f_.unlocked = (1u << (rules_.set + 1)) - 1;  // no locks: every number is open
  } else {
    f_.unlocked = 1u << v;
  }
  // trains: the starter moves first; otherwise placing the centre was the
  // starter's turn.
  f_.cur = static_cast<int8_t>(rules_.rule_set == RuleSet::Trains ? starter : (starter + 1) % p);
  for (int s = 0; s < kMaxPlayers; ++s) deal_hands_[s] = hands_[s];
  yard_base_ = yard_top_;
  refresh_legal_mask_();

  // docs/engine.md 1 and 11: end conditions right after the set-up. An empty
  // hand (the starter's, emptied by the centre double, or any in a hand-built
  // deal) is out; with several, the lowest seat went out.
  for (int s = 0; s < p; ++s) {
    if (hands_[s].empty()) {
      finish_(EndReason::Out, s);
      return;
    }
  }
  check_round_end_(-1, false);
}

void State::load_deal_(const Deal& d) {
  const int T = tiles_, p = rules_.players, N = rules_.set;
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
  take(d.centre, "the centre");
  for (int t = 0; t < T; ++t)
    if (!seen[t])
      throw StateError("tile " + tile_name(t) +
                       " is missing: the deal must hold every tile exactly once");
  if (!is_double(d.centre))
    throw StateError("the centre " + tile_name(d.centre) + " is not a double");
  if (rules_.is_chicken_foot()) {
    if (d.round_index < 0 || d.round_index > N)
      throw StateError("round index " + std::to_string(d.round_index) + " is out of range 0.." +
                       std::to_string(N));
    if (d.centre != double_tile(N - d.round_index))
      throw StateError("the centre of Chicken Foot round " + std::to_string(d.round_index) +
                       " must be " + tile_name(double_tile(N - d.round_index)) + ", not " +
                       tile_name(d.centre));
  } else if (d.round_index < 0) {
    throw StateError("round index " + std::to_string(d.round_index) + " must be >= 0");
  }
  if (d.starter < 0 || d.starter >= p)
    throw StateError("starter " + std::to_string(d.starter) + " is out of range 0.." +
                     std::to_string(p - 1));

  clear_round_();
  round_index_ = d.round_index;
  for (int s = 0; s < p; ++s)
    for (int t : d.hands[s]) hands_[s].set(t);
  yard_len_ = static_cast<int16_t>(d.yard.size());
  for (size_t i = 0; i < d.yard.size(); ++i) yard_[i] = static_cast<uint8_t>(d.yard[i]);
  yard_top_ = 0;
  place_centre_(d.centre, d.starter);
}

// Hot-path functions are forced inline into the simulation loop (Bots::play_out
// at the end of this file): without LTO, GCC otherwise keeps them as calls.
#if defined(__GNUC__) || defined(__clang__)
#define DOMINOCORE_HOT_INLINE inline __attribute__((always_inline))
#elif defined(_MSC_VER)
#define DOMINOCORE_HOT_INLINE __forceinline
#else
#define DOMINOCORE_HOT_INLINE inline
#endif

// ---------------------------------------------------------------------------
// open ends

// The shifts below move a handful of entries; GCC would turn each loop into a
// memmove call, which costs more than the loop (about 5% of a simulation).
// An empty asm statement keeps the loop as written.
#if defined(__GNUC__) && !defined(__clang__)
#define DOMINOCORE_NO_MEMMOVE() __asm__ volatile("" ::: "memory")
#else
#define DOMINOCORE_NO_MEMMOVE() ((void)0)
#endif

DOMINOCORE_HOT_INLINE int State::find_end_(int id) const noexcept {
  for (int i = 0; i < n_ends_; ++i) {
    if (end_id_[i] == id) return i;
    if (end_id_[i] > id) break;
  }
  return -1;
}

DOMINOCORE_HOT_INLINE void State::add_end_(int id, int number) noexcept {
  end_id_[n_ends_] = static_cast<int16_t>(id);
  end_num_[n_ends_] = static_cast<uint8_t>(number);
  ++n_ends_;
  ++num_count_[number];
  num_present_ |= 1u << number;
}

DOMINOCORE_HOT_INLINE void State::remove_end_at_(int i) noexcept {
  const int v = end_num_[i];
  for (int j = i + 1; j < n_ends_; ++j) {
    end_id_[j - 1] = end_id_[j];
    end_num_[j - 1] = end_num_[j];
    DOMINOCORE_NO_MEMMOVE();
  }
  --n_ends_;
  if (--num_count_[v] == 0) num_present_ &= ~(1u << v);
}

void State::insert_end_(int id, int number) noexcept {
  int j = n_ends_;
  while (j > 0 && end_id_[j - 1] > id) {
    end_id_[j] = end_id_[j - 1];
    end_num_[j] = end_num_[j - 1];
    --j;
    DOMINOCORE_NO_MEMMOVE();
  }
  end_id_[j] = static_cast<int16_t>(id);
  end_num_[j] = static_cast<uint8_t>(number);
  ++n_ends_;
  ++num_count_[number];
  num_present_ |= 1u << number;
}

int State::end_number(int id) const noexcept {
  const int i = find_end_(id);
  return i < 0 ? -1 : end_num_[i];
}

int State::created_end_number(int id) const noexcept {
  if (id < 0) return -1;
  for (int k = 0; k < n_placed_; ++k) {
    const Placement& pl = placed_[k];
    if (id >= pl.first && id < pl.first + pl.created) {
      const int lo = tile_low(pl.tile), hi = tile_high(pl.tile);
      if (lo == hi) return lo;  // centre or double: ends of its number
      return pl.by == lo ? hi : lo;
    }
  }
  return -1;
}

std::vector<OpenEnd> State::open_ends() const {
  std::vector<OpenEnd> v;
  v.reserve(n_ends_);
  for (int i = 0; i < n_ends_; ++i) v.push_back(OpenEnd{end_id_[i], end_num_[i]});
  return v;
}

std::vector<OpenEnd> State::legal_ends() const {
  std::vector<OpenEnd> v;
  int b, e;
  legal_slice_(b, e);
  for (int i = b; i < e; ++i) v.push_back(OpenEnd{end_id_[i], end_num_[i]});
  return v;
}

std::vector<int> State::pending_ends() const {
  std::vector<int> v;
  for (int i = f_.obl_pos; i < f_.obl_pos + f_.obl_left; ++i) v.push_back(end_id_[i]);
  return v;
}

std::vector<int> State::yard() const {
  return std::vector<int>(yard_ + yard_top_, yard_ + yard_len_);
}

std::vector<Move> State::moves() const {
  std::vector<Move> v;
  v.reserve(hist_.size());
  for (const Record& r : hist_) v.push_back(r.move);
  return v;
}

Deal State::deal() const {
  Deal d;
  d.round_index = round_index_;
  d.centre = centre_;
  d.starter = starter_;
  d.hands.resize(static_cast<size_t>(rules_.players));
  for (int s = 0; s < rules_.players; ++s)
    deal_hands_[s].for_each([&](int t) { d.hands[s].push_back(t); });
  d.yard.assign(yard_ + yard_base_, yard_ + yard_len_);
  return d;
}

int State::pips(int seat) const {
  int sum = 0;
  hands_[seat].for_each([&](int t) { sum += tile_score(t, rules_.double_blank_50); });
  return sum;
}

const RoundResult& State::result() const {
  if (!over_) throw StateError("the round is not over yet: there is no result");
  return result_;
}

// ---------------------------------------------------------------------------
// legality

// The legal ends: the pending obligation's unfilled ends (a contiguous slice,
// see the header), else every open end.
void State::legal_slice_(int& b, int& e) const noexcept {
  if (f_.obl_left) {
    b = f_.obl_pos;
    e = f_.obl_pos + f_.obl_left;
  } else {
    b = 0;
    e = n_ends_;
  }
}

// Every tile that attaches to some legal end now. The pending ends of an
// obligation all share one number (the start double's, or the foot's).
DOMINOCORE_HOT_INLINE TileSet State::compute_legal_mask_() const noexcept {
  if (f_.obl_left) return number_mask(end_num_[f_.obl_pos]);
  TileSet m;
  if (rules_.is_chicken_foot()) {
    for (uint32_t x = num_present_; x; x &= x - 1) m |= number_mask(detail::ctz64(x));
  } else {
    // Unlocked numbers take any tile of theirs; a locked number only its double.
    for (uint32_t x = num_present_ & f_.unlocked; x; x &= x - 1)
      m |= number_mask(detail::ctz64(x));
    for (uint32_t x = num_present_ & ~f_.unlocked; x; x &= x - 1)
      m.set(double_tile(detail::ctz64(x)));
  }
  return m;
}

bool State::fits_(int tile, int number) const noexcept {
  const int lo = tile_low(tile), hi = tile_high(tile);
  if (lo != number && hi != number) return false;
  if (rules_.is_doubles() && lo != hi && !((f_.unlocked >> number) & 1u)) return false;
  return true;
}

// Calls emit(tile, end index) for the placements of `pool` tiles on legal
// ends, in canonical order (tile index, then end id = array order).
template <class Emit>
void State::gen_places_(const TileSet& pool, bool distinct, Emit&& emit) const {
  if (rules_.is_doubles())
    gen_places_impl_<true>(pool, distinct, emit);
  else
    gen_places_impl_<false>(pool, distinct, emit);
}

template <bool kDoubles, class Emit>
DOMINOCORE_HOT_INLINE void State::gen_places_impl_(const TileSet& pool, bool distinct, Emit& emit) const {
  const TileSet cand = pool & legal_mask_;
  if (cand.empty()) return;
  int b, e;
  legal_slice_(b, e);
  if (distinct) {
    int8_t first[kMaxNumbers];  // lowest legal end index per number, -1 none
    std::memset(first, -1, sizeof first);
    for (int i = e - 1; i >= b; --i) first[end_num_[i]] = static_cast<int8_t>(i);
    const uint32_t unlocked = f_.unlocked;
    cand.for_each([&](int t) {
      const int lo = tile_low(t), hi = tile_high(t);
      int i1 = first[lo], i2 = -1;
      if (hi != lo) {
        i2 = first[hi];
        if (kDoubles) {  // a non-double attaches only by an unlocked number
          if (!((unlocked >> lo) & 1u)) i1 = -1;
          if (!((unlocked >> hi) & 1u)) i2 = -1;
        }
      }
      if (i1 >= 0 && i2 >= 0) {
        emit(t, std::min(i1, i2));
        emit(t, std::max(i1, i2));
      } else {
        emit(t, i1 >= 0 ? i1 : i2);  // cand guarantees one of them
      }
    });
  } else {
    cand.for_each([&](int t) {
      for (int i = b; i < e; ++i)
        if (fits_(t, end_num_[i])) emit(t, i);
    });
  }
}

TileSet State::placeable() const noexcept {
  if (over_) return TileSet{};
  TileSet pool;
  if (f_.drawn >= 0)
    pool.set(f_.drawn);
  else
    pool = hands_[f_.cur];
  return pool & legal_mask_;
}

bool State::has_legal_placement(int seat) const noexcept {
  return intersects(hands_[seat], legal_mask_);
}

int State::lowest_legal_end(int tile) const noexcept {
  int b, e;
  legal_slice_(b, e);
  for (int i = b; i < e; ++i)
    if (fits_(tile, end_num_[i])) return end_id_[i];
  return -1;
}

int State::distinct_moves(Move* buf) const noexcept { return distinct_(buf); }

// Calls place(tile, end index) for each distinct legal placement in canonical
// order, then other(move) for the Draw or Pass that follows them, if any.
template <class Place, class Other>
DOMINOCORE_HOT_INLINE void State::for_each_distinct_(Place&& place, Other&& other) const {
  if (over_) return;
  int n = 0;
  auto counted = [&](int t, int i) {
    ++n;
    place(t, i);
  };
  if (f_.drawn >= 0) {
    TileSet pool;
    pool.set(f_.drawn);
    gen_places_(pool, true, counted);
    if (n == 0 || rules_.drawn_tile == DrawnTile::May) other(Move::pass());
    return;
  }
  gen_places_(hands_[f_.cur], true, counted);
  if (n == 0) other(yard_size() > rules_.reserve ? Move::draw() : Move::pass());
}

DOMINOCORE_HOT_INLINE int State::distinct_(Move* buf) const noexcept {
  int n = 0;
  for_each_distinct_([&](int t, int i) { buf[n++] = Move::place(t, end_id_[i]); },
                     [&](const Move& m) { buf[n++] = m; });
  return n;
}

void State::legal_moves(std::vector<Move>& out, bool distinct) const {
  out.clear();
  if (over_) return;
  auto emit = [&](int t, int i) { out.push_back(Move::place(t, end_id_[i])); };
  if (f_.drawn >= 0) {
    TileSet pool;
    pool.set(f_.drawn);
    gen_places_(pool, distinct, emit);
    if (out.empty() || rules_.drawn_tile == DrawnTile::May) out.push_back(Move::pass());
    return;
  }
  gen_places_(hands_[f_.cur], distinct, emit);
  if (out.empty()) out.push_back(yard_size() > rules_.reserve ? Move::draw() : Move::pass());
}

std::vector<Move> State::legal_moves(bool distinct) const {
  std::vector<Move> v;
  legal_moves(v, distinct);
  return v;
}

Reason State::check(const Move& m, int player) const noexcept {
  if (over_) return Reason::RoundOver;
  if (player >= 0 && player != f_.cur) return Reason::NotYourTurn;
  const int cur = f_.cur;
  switch (m.kind) {
    case MoveKind::Place: {
      if (f_.drawn >= 0 && m.tile != f_.drawn) return Reason::NotDrawnTile;
      if (m.tile < 0 || m.tile >= tiles_ || !hands_[cur].test(m.tile)) return Reason::NotInHand;
      const int i = find_end_(m.end);
      if (i < 0) return Reason::EndNotOpen;
      if (f_.obl_left && (i < f_.obl_pos || i >= f_.obl_pos + f_.obl_left))
        return f_.obl_kind == static_cast<uint8_t>(Pending::Start) ? Reason::StartUnfinished
                                                                  : Reason::FootUnfinished;
      const int v = end_num_[i], lo = tile_low(m.tile), hi = tile_high(m.tile);
      if (lo != v && hi != v) return Reason::NoMatch;
      if (rules_.is_doubles() && lo != hi && !is_unlocked(v)) return Reason::Locked;
      return Reason::Ok;
    }
    case MoveKind::Draw:
      if (f_.drawn >= 0) return Reason::AlreadyDrew;
      if (has_legal_placement(cur)) return Reason::MustPlace;
      if (yard_size() <= rules_.reserve) return Reason::YardExhausted;
      return Reason::Ok;
    case MoveKind::Pass:
      if (f_.drawn >= 0) {
        if (rules_.drawn_tile == DrawnTile::Must && lowest_legal_end(f_.drawn) >= 0)
          return Reason::MustPlaceDrawn;
        return Reason::Ok;
      }
      if (has_legal_placement(cur)) return Reason::MustPlace;
      if (yard_size() > rules_.reserve) return Reason::MustDraw;
      return Reason::Ok;
  }
  return Reason::NoMatch;  // unreachable for a valid MoveKind
}

// ---------------------------------------------------------------------------
// moves

void State::push(const Move& m, int player) {
  const Reason r = check(m, player);
  if (r != Reason::Ok) throw IllegalMove(r, m, explain(m, r, player));
  apply_(m);
}

void State::push_unchecked(const Move& m) noexcept { apply_(m); }

DOMINOCORE_HOT_INLINE void State::apply_(const Move& m) noexcept {
  const int mover = f_.cur, p = rules_.players;
  hist_.push_back(Record{m, static_cast<int8_t>(mover), f_});
  switch (m.kind) {
    case MoveKind::Place: {
      const int t = m.tile, i = find_end_(m.end), v = end_num_[i];
      const int lo = tile_low(t), hi = tile_high(t);
      remove_end_at_(i);
      hands_[mover].reset(t);
      f_.drawn = -1;
      if (f_.obl_left && --f_.obl_left == 0) {  // a legal place filled a pending end
        f_.obl_kind = 0;
        f_.obl_pos = 0;
        f_.obl_lo = f_.obl_hi = 0;
      }
      Placement& pl = placed_[n_placed_++];
      pl.tile = static_cast<int16_t>(t);
      pl.end = m.end;
      pl.first = next_end_;
      pl.by = static_cast<uint8_t>(v);
      pl.seat = static_cast<int8_t>(mover);
      if (lo == hi) {
        // A double on its number: three new ends of that number. Chicken
        // Foot: they are toes that must be filled first (no obligation can be
        // pending here: pending ends carry the number of a double already
        // placed). Doubles: a spinner that unlocks its number.
        if (rules_.is_chicken_foot()) {
          f_.obl_kind = static_cast<uint8_t>(Pending::Foot);
          f_.obl_left = 3;
          f_.obl_pos = n_ends_;
          f_.obl_lo = next_end_;
          f_.obl_hi = static_cast<int16_t>(next_end_ + 3);
        } else {
          f_.unlocked |= 1u << v;
        }
        for (int k = 0; k < 3; ++k) add_end_(next_end_++, v);
        pl.created = 3;
      } else {
        add_end_(next_end_++, lo == v ? hi : lo);
        pl.created = 1;
      }
      f_.cur = static_cast<int8_t>(mover + 1 == p ? 0 : mover + 1);
      refresh_legal_mask_();
      check_round_end_(mover, true);
      break;
    }
    case MoveKind::Draw: {
      const int t = yard_[yard_top_++];
      hands_[mover].set(t);
      f_.drawn = static_cast<int16_t>(t);
      check_round_end_(mover, false);
      break;
    }
    case MoveKind::Pass:
      f_.drawn = -1;
      f_.cur = static_cast<int8_t>(mover + 1 == p ? 0 : mover + 1);
      check_round_end_(mover, false);
      break;
  }
}

Move State::pop() {
  if (hist_.empty())
    throw IllegalMove(Reason::NoMove, Move::pass(), "no move to take back: the round is at its deal");
  const Record rec = hist_.back();
  hist_.pop_back();
  over_ = false;
  result_ = RoundResult{};
  switch (rec.move.kind) {
    case MoveKind::Place: {
      const Placement& pl = placed_[--n_placed_];
      // The ends it created are the newest, so the last ones of the array.
      for (int k = 0; k < pl.created; ++k) remove_end_at_(n_ends_ - 1);
      next_end_ = pl.first;
      insert_end_(pl.end, pl.by);
      hands_[rec.mover].set(pl.tile);
      break;
    }
    case MoveKind::Draw:
      --yard_top_;
      hands_[rec.mover].reset(yard_[yard_top_]);
      break;
    case MoveKind::Pass:
      break;
  }
  f_ = rec.before;
  if (rec.move.kind == MoveKind::Place) refresh_legal_mask_();
  return rec.move;
}

// docs/rules.md 1.5 / docs/engine.md 1: out (the mover placed their last tile), or
// blocked (yard <= reserve and no hand holds a legal placement).
DOMINOCORE_HOT_INLINE void State::check_round_end_(int mover, bool placed) noexcept {
  if (placed && hands_[mover].empty()) {
    finish_(EndReason::Out, mover);
    return;
  }
  if (yard_size() > rules_.reserve) return;
  const TileSet m = legal_mask_;
  for (int s = 0; s < rules_.players; ++s)
    if (intersects(hands_[s], m)) return;
  finish_(EndReason::Blocked, -1);
}

void State::finish_(EndReason reason, int out_seat) noexcept {
  const int p = rules_.players;
  over_ = true;
  result_ = RoundResult{};
  result_.reason = reason;
  result_.out_seat = out_seat;
  result_.players = p;
  result_.starter = starter_;
  result_.moves = static_cast<int>(hist_.size());
  result_.round_index = round_index_;
  int pips[kMaxPlayers] = {};
  const bool db50 = rules_.double_blank_50;
  for (int s = 0; s < p; ++s) hands_[s].for_each([&](int t) { pips[s] += tile_score(t, db50); });
  if (rules_.is_chicken_foot()) {
    for (int s = 0; s < p; ++s) result_.points[s] = pips[s];
    return;
  }
  // Doubles: the winner (out, or the unique lowest pip total when blocked)
  // scores the pips of all other hands; a shared lowest total scores nobody.
  int winner = out_seat;
  if (reason == EndReason::Blocked) {
    int best = 0;
    for (int s = 1; s < p; ++s)
      if (pips[s] < pips[best]) best = s;
    int ties = 0;
    for (int s = 0; s < p; ++s) ties += pips[s] == pips[best];
    winner = ties == 1 ? best : -1;
  }
  if (winner >= 0)
    for (int s = 0; s < p; ++s)
      if (s != winner) result_.points[winner] += pips[s];
}

// ---------------------------------------------------------------------------
// action ids

int State::action_of_(const Move& m) const noexcept {
  if (m.kind == MoveKind::Draw) return 2 * tiles_;
  if (m.kind == MoveKind::Pass) return 2 * tiles_ + 1;
  return 2 * m.tile + (end_number(m.end) == tile_low(m.tile) ? 0 : 1);
}

// Straight from the generator, already ascending: tiles come in index order,
// and a tile that attaches by both halves gets 2t before 2t+1; Draw (2T) and
// Pass (2T+1) come last.
void State::legal_actions(std::vector<int>& out) const {
  out.clear();
  for_each_distinct_(
      [&](int t, int i) {
        const int a = 2 * t + (end_num_[i] == tile_low(t) ? 0 : 1);
        if (a % 2 == 0 && !out.empty() && out.back() == a + 1) {  // 2t+1's end had the lower id
          out.back() = a;
          out.push_back(a + 1);
        } else {
          out.push_back(a);
        }
      },
      [&](const Move& m) { out.push_back(m.kind == MoveKind::Draw ? 2 * tiles_ : 2 * tiles_ + 1); });
}

std::vector<int> State::legal_actions() const {
  std::vector<int> v;
  legal_actions(v);
  return v;
}

std::vector<uint8_t> State::legal_action_mask() const {
  std::vector<uint8_t> mask(static_cast<size_t>(num_actions()), 0);
  Move buf[kMaxDistinctMoves];
  const int n = distinct_(buf);
  for (int k = 0; k < n; ++k) mask[static_cast<size_t>(action_of_(buf[k]))] = 1;
  return mask;
}

// O(1) but for a scan of the legal ends: 2t (+1) is legal when tile t is in
// question, attaches by that half, and some legal end has that number; the
// move is the placement on the lowest such end (the distinct listing's).
Move State::action_to_move(int a) const {
  const int T = tiles_;
  if (!over_ && a >= 0 && a < 2 * T && !(a % 2 && is_double(a / 2))) {
    const int t = a / 2, v = a % 2 ? tile_high(t) : tile_low(t);
    const bool in_question = f_.drawn >= 0 ? f_.drawn == t : hands_[f_.cur].test(t);
    if (in_question && fits_(t, v)) {
      int b, e;
      legal_slice_(b, e);
      for (int i = b; i < e; ++i)
        if (end_num_[i] == v) return Move::place(t, end_id_[i]);
    }
  } else if (!over_ && (a == 2 * T || a == 2 * T + 1)) {
    const Move m = a == 2 * T ? Move::draw() : Move::pass();
    if (check(m) == Reason::Ok) return m;
  }
  std::string what = "action " + std::to_string(a);
  if (a < 0 || a >= 2 * T + 2) {
    what += " is outside the action space 0.." + std::to_string(2 * T + 1);
  } else {
    if (a == 2 * T)
      what += " (draw)";
    else if (a == 2 * T + 1)
      what += " (pass)";
    else
      what += " (" + tile_name(a / 2) + (is_double(a / 2) ? (a % 2 ? ", not an action of a double" : "")
                                                           : (a % 2 ? " by its high half" : " by its low half")) + ")";
    what += over_ ? " is not legal: the round is over" : " is not legal now";
  }
  std::vector<int> legal;
  legal_actions(legal);
  std::string list;
  for (size_t k = 0; k < legal.size(); ++k) list += (k ? ", " : "") + std::to_string(legal[k]);
  throw IllegalMove(Reason::IllegalAction, Move::pass(),
                    what + " (docs/rules.md 1.8). Legal actions: " + (list.empty() ? "none" : list) + ".");
}

int State::move_to_action(const Move& m) const {
  const Reason r = check(m);
  if (r != Reason::Ok) throw IllegalMove(r, m, explain(m, r));
  return action_of_(m);
}

// action_to_move() yields only legal moves (else it throws), so the move needs
// no second check: this is the step interface's fast path.
void State::apply_action(int action, int player) {
  const Move m = action_to_move(action);
  if (player >= 0 && player != f_.cur) throw IllegalMove(Reason::NotYourTurn, m, explain(m, Reason::NotYourTurn, player));
  push_unchecked(m);
}

// ---------------------------------------------------------------------------
// invariants, comparison, printing

void State::validate() const {
  auto fail = [](const std::string& why) { throw StateError("invalid state: " + why); };
  const int T = tiles_, p = rules_.players;
  const TileSet all = TileSet::full(T);
  // Conservation now: hands, live yard, layout, each tile exactly once.
  TileSet seen;
  int count = 0;
  auto add = [&](int t, const char* where) {
    if (t < 0 || t >= T) fail(std::string("tile out of range in ") + where);
    if (seen.test(t)) fail("tile " + tile_name(t) + " twice (" + where + ")");
    seen.set(t);
    ++count;
  };
  for (int s = 0; s < kMaxPlayers; ++s) {
    if (s >= p && hands_[s].any()) fail("a hand beyond the players is not empty");
    if (minus(hands_[s], all).any()) fail("a hand holds a tile outside the set");
    hands_[s].for_each([&](int t) { add(t, "hands"); });
  }
  for (int i = yard_top_; i < yard_len_; ++i) add(yard_[i], "yard");
  for (int k = 0; k < n_placed_; ++k) add(placed_[k].tile, "layout");
  if (count != T || seen != all) fail("the set is not conserved");
  // Conservation of the deal.
  TileSet dseen;
  int dcount = 0;
  auto dadd = [&](int t) {
    if (dseen.test(t)) fail("the deal holds " + tile_name(t) + " twice");
    dseen.set(t);
    ++dcount;
  };
  for (int s = 0; s < p; ++s) deal_hands_[s].for_each(dadd);
  for (int i = yard_base_; i < yard_len_; ++i) dadd(yard_[i]);
  dadd(centre_);
  if (dcount != T || dseen != all) fail("the deal does not conserve the set");
  if (yard_base_ > yard_top_ || yard_top_ > yard_len_) fail("yard positions");
  // Ends: ascending ids, counts, the number of open ends.
  int cnt[kMaxNumbers] = {};
  uint32_t present = 0;
  for (int i = 0; i < n_ends_; ++i) {
    if (i && end_id_[i - 1] >= end_id_[i]) fail("open ends not in ascending id order");
    if (end_id_[i] >= next_end_) fail("an open end id not yet handed out");
    if (created_end_number(end_id_[i]) != end_num_[i]) fail("an open end's number");
    ++cnt[end_num_[i]];
    present |= 1u << end_num_[i];
  }
  for (int v = 0; v < kMaxNumbers; ++v)
    if (cnt[v] != num_count_[v]) fail("per-number end counts");
  if (present != num_present_) fail("per-number presence mask");
  int created = 0;
  for (int k = 0; k < n_placed_; ++k) created += placed_[k].created;
  if (created != next_end_) fail("end ids handed out");
  if (n_ends_ != created - (n_placed_ - 1)) fail("open-end count");
  // The obligation slice.
  if (f_.obl_left) {
    if (!rules_.is_chicken_foot()) fail("an obligation outside Chicken Foot");
    if (f_.obl_pos + f_.obl_left > n_ends_) fail("obligation slice out of range");
    int inrange = 0;
    for (int i = 0; i < n_ends_; ++i)
      if (end_id_[i] >= f_.obl_lo && end_id_[i] < f_.obl_hi) {
        ++inrange;
        if (i < f_.obl_pos || i >= f_.obl_pos + f_.obl_left) fail("obligation slice");
      }
    if (inrange != f_.obl_left) fail("obligation count");
  } else if (f_.obl_kind) {
    fail("obligation kind without ends");
  }
  if (f_.drawn >= 0 && (over_ ? false : !hands_[f_.cur].test(f_.drawn)))
    fail("the drawn tile is not in the mover's hand");
  if (f_.cur < 0 || f_.cur >= p) fail("current player");
  if (legal_mask_ != compute_legal_mask_()) fail("cached legal mask");
  if (over_ && result_.moves != num_moves()) fail("result move count");
}

bool State::operator==(const State& o) const noexcept {
  if (rules_ != o.rules_ || round_index_ != o.round_index_ || starter_ != o.starter_ ||
      centre_ != o.centre_ || over_ != o.over_)
    return false;
  for (int s = 0; s < kMaxPlayers; ++s)
    if (hands_[s] != o.hands_[s] || deal_hands_[s] != o.deal_hands_[s]) return false;
  // The yard as dealt (from the base, so a cross's set-up draws do not count)
  // and how far it has been drawn.
  if (yard_len_ - yard_base_ != o.yard_len_ - o.yard_base_ ||
      yard_top_ - yard_base_ != o.yard_top_ - o.yard_base_ ||
      std::memcmp(yard_ + yard_base_, o.yard_ + o.yard_base_,
                  static_cast<size_t>(yard_len_ - yard_base_)) != 0)
    return false;
  if (n_ends_ != o.n_ends_ || next_end_ != o.next_end_ || num_present_ != o.num_present_ ||
      std::memcmp(num_count_, o.num_count_, sizeof num_count_) != 0)
    return false;
  for (int i = 0; i < n_ends_; ++i)
    if (end_id_[i] != o.end_id_[i] || end_num_[i] != o.end_num_[i]) return false;
  const Flow &a = f_, &b = o.f_;
  if (a.drawn != b.drawn || a.cur != b.cur || a.obl_kind != b.obl_kind ||
      a.obl_left != b.obl_left || a.obl_pos != b.obl_pos || a.obl_lo != b.obl_lo ||
      a.obl_hi != b.obl_hi || a.unlocked != b.unlocked)
    return false;
  if (n_placed_ != o.n_placed_) return false;
  for (int k = 0; k < n_placed_; ++k) {
    const Placement &x = placed_[k], &y = o.placed_[k];
    if (x.tile != y.tile || x.end != y.end || x.first != y.first || x.created != y.created ||
        x.by != y.by || x.seat != y.seat)
      return false;
  }
  if (over_) {
    const RoundResult &x = result_, &y = o.result_;
    if (x.reason != y.reason || x.out_seat != y.out_seat || x.points != y.points ||
        x.starter != y.starter || x.moves != y.moves || x.round_index != y.round_index)
      return false;
  }
  if (hist_.size() != o.hist_.size()) return false;
  for (size_t k = 0; k < hist_.size(); ++k)
    if (hist_[k].move != o.hist_[k].move || hist_[k].mover != o.hist_[k].mover) return false;
  return true;
}

std::string State::ends_text_(bool legal_only) const {
  std::string s;
  int b = 0, e = n_ends_;
  if (legal_only) legal_slice_(b, e);
  for (int i = b; i < e; ++i) {
    if (!s.empty()) s += ", ";
    s += std::to_string(end_id_[i]) + ":" + std::to_string(end_num_[i]);
  }
  return s.empty() ? "none" : s;
}

static std::string list_moves(const std::vector<Move>& v, size_t limit = 24) {
  std::string s;
  for (size_t k = 0; k < v.size() && k < limit; ++k) {
    if (k) s += ", ";
    s += move_name(v[k]);
  }
  if (v.size() > limit) s += ", ... (" + std::to_string(v.size()) + " in all)";
  return s;
}

std::string State::explain(const Move& m, Reason r, int player) const {
  const int cur = over_ ? -1 : f_.cur;
  const int who = player >= 0 ? player : cur;
  std::string tile = (m.tile >= 0 && m.tile < kMaxTiles) ? tile_name(m.tile)
                                                         : "#" + std::to_string(m.tile);
  std::string s = "illegal move " + move_name(m) + ": ";
  switch (r) {
    case Reason::Ok: return "move " + move_name(m) + " is legal";
    case Reason::RoundOver:
      return s + "the round is over (" + end_reason_name(result_.reason) +
             "); no move can be made (docs/rules.md 1.5)";
    case Reason::NotYourTurn:
      s += "it is seat " + std::to_string(cur) + "'s turn, not seat " + std::to_string(player) +
           "'s (docs/rules.md 1.2)";
      break;
    case Reason::NotDrawnTile:
      s += "after a draw only the drawn tile " + tile_name(f_.drawn) +
           " is in question (docs/rules.md 1.4)";
      break;
    case Reason::NotInHand:
      s += "tile " + tile + " is not in seat " + std::to_string(who) + "'s hand";
      break;
    case Reason::EndNotOpen:
      s += "end " + std::to_string(m.end) + " is not an open end (open ends id:number: " +
           ends_text_(false) + ")";
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
    case Reason::NoMatch:
      s += "neither half of " + tile + " matches end " + std::to_string(m.end) + " (number " +
           std::to_string(end_number(m.end)) + ") (docs/rules.md 1.3)";
      break;
    case Reason::Locked: {
      const int v = end_number(m.end);
      s += "number " + std::to_string(v) + " is locked until its double " + tile_name(double_tile(v)) +
           " is in the layout; only that double may attach there (docs/rules.md 3)";
      break;
    }
    case Reason::AlreadyDrew:
      s += "seat " + std::to_string(cur) + " has already drawn this turn; place the drawn tile " +
           tile_name(f_.drawn) + " or pass (docs/rules.md 1.4)";
      break;
    case Reason::MustPlace:
      s += "seat " + std::to_string(cur) +
           " holds a legal placement and must place rather than " +
           (m.kind == MoveKind::Draw ? "draw" : "pass") + " (docs/rules.md 1.4)";
      break;
    case Reason::YardExhausted:
      s += "the yard holds " + std::to_string(yard_size()) + " tile(s), no more than its reserve of " +
           std::to_string(rules_.reserve) + ", so nobody may draw (docs/rules.md 1.4)";
      break;
    case Reason::MustPlaceDrawn:
      s += "the drawn tile " + tile_name(f_.drawn) +
           " has a legal placement and must be placed (drawn_tile = \"must\", docs/rules.md 1.4)";
      break;
    case Reason::IllegalAction:
      s += "it is not a legal action now (docs/rules.md 1.8)";
      break;
    case Reason::NoMove:
      return "no move to take back: the round is at its deal";
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
  o << describe(rules_) << "\nround " << round_index_ << ", centre " << tile_name(centre_)
    << ", starter " << int(starter_) << ", moves " << num_moves();
  if (over_) {
    o << ", over: " << end_reason_name(result_.reason);
    if (result_.out_seat >= 0) o << " (seat " << result_.out_seat << ")";
    o << ", points";
    for (int s = 0; s < rules_.players; ++s) o << ' ' << result_.points[s];
  } else {
    o << ", to move: seat " << int(f_.cur);
    if (f_.drawn >= 0) o << " (drew " << tile_name(f_.drawn) << ")";
  }
  o << "\nopen ends (id:number): " << ends_text_(false);
  if (f_.obl_left)
    o << "\npending " << (f_.obl_kind == static_cast<uint8_t>(Pending::Start) ? "start slots" : "foot toes")
      << ": " << ends_text_(true);
  if (rules_.is_doubles()) {
    o << "\nunlocked:";
    for (int v = 0; v <= rules_.set; ++v)
      if (is_unlocked(v)) o << ' ' << v;
  }
  for (int s = 0; s < rules_.players; ++s) {
    o << "\nhand " << s << ":";
    hands_[s].for_each([&](int t) { o << ' ' << tile_name(t); });
  }
  o << "\nyard (" << yard_size() << ", top first):";
  for (int i = yard_top_; i < yard_len_; ++i) o << ' ' << tile_name(yard_[i]);
  o << "\nmoves:";
  for (const Record& r : hist_) o << ' ' << move_name(r.move);
  o << '\n';
  return o.str();
}

// ---------------------------------------------------------------------------
// Built-in players (players.hpp). They live in this translation unit on
// purpose: Bots::play_out() is the simulation loop, and here the compiler can
// inline the move generator and push_unchecked() into it without LTO (about
// 25% faster).


const char* policy_name(Policy p) noexcept { return p == Policy::Random ? "random" : "greedy"; }

Policy parse_policy(std::string_view s) {
  if (s == "random") return Policy::Random;
  if (s == "greedy") return Policy::Greedy;
  throw RulesError("unknown policy '" + std::string(s) + "': expected 'random' or 'greedy'");
}

Move RandomPlayer::choose(const State& s) {
  const int n = s.distinct_moves(buf_);
  if (n == 0) throw StateError("the round is over: there is no move to choose");
  return buf_[rng_.below_unchecked(static_cast<uint64_t>(n))];
}

Move greedy_move(const State& s) {
  if (s.is_over()) throw StateError("the round is over: there is no move to choose");
  const TileSet cand = s.placeable();
  if (cand.any()) {
    const bool db50 = s.rules().double_blank_50;
    int best = -1, best_score = -1;
    cand.for_each([&](int t) {  // ascending index: strict > keeps the first of equals
      const int sc = tile_score(t, db50);
      if (sc > best_score) {
        best_score = sc;
        best = t;
      }
    });
    return Move::place(best, s.lowest_legal_end(best));
  }
  if (s.drawn_tile() < 0 && s.yard_size() > s.rules().reserve) return Move::draw();
  return Move::pass();
}

Bots::Bots(const std::vector<Policy>& policies, int players, uint64_t seed) : random_(seed) {
  if (players < 1 || players > kMaxPlayers)
    throw RulesError("players must be 1.." + std::to_string(kMaxPlayers));
  if (policies.size() != 1 && policies.size() != static_cast<size_t>(players))
    throw RulesError("policies: give one policy for every seat, or one per seat (" +
                     std::to_string(players) + "), not " + std::to_string(policies.size()));
  for (int s = 0; s < kMaxPlayers; ++s)
    policies_[s] = policies.size() == 1 ? policies[0]
                                        : policies[static_cast<size_t>(s < players ? s : 0)];
}

Move Bots::choose(const State& s) {
  const int cur = s.current_player();
  if (cur < 0) throw StateError("the round is over: there is no move to choose");
  return policies_[cur] == Policy::Random ? random_.choose(s) : greedy_move(s);
}

void Bots::play_out(State& s) {
  Move buf[kMaxDistinctMoves];
  Rng& rng = random_.rng();
  while (!s.over_) {
    if (policies_[s.f_.cur] == Policy::Random) {
      const int n = s.distinct_(buf);
      s.apply_(buf[rng.below_unchecked(static_cast<uint64_t>(n))]);
    } else {
      s.apply_(greedy_move(s));
    }
  }
}

}  // namespace dominocore
