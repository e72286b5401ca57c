"""Helpers for testing the engine: replays of reference-paired corpora (corpus.py),
mutated and corrupted files (mutate.py, corrupt.py), big random tournaments
(large.py) and hand-made fields (handmade.py).  The test suite and scripts/ use them;
nothing in the engine does."""
