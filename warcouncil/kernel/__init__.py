"""The kernel: the rule language's runtime (compile, evaluate, ground), the
game systems' registry, the scenario and turn files read the way the named
system says, the engine and the game interface (docs/design.md §2)."""
