"""The calc package: small arithmetic helpers."""
from .core import Calculator, add

__all__ = ["Calculator", "add"]
