"""`python -m coachloop` runs the command line."""

from coachloop.entry import main

main()
