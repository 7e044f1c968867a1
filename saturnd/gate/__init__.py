"""The approval gate: policy, judge, dependency gate, recipient check, provenance."""
