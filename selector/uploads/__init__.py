"""A user's own data: CSV or YAML uploads checked, converted to knowledge YAML and compared with the articles.

An upload may add sources of kind ``user``, entities (a chip the articles never mention), claims of tier
``measured`` (your measurements) or ``assessed`` (your ratings, with rationale) and comparison groups. It is checked
by the same loader as the bundled knowledge (:func:`selector.knowledge.loading.collect`) plus the upload policy, and
nothing with an error is merged. The bundled files under ``knowledge/`` are never written.

- :mod:`selector.uploads.csv_claims`: the CSV claims format (one row per claim) -> knowledge-schema YAML, the template;
- :mod:`selector.uploads.policy`: what an upload may hold beyond the schema (tiers, sources, ranges, text, units);
- :mod:`selector.uploads.intake`: one upload's check (type, caps, conversion, loader, policy) and its result;
- :mod:`selector.uploads.comparison`: users' values beside the bundled ones, and which ranking reads them.
"""
