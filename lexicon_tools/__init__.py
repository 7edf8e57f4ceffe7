"""Lexicon tools: normalise a German word list and build KWG (DAWG + GADDAG) lexicon bundles."""

__version__ = "0.2.0"
