"""The knowledge: fields and models, loading and cross-checks, vocabulary, provenance, snapshots."""
