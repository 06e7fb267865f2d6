"""Training the learned policy (docs/learning.md 2): ``selfplay`` makes the
data by IS-MCTS self-play, ``train`` fits the network (the ``[train]`` extra:
torch) and writes the weights file the engines read."""
