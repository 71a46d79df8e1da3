"""Git: the one adapter (``vc.git``), status, semantic diff, merge driver, sync, hooks."""
