"""Tests of selector/io/, module by module."""
