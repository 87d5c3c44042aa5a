"""The world a game is played in, knowing no game system: the board's
geometry, YAML read with the places of its values, and the schema
framework the files are checked by (docs/design.md §2)."""
