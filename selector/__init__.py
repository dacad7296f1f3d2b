"""AI Stack Selector: evidence-based selection of AI frameworks, runtimes and accelerators."""

__version__ = "0.1.0"
