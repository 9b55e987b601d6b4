"""The Record page's model: a match entered at the table, a tap at a time."""
