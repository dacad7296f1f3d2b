"""Tests of selector/decision/, module by module."""
