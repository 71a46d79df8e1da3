"""brv-vc: a git-native, agent-native memory for software teams and their AI coding agents."""

__version__ = "0.1.0"
