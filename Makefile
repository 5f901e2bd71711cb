# powercut-rig. `make demo` and `make test` do all set-up on a fresh Debian bookworm machine (root),
# installing only what is missing.
SHELL := /bin/bash
APT_PACKAGES := fuse3 libfuse3-dev pkg-config e2fsprogs xfsprogs util-linux \
	mariadb-server mariadb-client sysbench chromium docker.io debootstrap fio
NODE_BIN := node_modules/.bin
HELPER := faults/helper/pfdisk
COVERAGE_MIN ?= 90

.PHONY: setup apt npm helper compose-plugin build dist typecheck demo test test-fast test-integration test-docker bench clean

setup: apt npm helper compose-plugin

apt:
	@missing=$$(for p in $(APT_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "installing: $$missing"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	fi

npm: node_modules/.package-lock.json

node_modules/.package-lock.json: package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

helper: $(HELPER)

# `docker compose` (docker-compose.yml): Debian trixie's Compose v2 plugin where the CLI has none.
compose-plugin: apt
	@scripts/install-compose-plugin.sh

$(HELPER): $(wildcard faults/helper/*.c faults/helper/*.h) faults/helper/Makefile
	$(MAKE) -C faults/helper

build: setup dist

# The TypeScript alone, to dist/ (the CLI the tests run as users do).
dist: npm
	$(NODE_BIN)/tsc -p tsconfig.json
	@chmod +x dist/rig/cli/main.js

# The sources and test/ (tap runs the tests without checking their types); fails on any type error.
typecheck: npm
	$(NODE_BIN)/tsc -p tsconfig.test.json

# A database finding (exit 1) is what the demo is for: it is in the report, and the demo succeeds.
demo: build
	@node dist/rig/cli/main.js campaign campaigns/quick.yml --out reports/latest; code=$$?; \
	if [ $$code -eq 1 ]; then echo "demo: the campaign found what the report shows (exit 1 from rig campaign): reports/latest/index.html"; exit 0; fi; \
	exit $$code

# Everything: unit, root/FUSE/server integration and docker suites. Ends with "N passed, N failed".
test: build typecheck
	@node dist/rig/cli/main.js cleanup # what a killed earlier run left (only disks whose owner is gone)
	@node scripts/run-tests.mjs --coverage-min $(COVERAGE_MIN)

# The type check, then what needs no root, FUSE, server or Docker.
test-fast: typecheck dist
	@node scripts/run-tests.mjs --fast

# Docker runtime only: starts the rig's own dockerd when none answers, builds the offline images;
# the compose test needs the Compose plugin.
test-docker: npm compose-plugin
	@node scripts/run-tests.mjs --coverage-min 0 $$(find test -name '*.docker.test.ts' | sort)

bench: build
	node dist/bench/disk.js
	node dist/bench/profile.js
	node dist/bench/report.js
	node dist/bench/explore.js

clean:
	rm -rf dist .tap coverage
	$(MAKE) -C faults/helper clean
