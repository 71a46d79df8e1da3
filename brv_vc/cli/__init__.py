"""The ``brv`` command line: thin click commands over ``brv_vc.services``."""
