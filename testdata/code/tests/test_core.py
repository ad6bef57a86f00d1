"""Tests for calc.core."""
import pytest

from calc.core import Calculator, add


def test_add():
    assert add(1, 2) == 3


def test_add_negative():
    with pytest.raises(ValueError):
        add(-1, 2)


class TestCalculator:
    def test_total(self):
        c = Calculator()
        c.push(2)
        c.push(3)
        assert c.total() == 5
