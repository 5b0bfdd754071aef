# Roster — everything a fresh Debian/Ubuntu machine needs is behind `make run` and `make test`.
SHELL := /bin/bash
SWIFT ?= swift
CONFIG ?= debug
BIN := .build/$(CONFIG)
# Release builds put each function in a section of its own, so that the link can place the code
# a session runs side by side (Package.swift's leanReleaseLink, Config/roster.order). And they
# get a generic type's metadata by calling its accessor, not by demangling its name at run time,
# which checks each generic requirement by scanning every protocol conformance in the binary:
# a quarter of the instructions of a start (docs/benchmarks.md, "Issue 28, eighth pass").
RELEASE := build -c release -Xswiftc -Xfrontend -Xswiftc -function-sections -Xcc -ffunction-sections \
	-Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors
# The Swift driver does not compile a module again when only its flags changed, so a release
# build made with other flags is removed before the next (release-flags, a prerequisite of
# every target that builds release).
RELEASE_FLAGS_FILE := .build/release-flags
# The release roster, linked again when its order file or linker script is newer than it (the
# build does not know the link reads them).
ROSTER_RELEASE = for file in Config/roster.order Config/roster-text.ld; do \
	  [ .build/release/roster -nt $$file ] || rm -f .build/release/roster; done; $(SWIFT) $(RELEASE) --product roster
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# Debian packages the build and the tests need, each with the check that says it is there.
APT_PACKAGES := pkg-config libncurses-dev libsqlite3-dev tmux openssl libldap-dev
.PHONY: all deps ldap-deps postgres-deps build run test test-chaos chaos-run clean check-api check-scim python-venv api-check-tools scim-check-tools bench-server bench-token bench-server-backends bench-scim-filters bench-writes bench-tools bench bench-ldap bench-review screenshots tool-deps scim-peer fuzz test-tsan test-asan order-file release-flags

# Python for the measuring and picture-making scripts: a virtual environment under .build, so
# nothing is installed into the system's Python.
PYTHON_ENV := .build/python
PY := $(PYTHON_ENV)/bin/python3
TUIBENCH ?= ../shared/tools/tuibench.py
# Fonts for every script the demo names use (the screenshots); tool-deps also installs less
# (the bench's baseline), curl and Python with venv when they are missing.
FONT_PACKAGES := fonts-dejavu-core fonts-noto-cjk fonts-noto-core fonts-symbola fonts-noto-color-emoji

all: build

release-flags:
	@[ "$$(cat $(RELEASE_FLAGS_FILE) 2>/dev/null)" = "$(RELEASE)" ] || { rm -rf .build/*/release; \
	  mkdir -p .build && echo "$(RELEASE)" > $(RELEASE_FLAGS_FILE); }

deps:
	@missing=""; \
	command -v pkg-config >/dev/null || missing="$$missing pkg-config"; \
	pkg-config --exists ncursesw 2>/dev/null || missing="$$missing libncurses-dev"; \
	pkg-config --exists sqlite3 2>/dev/null || missing="$$missing libsqlite3-dev"; \
	command -v tmux >/dev/null || missing="$$missing tmux"; \
	command -v openssl >/dev/null || missing="$$missing openssl"; \
	[ -f /usr/include/ldap.h ] || missing="$$missing libldap-dev"; \
	if [ -n "$$missing" ]; then \
	  echo "Installing:$$missing"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi
	@command -v $(SWIFT) >/dev/null || { echo "swift is not on PATH: install Swift 6 from https://swift.org/install"; exit 1; }

build: deps $(if $(filter release,$(CONFIG)),release-flags)
ifeq ($(CONFIG),release)
	$(ROSTER_RELEASE)
	$(SWIFT) $(RELEASE) --product roster-server
else
	$(SWIFT) build
endif

run: build
	$(BIN)/roster $(ARGS)

# Builds every product first: the end-to-end tests drive the real binaries.
# PyPI's scim2-server in its own virtual environment under .build, for the SCIM interop tests.
SCIM_PEER := .build/scim-peer
scim-peer: deps
	@python3 -c 'import ensurepip, venv' 2>/dev/null || { echo "Installing: python3-venv"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3 python3-venv; }
	@[ -x $(SCIM_PEER)/bin/python3 ] || python3 -m venv $(SCIM_PEER)
	@$(SCIM_PEER)/bin/python3 -c 'import scim2_server' 2>/dev/null || \
	  $(SCIM_PEER)/bin/python3 -m pip install --quiet --disable-pip-version-check -r scripts/scim/requirements.txt

# OpenLDAP's server and tools and Samba's AD DC, for the throwaway servers the LDAP interop
# tests start (scripts/lib/slapd.sh, scripts/lib/samba.sh) in folders of their own. The
# packages' own services are never used: they are stopped when the install started them.
ldap-deps:
	@command -v slapd >/dev/null && command -v ldapsearch >/dev/null && command -v slapadd >/dev/null \
	  && command -v samba >/dev/null && command -v samba-tool >/dev/null || { \
	  echo "Installing: slapd ldap-utils samba winbind"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slapd ldap-utils samba winbind; \
	  for service in slapd samba-ad-dc smbd nmbd winbind; do \
	    if command -v systemctl >/dev/null && systemctl is-active --quiet $$service 2>/dev/null; then $(SUDO) systemctl stop $$service; \
	    elif [ -x /etc/init.d/$$service ]; then $(SUDO) /etc/init.d/$$service stop >/dev/null 2>&1 || true; fi; \
	  done; }

# Debian's PostgreSQL server programs (initdb, pg_ctl), for the throwaway clusters the tests
# and benches start (scripts/lib/postgres.sh) to run the store against PostgreSQL too.
postgres-deps:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { echo "Installing: postgresql"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql; }
	@# The package starts a cluster of its own as a service; the tests never use it.
	@scripts/lib/postgres.sh bin >/dev/null

test: deps scim-peer postgres-deps ldap-deps scim-check-tools api-check-tools
	$(SWIFT) build --build-tests
	@# A crash in Foundation's Process.run() (an upstream bug, see the script) runs once more.
	scripts/swift-test-once-more-on-upstream-crash.sh $(SWIFT) test --skip-build --parallel --skip 'Transport(AgainstServer)?Tests' --skip ChaosTests
	@# The transport's deadlines and cancels on their own: with every other suite running on two
	@# cores (PostgreSQL's servers included), a deadline timer can fire late, and these tests
	@# judge the timing.
	scripts/swift-test-once-more-on-upstream-crash.sh $(SWIFT) test --skip-build --filter 'Transport(AgainstServer)?Tests'
	@# The chaos scenarios (docs/testing.md) alone too: they time keys against a slow server.
	$(MAKE) --no-print-directory chaos-run
	@# Peers nobody here wrote, against the real server: two SCIM checkers on each backend, and
	@# schemathesis against the OpenAPI document (fewer examples than `make check-api`'s 100,
	@# to keep `make test` short; every operation and check still runs).
	BIN=.build/debug VENV=$(SCIM_CHECK) scripts/check-scim.sh
	BIN=.build/debug VENV=$(SCIM_CHECK) DATABASE=postgres scripts/check-scim.sh
	BIN=.build/debug VENV=$(API_CHECK) MAX_EXAMPLES=30 scripts/check-api.sh

# Faults in the real binaries in tmux (Tests/EndToEndTests/Chaos): roster-server killed and
# restarted mid-scroll, mid-save and mid-bulk-run, a slow server under keys, two windows on one
# user, a terminal resized every 50 ms, oversized and cut requests. `make test` runs them too,
# after every other suite.
test-chaos: deps postgres-deps
	$(SWIFT) build --build-tests
	$(MAKE) --no-print-directory chaos-run

chaos-run:
	scripts/swift-test-once-more-on-upstream-crash.sh $(SWIFT) test --skip-build --filter ChaosTests

# libFuzzer over every parser that reads bytes from outside, with AddressSanitizer
# (docs/testing.md, "Fuzzing"): its own scratch path, as the sanitizer flags rebuild everything.
# FUZZ_SECONDS a target; FUZZ_TARGETS to run only some (the folders of fuzz/corpus).
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?=
fuzz: deps
	$(SWIFT) build --scratch-path .build/fuzz --product roster-fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING
	FUZZ_SECONDS=$(FUZZ_SECONDS) scripts/fuzz.sh $(FUZZ_TARGETS)

# The suites under ThreadSanitizer (docs/testing.md, "Sanitizers"): not part of `make test`
# (a full build of its own, and every test several times slower). TSAN_FILTER runs some suites.
TSAN_FILTER ?=
# The sanitizer makes everything several times slower: the tests' waits and time bounds are
# stretched by this factor (ROSTER_TEST_TIME_SCALE, Sources/RosterKitTestSupport/TestTimeScale.swift).
TSAN_TIME_SCALE ?= 5
# At most this many tests at once (swift-testing's SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH):
# every test at once, each several times slower, starved PostgreSQL connections past their 30 s.
TSAN_WIDTH ?= 4
# The end-to-end suites run too, with the instrumented roster and roster-server in tmux; not
# the chaos scenarios, which time keys against a slow server.
TSAN_SKIP ?= ChaosTests
test-tsan: deps scim-peer postgres-deps ldap-deps
	$(SWIFT) build --build-tests --scratch-path .build/tsan --sanitize=thread
	@# SWIFT_BACKTRACE off: the Swift runtime's crash reporter forks, and TSan aborts in the child
	@# (CHECK failed: tsan_rtl.cpp), so a crash would show no stack; TSan's own handler prints it.
	@# Reports go to files (log_path), the roster-server processes the tests start included.
	rm -rf .build/tsan/reports && mkdir -p .build/tsan/reports
	SWIFT_BACKTRACE=enable=no ROSTER_TEST_TIME_SCALE=$(TSAN_TIME_SCALE) SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$(TSAN_WIDTH) \
	  TSAN_OPTIONS="second_deadlock_stack=1 suppressions=$(CURDIR)/scripts/tsan/suppressions.txt log_path=$(CURDIR)/.build/tsan/reports/tsan" scripts/swift-test-once-more-on-upstream-crash.sh \
	  $(SWIFT) test --skip-build --scratch-path .build/tsan --sanitize=thread $(if $(TSAN_FILTER),--filter '$(TSAN_FILTER)') $(if $(TSAN_SKIP),--skip '$(TSAN_SKIP)'); \
	  status=$$?; scripts/sanitizer-reports.sh .build/tsan/reports && exit $$status

# AddressSanitizer over the C target and the parsers (docs/testing.md, "Sanitizers"):
# --sanitize=address instruments the C targets too (CTerminalGuard, which runs only in the
# real roster in a terminal: the end-to-end suites that start it). ASAN_FILTER picks suites.
ASAN_FILTER ?= RosterTUITests|RosterCSVTests|RosterKitTests|RosterServerTests\.(SCIMFilterParserTests|SCIMFilterPropertyTests|SCIMPatchTests|UserJSONTests|ServerWirePropertyTests|UnicodeTests|ErrorStatusTests)|EndToEndTests\.(EndToEndTests|TerminalKeysEndToEndTests)
ASAN_TIME_SCALE ?= 3
# Leak checking off: at exit each roster-server and roster leaves its NIOThreadPool's queue and
# the test process some decoded values; LeakSanitizer reports those, not memory errors.
ASAN_ENV = SWIFT_BACKTRACE=enable=no ROSTER_TEST_TIME_SCALE=$(ASAN_TIME_SCALE) \
	  ASAN_OPTIONS="detect_leaks=0 log_path=$(CURDIR)/.build/asan/reports/asan"
ASAN_TEST = scripts/swift-test-once-more-on-upstream-crash.sh $(SWIFT) test --skip-build --scratch-path .build/asan --sanitize=address
test-asan: deps scim-peer postgres-deps ldap-deps
	$(SWIFT) build --build-tests --scratch-path .build/asan --sanitize=address
	rm -rf .build/asan/reports && mkdir -p .build/asan/reports
	@# The transport's deadline and cancel timings alone afterwards, as in make test.
	$(ASAN_ENV) $(ASAN_TEST) --filter '$(ASAN_FILTER)' --skip 'Transport(AgainstServer)?Tests'; status=$$?; \
	  $(ASAN_ENV) $(ASAN_TEST) --filter 'RosterKitTests\.TransportTests' || status=1; \
	  scripts/sanitizer-reports.sh .build/asan/reports && exit $$status

# Python virtual environments under .build for the checkers, installed from PyPI when missing.
python-venv:
	@python3 -c 'import ensurepip, venv' 2>/dev/null || { echo "Installing: python3-venv"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3 python3-venv; }

API_CHECK := .build/api-check
api-check-tools: python-venv
	@[ -x $(API_CHECK)/bin/python3 ] || python3 -m venv $(API_CHECK)
	@[ -x $(API_CHECK)/bin/schemathesis ] || \
	  $(API_CHECK)/bin/python3 -m pip install --quiet --disable-pip-version-check -r scripts/requirements-check-api.txt

SCIM_CHECK := .build/scim-check
scim-check-tools: python-venv
	@[ -x $(SCIM_CHECK)/bin/python3 ] || python3 -m venv $(SCIM_CHECK)
	@[ -x $(SCIM_CHECK)/bin/scim2 ] && [ -x $(SCIM_CHECK)/bin/scim-sanity ] || \
	  $(SCIM_CHECK)/bin/python3 -m pip install --quiet --disable-pip-version-check -r scripts/scim/requirements-check.txt

# The API against its own OpenAPI document: schemathesis (PyPI) with every check, on a
# throwaway database (also run by `test`, with fewer examples).
check-api: deps api-check-tools
	$(SWIFT) build --product roster-server
	BIN=.build/debug VENV=$(API_CHECK) scripts/check-api.sh

# The SCIM endpoint against two conformance checkers from PyPI (scim2-tester through scim2-cli,
# and scim-sanity), installed in their own virtual environment under .build, on a throwaway
# database: a SQLite file, or with DATABASE=postgres a throwaway PostgreSQL cluster (`test`
# runs both).
check-scim: deps scim-check-tools $(if $(filter postgres,$(DATABASE)),postgres-deps)
	$(SWIFT) build --product roster-server
	BIN=.build/debug VENV=$(SCIM_CHECK) DATABASE=$(DATABASE) scripts/check-scim.sh

# Release build, $(USERS) demo users (`make bench-server USERS=1000000` for the scale targets),
# wrk against the list, get, search and /health calls and the HTTP floor, the seed time, and the
# APIClient's own rate. Prints the figures and whether the targets are met. DATABASE (default: a
# new SQLite file) is passed to `roster-server --database` as given; DATABASE=postgres starts a
# throwaway PostgreSQL cluster for the run.
USERS ?= 100000
DATABASE ?=
bench-server: bench-tools $(if $(filter postgres,$(DATABASE)),postgres-deps)
	BIN=.build/release BASE_BIN=$(BASE_BIN) USERS=$(USERS) DATABASE=$(DATABASE) scripts/bench-server.sh

# What the token check costs the hot path, alone (bench-server ends with it): the cached first
# page at 8 connections with a named token against BASE_BIN (a folder with a release
# roster-server from before named tokens, e.g. 471fd24), rounds interleaved, medians.
bench-token: bench-tools $(if $(filter postgres,$(DATABASE)),postgres-deps)
	BIN=.build/release BASE_BIN=$(BASE_BIN) USERS=$(USERS) DATABASE=$(DATABASE) scripts/bench-token.sh

# The same bench on SQLite, then on PostgreSQL (a throwaway cluster), and the figures side by side.
bench-server-backends: bench-tools postgres-deps
	BIN=.build/release USERS=$(USERS) scripts/bench-server-backends.sh

# The SCIM filters identity providers send, on SQLite and PostgreSQL, each seeded with $(USERS)
# users, with the build BASE_BIN (a release build of an older commit, optional) measured first
# in the same run.
BASE_BIN ?=
bench-scim-filters: bench-tools postgres-deps
	BIN=.build/release BASE_BIN=$(BASE_BIN) USERS=$(USERS) scripts/bench-scim-filters.sh

# The write path: PUTs on SQLite at 1 and 2 connections, this build alone or against BASE_BIN
# (a folder with another build's release roster-server), alternating rounds.
bench-writes: bench-tools
	BIN=.build/release BASE_BIN=$(BASE_BIN) scripts/bench-writes.sh

# ISO8601Timestamp against FoundationEssentials' ISO8601FormatStyle: parse and format of the same
# 100,000 timestamps, rounds interleaved, medians (docs/benchmarks.md, "Timestamps").
.PHONY: bench-timestamps
bench-timestamps: deps release-flags
	$(SWIFT) $(RELEASE) --product roster-bench
	.build/release/roster-bench --timestamps

bench-tools: deps release-flags
	$(SWIFT) $(RELEASE) --product roster-server
	$(SWIFT) $(RELEASE) --product roster-bench
	@missing=""; \
	command -v wrk >/dev/null || missing="$$missing wrk"; \
	command -v curl >/dev/null || missing="$$missing curl"; \
	command -v bc >/dev/null || missing="$$missing bc"; \
	if [ -n "$$missing" ]; then \
	  echo "Installing:$$missing"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

tool-deps: deps
	@missing=""; \
	command -v less >/dev/null || missing="$$missing less"; \
	command -v sqlite3 >/dev/null || missing="$$missing sqlite3"; \
	[ -x /usr/bin/time ] || missing="$$missing time"; \
	command -v curl >/dev/null || missing="$$missing curl"; \
	python3 -c 'import ensurepip, venv' 2>/dev/null || missing="$$missing python3 python3-venv"; \
	command -v fc-list >/dev/null || missing="$$missing fontconfig"; \
	for package in $(FONT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$package 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing:$$missing"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi
	@[ -x $(PY) ] || python3 -m venv $(PYTHON_ENV)
	@$(PY) -m pip install --quiet --disable-pip-version-check -r scripts/requirements-screenshots.txt -r scripts/requirements-bench.txt

# The PNGs in screenshots/, from the real program in tmux (scripts/screenshots.sh).
screenshots: tool-deps scim-peer ldap-deps
	$(SWIFT) build --product roster
	$(SWIFT) build --product roster-server
	PYTHON=$(PY) BIN=.build/debug scripts/screenshots.sh

# Release build; tuibench measures roster (120x40, 100,000 users) against less on 100,000 lines,
# then roster on slapd with 100,000 people beside roster-server and libldap alone (bench-ldap);
# with BASE_BIN (a folder with another build's release roster) that build is measured beside it.
# Config/roster.order: the functions a session of the release roster runs, seen by valgrind's
# callgrind (scripts/order-file.sh); run it again when the code a session runs has changed much.
order-file: tool-deps ldap-deps release-flags
	@command -v valgrind >/dev/null || { echo "Installing: valgrind"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind; }
	$(ROSTER_RELEASE)
	$(SWIFT) $(RELEASE) --product roster-server
	PYTHON=$(PY) TUIBENCH=$(TUIBENCH) BIN=.build/release scripts/order-file.sh
	$(ROSTER_RELEASE)

bench: tool-deps ldap-deps release-flags
	$(ROSTER_RELEASE)
	$(SWIFT) $(RELEASE) --product roster-server
	$(SWIFT) $(RELEASE) --product roster-bench
	PYTHON=$(PY) TUIBENCH=$(TUIBENCH) BIN=.build/release BASE_BIN=$(BASE_BIN) scripts/bench.sh
	PYTHON=$(PY) TUIBENCH=$(TUIBENCH) BIN=.build/release scripts/bench-ldap.sh
	BIN=.build/release scripts/bench-review.sh

# The access review alone: `roster compare` of 100,000 against 100,000 on two roster-servers
# (wall time, peak memory, the comparison) and its reads beside two CSV exports (scripts/bench-review.sh).
bench-review: tool-deps release-flags
	$(ROSTER_RELEASE)
	$(SWIFT) $(RELEASE) --product roster-server
	$(SWIFT) $(RELEASE) --product roster-bench
	BIN=.build/release scripts/bench-review.sh

# The LDAP part alone: first screen, a search and memory on slapd (100,000 people, seeded with
# slapadd) beside roster-server (100,000 users) and a libldap paged search of the first page.
bench-ldap: tool-deps ldap-deps release-flags
	$(ROSTER_RELEASE)
	$(SWIFT) $(RELEASE) --product roster-server
	PYTHON=$(PY) TUIBENCH=$(TUIBENCH) BIN=.build/release scripts/bench-ldap.sh

clean:
	rm -rf .build
