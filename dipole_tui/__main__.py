"""`python -m dipole_tui` runs the same command as `dipole-tui`."""

from .cli import main

raise SystemExit(main())
