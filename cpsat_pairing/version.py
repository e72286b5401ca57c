"""The package version (one place: the build reads it from here)."""

__version__ = "0.3.42"
