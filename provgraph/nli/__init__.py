"""Offline NLI cross-encoder: training, export, evaluation and runtime loading."""
