"""``python -m warcouncil`` and the ``warcouncil`` command ([project.scripts]
in pyproject.toml): the command line of ``warcouncil.cli`` in a process of
its own (the collector held back while it starts: ``warcouncil._starting``)."""

from . import _starting


def main() -> None:
    _starting()  # before cli.py's imports
    from .cli import main as cli_main

    cli_main(prog_name="warcouncil")


if __name__ == "__main__":
    main()
