"""Dice reading with OpenCV for Tabula."""
