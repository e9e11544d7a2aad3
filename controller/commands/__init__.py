"""Sub-commands of the ``tabula`` command line (see :mod:`controller.cli`)."""
