// The binding of the rules: CoreRules, the core's resolved rules built from a
// Python rules object (dominocore.common.rules).
#include "support.hpp"

#include <string>

namespace dominocore::bindings {

namespace {

// A Python rules object (dominocore.common.rules) to the core's Rules: every
// option its to_dict() holds goes to make_rules, which applies the game's
// defaults and refuses an option the game does not have.
Rules to_rules(const py::object& obj) {
  py::dict d = obj.attr("to_dict")();
  RulesSpec spec;
  spec.game = parse_game(d["game"].cast<std::string>());
  spec.set = d["set"].cast<int>();
  spec.players = d["players"].cast<int>();
  spec.hand_size = d["hand_size"].cast<int>();
  if (d.contains("rule_set")) spec.rule_set = parse_rule_set(d["rule_set"].cast<std::string>());
  if (d.contains("trains")) spec.trains = d["trains"].cast<int>();
  if (d.contains("double_blank_50")) spec.double_blank_50 = d["double_blank_50"].cast<bool>();
  if (d.contains("target")) spec.target = d["target"].cast<int>();
  if (d.contains("max_rounds")) spec.max_rounds = d["max_rounds"].cast<int>();
  if (d.contains("drawn_tile"))
    spec.drawn_tile = parse_drawn_tile(d["drawn_tile"].cast<std::string>());
  if (d.contains("lead")) spec.lead = parse_lead(d["lead"].cast<std::string>());
  if (d.contains("teams") && !d["teams"].is_none()) spec.teams = d["teams"].cast<int>();
  if (d.contains("team_scoring") && !d["team_scoring"].is_none())
    spec.team_scoring = parse_team_scoring(d["team_scoring"].cast<std::string>());
  // The games that score during play (docs/games/all_fives.md).
  if (d.contains("reserve")) spec.reserve = d["reserve"].cast<int>();
  if (d.contains("draw")) spec.draw = parse_draw(d["draw"].cast<std::string>());
  if (d.contains("spinner")) spec.spinner = parse_spinner(d["spinner"].cast<std::string>());
  if (d.contains("sides_open"))
    spec.sides_open = parse_sides_open(d["sides_open"].cast<std::string>());
  if (d.contains("out_points"))
    spec.out_points = parse_out_points(d["out_points"].cast<std::string>());
  if (d.contains("end_in_play")) spec.end_in_play = d["end_in_play"].cast<bool>();
  return make_rules(spec);
}

}  // namespace

void bind_rules(py::module_& m) {
  py::class_<Rules> core_rules(m, "CoreRules",
                               "The core's resolved rules, built once from a Python rules object.");
  core_rules.def(py::init(&to_rules), py::arg("rules"))
      .def_property_readonly("describe", [](const Rules& r) { return describe(r); });
  def_unpicklable(core_rules);
}

}  // namespace dominocore::bindings
