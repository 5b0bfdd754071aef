# Roster — everything a fresh Debian/Ubuntu machine needs is behind `make run` and `make test`.
SHELL := /bin/bash
SWIFT ?= swift
CONFIG ?= debug
BIN := .build/$(CONFIG)
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# Debian packages the build and the tests need, each with the check that says it is there.
APT_PACKAGES := pkg-config libncurses-dev libsqlite3-dev tmux
.PHONY: all deps build run test clean

all: build

deps:
	@missing=""; \
	command -v pkg-config >/dev/null || missing="$$missing pkg-config"; \
	pkg-config --exists ncursesw 2>/dev/null || missing="$$missing libncurses-dev"; \
	pkg-config --exists sqlite3 2>/dev/null || missing="$$missing libsqlite3-dev"; \
	command -v tmux >/dev/null || missing="$$missing tmux"; \
	if [ -n "$$missing" ]; then \
	  echo "Installing:$$missing"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi
	@command -v $(SWIFT) >/dev/null || { echo "swift is not on PATH: install Swift 6 from https://swift.org/install"; exit 1; }

build: deps
	$(SWIFT) build -c $(CONFIG)

run: build
	$(BIN)/roster $(ARGS)

# Builds every product first: the end-to-end tests drive the real binaries.
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --parallel

clean:
	rm -rf .build
