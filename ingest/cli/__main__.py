"""`python -m ingest.cli`: the `squire` command."""

import sys

from ingest.cli import main

sys.exit(main())
