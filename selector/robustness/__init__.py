"""How robust a ranking is: SMAA, tipping points, weight sweeps, agreement between methods and rank reversal.

- ``analysis``: the analyses of one recommendation from the knowledge base (what "plausible" means, the badge).
- ``smaa``: rank acceptability, central weights and confidence (SMAA-2).
- ``tipping``: dimension shares at which the leader changes; ``sweep``: scores along one dimension's share.
- ``agreement``: the ranking under every method, with Kendall's tau; ``reversal``: rank reversal.
- ``sampling``: weight vectors and uncertain cells (read-only result arrays: :mod:`selector.arrays`).

Every analysis takes a :class:`selector.decision.problem.Problem` (tipping points and sweeps also the
:class:`selector.decision.weights.Hierarchy` that spreads dimension shares over the criteria). SMAA, tipping points and
sweeps score thousands of weight vectors through ``selector.decision.vectorised`` (vectorised numpy, tested equal to
``selector.decision.scoring``); method agreement and rank reversal call ``scoring.score`` directly.
"""
