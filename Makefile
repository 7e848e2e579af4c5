# Kortmatte: `make run` serves the app with demo data; `make test` runs every test.
# Both set up everything they need first (virtual environment, packages, catalogues).

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
HOST   ?= 127.0.0.1
PORT   ?= 8000
ALLOW_SIGNUP ?= 1
STAMP  := $(VENV)/.installed

.PHONY: run test lint setup catalogues translations system-packages audio vendor bench simulate clean

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

# The recorded speech for devices without a voice of their own (docs/read-aloud.md): a text recorded before is kept,
# so only the first build takes long (about a quarter of an hour for the four languages on two cores). Without
# espeak-ng and opusenc it says so and the app reads aloud only with the devices' own voices
# (`make system-packages` installs them).
audio: setup
	$(BIN)/kortmatte audio build

# Teachers may sign up on the local demo server (ALLOW_SIGNUP is off everywhere else unless set).
# `kortmatte demo` prints the demo teacher's sign-in and the class codes, also when the demo exists.
# `make run` serves at once and records the speech beside it at low priority (instance/audio-build.log): the server
# reads each language's recordings when its build has finished.
run: setup
	$(BIN)/kortmatte db upgrade
	$(BIN)/kortmatte demo
	mkdir -p instance && (nice -n 10 $(BIN)/kortmatte audio build > instance/audio-build.log 2>&1 &)
	ALLOW_SIGNUP=$(ALLOW_SIGNUP) $(BIN)/kortmatte serve --host $(HOST) --port $(PORT)

# The code is ruff-formatted and lint-clean (pyproject.toml [tool.ruff]); `make lint` alone, before committing.
lint: $(STAMP)
	$(BIN)/ruff format --check .
	$(BIN)/ruff check .

test: setup system-packages lint
	$(BIN)/pytest

bench: setup
	$(BIN)/python bench/lesson_step.py
	$(BIN)/python bench/answers.py --hostile
	$(BIN)/python bench/deck_check.py
	$(BIN)/python bench/simulate_games.py
	$(BIN)/python bench/dashboard.py
	$(BIN)/python bench/pace.py

# How many deliberate one-line breaks the tests catch, per module (docs/testing.md); not part of `make test`.
.PHONY: breaks
breaks: setup
	$(BIN)/python scripts/breaks.py $(BREAKS_ARGS)

# A school over real HTTP at three sizes, against a bare Flask app in alternating windows (bench/load.py,
# docs/deployment.md); one table. LOAD_ARGS=--json for one JSON object, --database postgres, --kill.
.PHONY: bench-load
bench-load: setup
	$(BIN)/python bench/load.py --pupils 150,300,1000 $(LOAD_ARGS)

# The skill model against pyBKT and PFA (bench/skill_model.py, docs/skill-model.md). pyBKT,
# scikit-learn and their numpy and pandas live in their own .venv-bench: the app needs none of them.
# BENCH_ARGS=--quick for a run under a minute, --json for one JSON object.
BENCH_VENV  := .venv-bench
BENCH_STAMP := $(BENCH_VENV)/.installed

$(BENCH_STAMP): pyproject.toml
	$(PYTHON) -m venv $(BENCH_VENV)
	$(BENCH_VENV)/bin/pip install --quiet --upgrade pip
	$(BENCH_VENV)/bin/pip install --quiet pyBKT==1.4.3 'numpy<2' 'scikit-learn<1.4' 'pandas<2.2' -e .
	touch $(BENCH_STAMP)

.PHONY: bench-skills
bench-skills: $(BENCH_STAMP)
	$(BENCH_VENV)/bin/python bench/skill_model.py $(BENCH_ARGS)

vendor:
	scripts/vendor.sh

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis translations/*/LC_MESSAGES/*.mo
