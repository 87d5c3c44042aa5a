"""Square-grid ancients ("Homunculus Est!", seed 004): the ``grid-ancients``
pack's system — its scenario shape, the meanings of its builtins, and the
engine answering ``activations``, ``odds`` and ``check``."""
