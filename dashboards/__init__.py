"""The Streamlit dashboards: read-only views of the warehouse, and the match viewer."""
