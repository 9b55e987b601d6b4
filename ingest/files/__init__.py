"""Finding and reading the files squire is given: match logs (plain or gzip) and component
catalogues."""
