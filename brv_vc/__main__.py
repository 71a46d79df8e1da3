"""``python -m brv_vc``: the same entry point as the ``brv`` console script."""

import sys


def run() -> None:
    """Runs ``brv``; ``search`` and ``query`` first try the click-free fast path."""
    if len(sys.argv) > 1:
        from brv_vc.cli.fast import try_fast

        code = try_fast(sys.argv[1:])
        if code is not None:
            sys.exit(code)
    from brv_vc.cli.main import main

    main()


if __name__ == "__main__":
    run()
