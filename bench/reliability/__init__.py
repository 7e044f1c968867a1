"""Proofs of Saturn's reliability promises (issue 13): each module has a full mode that prints
the figures for docs/reliability.md and a short mode that tests/test_reliability.py runs."""
