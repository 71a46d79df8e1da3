"""The ``brv`` command line: thin click commands over ``brv_vc.services``."""

import sys as _sys

# 'brv [-C DIR] vc status': start git status before click and the services are imported
# (see brv_vc.vc.git.prefetch_status); the two then run side by side.
if "status" in _sys.argv[1:5] and "vc" in _sys.argv[1:4]:
    from brv_vc.vc.git import prefetch_status

    prefetch_status(_sys.argv[1:])
