"""The decision problem: preferences, constraints, decision trees, the matrix, weights and scoring."""
