"""Tests of selector/knowledge/, module by module."""
