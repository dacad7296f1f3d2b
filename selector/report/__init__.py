"""Recommendation reports: one frozen document model, rendered as a Markdown decision record, HTML and PDF.

- :mod:`model`: the frozen :class:`~selector.report.model.Report` and its parts; :mod:`formats`: how numbers are
  written;
- :mod:`build`: rank a group and gather everything a reader needs to audit the ranking (with :mod:`points`,
  :mod:`evidence` and :mod:`summary` for large groups);
- :mod:`render`: Markdown (MADR's shape) and one self-contained HTML page through the Jinja2 templates in
  ``templates/``; :mod:`pdf`: A4 through WeasyPrint;
- :mod:`spreadsheet`: the ranking itself as CSV and XLSX.
"""
