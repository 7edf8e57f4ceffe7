import gc

# Start-up: importing NumPy and the command line allocates many long-lived objects and no garbage
# cycles, yet the cyclic collector would walk them again and again while they are created (about 4 %
# of a `best` process). So it is off while importing; what the imports made is then moved to the
# permanent generation (gc.freeze), which later collections skip, and the collector runs as usual.
gc.disable()
from engine.cli.main import main  # noqa: E402

gc.freeze()
gc.enable()
raise SystemExit(main())
