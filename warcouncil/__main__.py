"""``python -m warcouncil``: the same command line as ``warcouncil``."""

from .cli import main

if __name__ == "__main__":
    main(prog_name="warcouncil")
