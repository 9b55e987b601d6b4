# Two commands do all the set-up on a fresh machine:  make up  (the main job)  and  make test.
VENV ?= .venv
PY := $(VENV)/bin/python

.PHONY: up test browser bench samples clean

$(VENV)/.installed: pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@

up: $(VENV)/.installed
	$(VENV)/bin/squire up

# The browser tests drive Debian's chromium; Chinese labels need a CJK font.
browser:
	@if ! command -v chromium >/dev/null || ! fc-list 2>/dev/null | grep -qi "WenQuanYi Micro Hei"; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	      chromium fonts-wqy-microhei >/dev/null; \
	  else \
	    echo "note: install chromium and fonts-wqy-microhei for the browser tests"; \
	  fi; \
	fi

test: $(VENV)/.installed browser
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(PY) -m pytest -n 2

bench: $(VENV)/.installed
	$(PY) bench/replay_speed.py knight-academy
	$(PY) bench/simulate_speed.py knight-academy
	$(PY) bench/ingest_knight_academy.py
	$(PY) bench/replay_speed.py heraldry
	$(PY) bench/simulate_speed.py heraldry
	$(PY) bench/replay_speed.py paladins
	$(PY) bench/simulate_speed.py paladins
	$(PY) bench/replay_speed.py albus-academy
	$(PY) bench/simulate_speed.py albus-academy
	$(PY) bench/upload_memory.py

clean:
	rm -rf $(VENV) data/warehouse

# The bundled sample matches: regenerated on purpose, then committed.
samples: $(VENV)/.installed
	rm -rf data/samples/knight-academy
	for players in 2 3 4 5; do \
	  $(VENV)/bin/squire simulate knight-academy -n 75 --players $$players \
	    --bots greedy,random,focus,denier --seed 2026 --played-from 2026-09-01T18:00:00Z \
	    --out data/samples/knight-academy --jobs 1 || exit 1; \
	done
	$(VENV)/bin/squire simulate knight-academy -n 100 --players 4 --bots greedy,focus,denier,random \
	  --seed 2026 --set 'quest_prizes=[12,8,4]' --played-from 2026-10-01T18:00:00Z \
	  --out data/samples/knight-academy --jobs 1
	$(VENV)/bin/squire simulate knight-academy -n 100 --players 4 --bots greedy,focus,denier,random \
	  --seed 2026 --ruleset knight-academy/advanced --played-from 2026-11-01T18:00:00Z \
	  --out data/samples/knight-academy --jobs 1
	$(VENV)/bin/squire simulate knight-academy -n 60 --players 2 --variant lancelot \
	  --bots greedy,focus,denier,random --seed 2026 --played-from 2026-11-20T18:00:00Z \
	  --out data/samples/knight-academy --jobs 1
	$(VENV)/bin/squire simulate knight-academy -n 20 --players 2 --variant lancelot \
	  --bots greedy,focus,denier,random --seed 2026 --ruleset knight-academy/all-boards \
	  --set 'lifts=1' --played-from 2026-11-25T18:00:00Z --out data/samples/knight-academy --jobs 1
	for board in knights wager codex scrolls quest mercy all-boards; do \
	  $(VENV)/bin/squire simulate knight-academy -n 30 --players 4 \
	    --bots greedy,focus,denier,random --seed 2026 --ruleset knight-academy/$$board \
	    --played-from 2026-11-15T18:00:00Z --out data/samples/knight-academy --jobs 1 || exit 1; \
	done
	rm -rf data/samples/heraldry
	for players in 2 3 4; do \
	  $(VENV)/bin/squire simulate heraldry -n 60 --players $$players --bots greedy,random \
	    --seed 2026 --played-from 2026-09-02T18:00:00Z --out data/samples/heraldry --jobs 1 || exit 1; \
	done
	$(VENV)/bin/squire simulate heraldry -n 40 --players 3 --bots greedy,random --seed 2026 \
	  --set promotion_cost=12 --played-from 2026-10-02T18:00:00Z --out data/samples/heraldry --jobs 1
	rm -rf data/samples/paladins
	for players in 1 2 3 4; do \
	  $(VENV)/bin/squire simulate paladins -n 30 --players $$players --bots greedy,random \
	    --seed 2026 --played-from 2026-09-03T18:00:00Z --out data/samples/paladins --jobs 2 || exit 1; \
	done
	rm -rf data/samples/albus-academy
	for players in 2 3 4; do \
	  $(VENV)/bin/squire simulate albus-academy -n 50 --players $$players --bots greedy,random \
	    --seed 2026 --played-from 2026-09-04T18:00:00Z --out data/samples/albus-academy --jobs 1 || exit 1; \
	done
	$(VENV)/bin/squire simulate albus-academy -n 30 --players 3 --bots greedy --seed 2026 \
	  --set final_turns=one_each --played-from 2026-10-04T18:00:00Z --out data/samples/albus-academy --jobs 1
