"""`python -m cpsat_pairing`: the same as the `cpsat-pairing` command."""

from cpsat_pairing.interface.cli import main

if __name__ == "__main__":
    main()
