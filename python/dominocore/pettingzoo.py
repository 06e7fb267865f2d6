"""dominocore's games as PettingZoo AEC environments (docs/ecosystem.md 2).

One environment plays one round, one agent per seat (``player_0`` ..)::

    from dominocore.pettingzoo import env

    e = env(game="chickenfoot", players=4, render_mode="ansi")
    e.reset(seed=7)                  # the round of Round(rules, seed=7)
    for agent in e.agent_iter():
        observation, reward, terminated, truncated, info = e.last()
        if terminated or truncated:
            action = None
        else:
            action = e.action_space(agent).sample(observation["action_mask"])
        e.step(action)

An observation is ``{"observation": round.observation_tensor(seat),
"action_mask": ...}``: what the seat may see (docs/information.md 3), and a
mask of its legal action ids (all zero when it is not the seat to move).
After each step every agent's reward is its change in round margin
(``Rules.round_margins``), as in the OpenSpiel bridge: the margin itself
when the round ends in the games that score only at the end, the points of
play as they come in the games that score during play.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

import gymnasium
import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ._implementations import implementation as implementation_named
from .common.checks import check_round_index
from .common.errors import RulesError
from .common.information import observation_high
from .common.results import last_step_rewards
from .common.rules import Rules
from .games import DEFAULT_GAME, GAMES
from .gymnasium_vector import observation_space

__all__ = ["raw_env", "env", "observation_high"]


class raw_env(AECEnv):
    """One round of a dominocore game as a PettingZoo AEC environment.

    ``game`` is a game id (``"chickenfoot"``, ``"doubles"``, ``"block"``,
    ``"mexican_train"``) and ``options`` the rules' options (``players``,
    ``set``, ``rule_set``, ...; docs/rules.md), checked by the rules class
    (``RulesError``). ``round_index`` picks the round (its start double or
    engine, its leader); ``implementation`` is ``"default"`` (``import
    dominocore``), ``"cpp"`` or ``"python"`` (``dominocore.reference``);
    ``render_mode`` is ``None`` or ``"ansi"``.

    ``reset(seed=s)`` deals ``Round(rules, seed=s, round_index=...)``;
    ``reset()`` draws the round's seed from the environment's generator
    (seeded by the last ``reset(seed=...)``). ``options`` of ``reset`` are
    accepted and not read. ``step`` plays an action id of the agent to move
    (``IllegalMoveError`` for an illegal one, the round unchanged).
    """

    metadata: Dict[str, Any] = {"render_modes": ["ansi"], "name": "dominocore_v0", "is_parallelizable": False}

    def __init__(
        self,
        game: str = DEFAULT_GAME,
        round_index: int = 0,
        render_mode: Optional[str] = None,
        implementation: str = "default",
        **options: Any,
    ) -> None:
        super().__init__()
        if game not in GAMES:
            raise RulesError(f"game must be one of {sorted(GAMES)}, got {game!r}")
        if render_mode not in (None, "ansi"):
            raise RulesError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.rules: Rules = GAMES[game](**options)
        self.round_index: int = check_round_index(self.rules, round_index)
        self.module = implementation_named(implementation)
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, name=f"dominocore_{game}_v0")
        self.possible_agents: List[str] = [f"player_{s}" for s in range(self.rules.players)]
        self._seats = {agent: s for s, agent in enumerate(self.possible_agents)}
        self.observation_spaces: Dict[str, gymnasium.spaces.Space] = {
            agent: observation_space(self.rules) for agent in self.possible_agents
        }
        self.action_spaces: Dict[str, gymnasium.spaces.Space] = {
            agent: gymnasium.spaces.Discrete(self.rules.num_actions) for agent in self.possible_agents
        }
        self.round: Any = None
        self.np_random, _ = gymnasium.utils.seeding.np_random(None)

    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        """The agent's observation space: a ``Dict`` of the observation
        (``Box``, float32) and the action mask (``Box`` of 0/1, int8)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        """``Discrete(rules.num_actions)``: the game's action ids."""
        return self.action_spaces[agent]

    def seat(self, agent: str) -> int:
        """The seat of ``agent`` (``player_<seat>``)."""
        return self._seats[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        """Deal a new round (seeded with ``seed`` when given) and select the seat to move."""
        if seed is not None:
            self.np_random, _ = gymnasium.utils.seeding.np_random(seed)
            round_seed = int(seed)
        else:
            round_seed = int(self.np_random.integers(0, 2**63))
        self.round = self.module.Round(self.rules, seed=round_seed, round_index=self.round_index)
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: Dict[str, Dict[str, Any]] = {agent: {} for agent in self.agents}
        if self.round.is_over:  # a round can end at its set-up (docs/engine.md reading 1)
            self.agent_selection = self.agents[0]
            self._step_rewards()
            self._finish()
        else:
            self.agent_selection = self.possible_agents[self.round.current_player]

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        """``agent``'s observation tensor and its action mask (zeros unless
        it is the seat to move)."""
        seat = self._seats[agent]
        mask = np.zeros(self.rules.num_actions, dtype=np.int8)
        if not self.round.is_over and self.round.current_player == seat:
            mask[:] = self.round.legal_action_mask()
        return {"observation": self.round.observation_tensor(seat), "action_mask": mask}

    def _finish(self) -> None:
        for agent in self.agents:
            self.terminations[agent] = True

    def _step_rewards(self) -> None:
        # every seat's change in margin through the last move: per step in the
        # games that score during play, the margins at the end in the others
        rewards = last_step_rewards(self.round)
        for agent in self.agents:
            self.rewards[agent] = rewards[self._seats[agent]]

    def step(self, action: Any) -> None:
        """Play ``action`` (an action id) for the agent to move; once the
        round is over, step each agent with ``None`` to retire it.

        An action id is an integer (numpy integers too): anything else, a
        float such as ``4.0``, a string, a bool, is refused exactly as
        ``Round.apply_action`` refuses it (``IllegalMoveError``,
        ``illegal_action``), as is an id that is not legal now; nothing
        changes then (docs/validation.md, "Integers")."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise RulesError(f"{agent} is to move: step needs an action id, got None")
        self.round.apply_action(action)  # the round's own checks; it refuses before anything changes
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._step_rewards()
        if self.round.is_over:
            self._finish()
            self.agent_selection = self.possible_agents[(self._seats[agent] + 1) % len(self.possible_agents)]
        else:
            self.agent_selection = self.possible_agents[self.round.current_player]
        self._accumulate_rewards()

    def render(self) -> Optional[str]:
        """With ``render_mode="ansi"``: ``round.render(seat)`` for the agent
        selected (``agent_selection``), the public state and that seat's own
        hand only (docs/information.md 1); the public state alone once every
        agent is retired."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode; pass render_mode='ansi'")
            return None
        if self.round is None:
            return "no round dealt yet: call reset()"
        seat = self._seats[self.agent_selection] if self.agent_selection in self.agents else None
        return str(self.round.render(seat))

    def close(self) -> None:
        """Nothing to release."""


def env(game: str = DEFAULT_GAME, **kwargs: Any) -> AECEnv:
    """``raw_env(game, **kwargs)`` in PettingZoo's ``OrderEnforcingWrapper``
    (calls in order). PettingZoo's ``AssertOutOfBoundsWrapper`` is not used:
    ``step`` refuses every action outside the space itself, and with the
    project's error (``IllegalMoveError``, as ``Round.apply_action``) where
    that wrapper would raise ``AssertionError``."""
    wrapped: AECEnv = raw_env(game=game, **kwargs)
    wrapped = wrappers.OrderEnforcingWrapper(wrapped)
    return wrapped
