"""``python -m brv_vc``: the same entry point as the ``brv`` console script."""

from brv_vc.cli.entry import main

if __name__ == "__main__":
    main()
