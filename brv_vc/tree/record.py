"""The typing-free ``NamedTuple`` (:mod:`brv_vc.record`), where the tree layer first had it."""

from __future__ import annotations

from brv_vc.record import NamedTuple

__all__ = ["NamedTuple"]
