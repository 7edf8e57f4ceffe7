"""Lexicon tools: normalise a German word list and build KWG (DAWG + GADDAG) lexicon bundles."""

__version__ = "0.1.0"
