"""A random playout of one turn, through the game interface (README, "The game
interface"): every family's turn is played the same way.

    python docs/playout.py akragas --card "Order Three Units Center"
    python docs/playout.py ridgeway --seed 3
"""

import argparse
import json
import random

import warcouncil


def playout(scenario: str, seed: int = 0, **options) -> "warcouncil.State":
    rng = random.Random(seed)
    state = warcouncil.load_game(scenario).new_state(**options)
    while not state.is_terminal():
        if state.current_player() == warcouncil.CHANCE:
            outcomes = state.chance_outcomes()  # [(action, Fraction)], summing to 1
            action = rng.choices([a for a, _ in outcomes], [float(p) for _, p in outcomes])[0]
        else:
            action = rng.choice(state.legal_actions())
        print(action["text"])
        state.apply(action)  # an illegal action would raise warcouncil.IllegalAction
    return state


if __name__ == "__main__":
    args = argparse.ArgumentParser()
    args.add_argument("scenario")
    args.add_argument("--seed", type=int, default=0)
    args.add_argument("--card", default=None)
    a = args.parse_args()
    state = playout(a.scenario, a.seed, **({"card": a.card} if a.card else {}))
    print(json.dumps(state.log()))  # the turn file: `warcouncil check SCENARIO` judges it legal
