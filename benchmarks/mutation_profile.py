"""pytest plugin used by benchmarks/mutation.py (``-p mutation_profile``): Hypothesis without deadlines and
derandomized, so that a mutant is killed by a test that checks its math, never by a timing flake on a busy
machine or by a random example that only this run drew."""

from hypothesis import settings

settings.register_profile("mutation", deadline=None, derandomize=True, database=None)
settings.load_profile("mutation")
