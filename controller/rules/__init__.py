"""Tabula's rules engine: pure, typed, immutable positions and everything the rules say."""
