"""`python -m cpsat_pairing`: the same as the `cpsat-pairing` command."""

from .cli import main

if __name__ == "__main__":
    main()
