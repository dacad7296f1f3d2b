"""Plotly figures of the app and the report, one module per family of figures; never calls streamlit.

Each module takes plain data (frames, arrays, names) and returns a titled, labelled figure; :mod:`base` holds what
they share (the one-step unvalidated constructor, colours, the stand-alone theme).
"""
