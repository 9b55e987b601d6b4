# Two commands do all the set-up on a fresh machine:  make up  (the main job)  and  make test.
VENV ?= .venv
PY := $(VENV)/bin/python

.PHONY: up test bench clean

$(VENV)/.installed: pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@

test: $(VENV)/.installed
	$(VENV)/bin/mypy
	$(PY) -m pytest -n 2

bench: $(VENV)/.installed
	$(PY) bench/replay_knight_academy.py

clean:
	rm -rf $(VENV) data/warehouse
