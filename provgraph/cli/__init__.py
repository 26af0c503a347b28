"""The ``provgraph`` command line."""
