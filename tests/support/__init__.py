"""Helpers the tests share, one module per kind (conftest.py re-exports the fixtures)."""
