"""``python -m rummykit`` runs the command line."""

from rummykit.cli.app import main

main()
