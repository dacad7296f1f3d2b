"""Guarded reading and writing: text policy, YAML and raw files, numbers, outputs, the limits of one input."""
