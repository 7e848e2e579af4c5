# Kortmatte: `make run` serves the app with demo data; `make test` runs every test.
# Both set up everything they need first (virtual environment, packages, catalogues).

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
HOST   ?= 127.0.0.1
PORT   ?= 8000
ALLOW_SIGNUP ?= 1
STAMP  := $(VENV)/.installed

.PHONY: run test setup catalogues translations system-packages vendor bench simulate clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

setup: $(STAMP) catalogues

# Compile the .po catalogues into the .mo files the app reads.
catalogues: $(STAMP)
	$(BIN)/kortmatte i18n compile

# After changing any text: extract it, merge it into the catalogues, then translate the new entries.
translations: $(STAMP)
	$(BIN)/kortmatte i18n extract
	$(BIN)/kortmatte i18n update

system-packages:
	scripts/system-packages.sh

# Teachers may sign up on the local demo server (ALLOW_SIGNUP is off everywhere else unless set).
# `kortmatte demo` prints the demo teacher's sign-in and the class codes, also when the demo exists.
run: setup
	$(BIN)/kortmatte db upgrade
	$(BIN)/kortmatte demo
	ALLOW_SIGNUP=$(ALLOW_SIGNUP) $(BIN)/kortmatte serve --host $(HOST) --port $(PORT)

test: setup system-packages
	$(BIN)/pytest

bench: setup
	$(BIN)/python bench/lesson_step.py
	$(BIN)/python bench/answers.py --hostile
	$(BIN)/python bench/deck_check.py
	$(BIN)/python bench/simulate_games.py
	$(BIN)/python bench/dashboard.py
	$(BIN)/python bench/pace.py

vendor:
	scripts/vendor.sh

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis translations/*/LC_MESSAGES/*.mo
