"""Plain-data views of the knowledge base for the app's screens (one module per screen): pandas tables and
small records, never streamlit."""
