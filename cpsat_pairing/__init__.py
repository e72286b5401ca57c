"""cpsat-pairing: the FIDE Dutch Swiss system on OR-Tools CP-SAT."""

__version__ = "0.1.0"
