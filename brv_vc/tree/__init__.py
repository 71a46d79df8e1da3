"""The context tree on disk: paths, layout rules, the atomic store, project discovery, state."""
