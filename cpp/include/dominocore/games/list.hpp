// The one list of games. Everything that goes over the games one by one is
// generated from it: the Game enum (rules.hpp), the games' names and their
// parser (rules.cpp), with_game() and for_each_game() (games/registry.hpp).
//
// One line per game, X(Module, number, "name"):
//   Module  the Game enumerator, and the game's module: the struct of hooks
//           games::Module in dominocore/games/<game>.hpp
//   number  its Game value; records, the bindings and the Cython .pxd rely
//           on it, so a game keeps its number for ever
//   name    its name in records and messages
//
// This header only lists; it includes nothing, so rules.hpp can include it.
// Adding a game: its line here, its module and its #include in
// games/registry.hpp (docs/adding-a-game.md).
#pragma once

#define DOMINOCORE_GAMES(X)           \
  X(ChickenFoot, 0, "chickenfoot")    \
  X(Doubles, 1, "doubles")            \
  X(Block, 2, "block")                \
  X(MexicanTrain, 3, "mexican_train") \
  X(AllFives, 4, "all_fives")         \
  X(FivesAndThrees, 5, "fives_and_threes")
