# kubectl-preempt - see README.md.
#   make            build bin/kubectl-preempt
#   make demo       build, then analyse examples/cluster.json
#   make test       build, then run every test (unit, cases, bats), and
#                   the whole suite again under ASan+UBSan, replays the
#                   fuzz corpora and crashers (libFuzzer), runs each fuzz
#                   target for FUZZ_SHORT_SECONDS (10 s), and runs
#                   valgrind memcheck on the examples, and the
#                   mutation run (tests/mutation/run: hand-picked mutants
#                   of core/sched and core/whatif, each killed by a test)
#   make selfcheck  SELFCHECK_SEEDS=N: core/ built with -DKP_SELFCHECK
#                   into build-selfcheck/, then the incremental-state
#                   self-check over N random clusters (tests/selfcheck/)
#   make install    PREFIX=/usr/local: binary, man page, completions
#   make dist, make deb  release tarball + krew manifest, Debian package
#                   (packaging/Makefile.inc)
# Missing Debian packages are installed first (apt-get; needs root).

CC      ?= cc
PREFIX  ?= /usr/local
BUILD   ?= build
CFLAGS  ?= -O2 -g
WARN     = -std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE
LIBS     = -lcjson -lcurl -lyaml -lm -lpthread
SAN      = -fsanitize=address,undefined -fno-omit-frame-pointer \
           -fno-sanitize-recover=undefined

# What building needs (make, make demo), what the tests and the release
# need besides (make test, make dist, make deb), and what the linux/arm64
# cross-build and its qemu test need (make test installs them where it
# can; where they are missing that test skips, saying so).
DEB_PKGS   = libcjson-dev libcurl4-openssl-dev libyaml-dev
TEST_PKGS  = bats bats-support bats-assert openssl python3 jq clang \
             valgrind dpkg-dev
CROSS_PKGS = gcc-aarch64-linux-gnu qemu-user debootstrap

# core/ by concern (README "Layout"); every folder is on the include path,
# as libgit2 puts src/util and src/libgit2 on its own, so headers are
# included by their base name.  core/sched/plugins/ has one folder per
# plugin (upstream's plugins/<plugin>/), found here rather than listed.
PLUGIN_DIRS = $(patsubst %/,%,$(sort $(dir \
                  $(wildcard core/sched/plugins/*/*.[ch]))))
CORE_DIRS = core core/util core/api core/cluster core/load core/live \
            core/sched core/sched/framework core/sched/plugins $(PLUGIN_DIRS) \
            core/sched/preemption \
            core/config core/whatif core/report/model core/report \
            core/explain
KP_INC   = $(CORE_DIRS:%=-I%)
CORE_SRC = $(sort $(foreach d,$(CORE_DIRS),$(wildcard $(d)/*.c)))
CORE_HDR = $(foreach d,$(CORE_DIRS),$(wildcard $(d)/*.h))
CMD_SRC  = $(sort $(wildcard cmd/*.c))
UNIT_SRC = $(sort $(wildcard tests/unit/*/test_*.c))
CORE_OBJ = $(CORE_SRC:%.c=$(BUILD)/%.o)
CMD_OBJ  = $(CMD_SRC:%.c=$(BUILD)/%.o)
UNIT_BIN = $(addprefix $(BUILD)/tests/,$(basename $(notdir $(UNIT_SRC))))
vpath test_%.c $(sort $(dir $(UNIT_SRC)))
BIN      = bin/kubectl-preempt

.PHONY: all deps test-deps cross-arm64 dist-arm64 krew-manifest demo test test-one asan install uninstall clean dist deb \
        check-style bench fuzz fuzz-replay fuzz-short selfcheck \
        selfcheck-build

all: $(BIN) bin/kubectl_complete-preempt

# $(call install_missing,PACKAGES): apt-get install those not installed
install_missing = missing=""; for p in $(1); do \
	    dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	    echo "installing:$$missing"; \
	    if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	    $$SUDO apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq \
	        $$missing >/dev/null; \
	else true; fi

deps:
	@$(call install_missing,$(DEB_PKGS)) || exit 1

test-deps: deps
	@$(call install_missing,$(TEST_PKGS)) || exit 1
	@$(call install_missing,$(CROSS_PKGS)) || \
	    echo "not installed: $(CROSS_PKGS): the linux/arm64 test will skip"

$(BUILD)/%.o: %.c $(CORE_HDR) $(wildcard cmd/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) $(KP_INC) -c $< -o $@

$(BUILD)/libkp.a: $(CORE_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/kubectl-preempt: $(CMD_OBJ) $(BUILD)/libkp.a
	$(CC) $(CFLAGS) -o $@ $(CMD_OBJ) $(BUILD)/libkp.a $(LIBS)

$(BIN): deps $(BUILD)/kubectl-preempt
	@mkdir -p bin
	cp $(BUILD)/kubectl-preempt $@

# kubectl's completion of "kubectl preempt" runs it from beside the binary
bin/kubectl_complete-preempt: completions/kubectl_complete-preempt
	@mkdir -p bin
	cp $< $@

$(BUILD)/tests/test_%: test_%.c $(BUILD)/libkp.a $(wildcard tests/unit/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) $(KP_INC) -Itests/unit -o $@ $< \
	    $(BUILD)/libkp.a $(LIBS)

# the option parser's table test links cmd/options.o (and the command
# around it, cmd/command.o, and its --help, cmd/help.o)
OPT_OBJ  = $(BUILD)/cmd/options.o $(BUILD)/cmd/command.o $(BUILD)/cmd/help.o
$(BUILD)/tests/test_options: tests/unit/cmd/test_options.c \
                             $(OPT_OBJ) $(BUILD)/libkp.a \
                             $(wildcard tests/unit/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) $(KP_INC) -Itests/unit -o $@ $< \
	    $(OPT_OBJ) $(BUILD)/libkp.a $(LIBS)

$(BUILD)/tests/run_cases: tests/run_cases.c $(OPT_OBJ) \
                          $(BUILD)/libkp.a
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) $(KP_INC) -o $@ $< $(OPT_OBJ) \
	    $(BUILD)/libkp.a $(LIBS)

# The self-check driver (tests/selfcheck/README.md), linked against the
# libkp.a of whatever BUILD it is made in; selfcheck-build makes it in
# $(BUILD)-selfcheck with core/ compiled with -DKP_SELFCHECK (and the
# sanitizers when CFLAGS has them: the ASan pass of `make test`).
SELFCHECK_SEEDS ?= 2000
SELFCHECK_SRC    = tests/selfcheck/selfcheck.c tests/selfcheck/gen.c
SELFCHECK_CFLAGS = -O1 -g $(if $(findstring sanitize,$(CFLAGS)),$(SAN)) \
                   -DKP_SELFCHECK

$(BUILD)/tests/selfcheck: $(SELFCHECK_SRC) tests/selfcheck/gen.h \
                          $(BUILD)/libkp.a
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) $(KP_INC) -o $@ $(SELFCHECK_SRC) \
	    $(BUILD)/libkp.a $(LIBS)

selfcheck-build:
	@$(MAKE) --no-print-directory BUILD=$(BUILD)-selfcheck \
	    CFLAGS="$(SELFCHECK_CFLAGS)" $(BUILD)-selfcheck/tests/selfcheck

selfcheck: deps
	@$(MAKE) --no-print-directory selfcheck-build BUILD=build
	build-selfcheck/tests/selfcheck $(SELFCHECK_SEEDS)

demo: all
	./$(BIN) -f examples/cluster.json -o wide

# One pass of the suite against $(BUILD) (used twice by `make test`).
test-one: check-style $(BUILD)/kubectl-preempt $(UNIT_BIN) \
          $(BUILD)/tests/run_cases selfcheck-build
	@tests/run $(BUILD)

test: test-deps
	@$(MAKE) --no-print-directory $(BIN)
	@$(MAKE) --no-print-directory test-one BUILD=build >build-test.log 2>&1; \
	    s1=$$?; tail -n +1 build-test.log | grep -v '^make' ; \
	$(MAKE) --no-print-directory test-one BUILD=build-asan \
	    CFLAGS="-O1 -g $(SAN)" CC=clang >build-asan.log 2>&1; s2=$$?; \
	    sed 's/^/[asan] /' build-asan.log | grep -v '^\[asan\] make'; \
	{ $(MAKE) --no-print-directory fuzz-replay; r=$$?; \
	    $(MAKE) --no-print-directory fuzz-short; f=$$?; \
	    [ $$r = 0 ] && [ $$f = 0 ]; \
	    } >build-fuzz.log 2>&1; s3=$$?; \
	    grep -E '^(ok|not ok) ' build-fuzz.log | sed 's/^/[fuzz] /'; \
	    echo "$$(grep -c '^ok ' build-fuzz.log) passed, $$(grep -c \
	        '^not ok ' build-fuzz.log) failed" >>build-fuzz.log; \
	tests/valgrind build/kubectl-preempt >build-valgrind.log 2>&1; s4=$$?; \
	    sed 's/^/[valgrind] /' build-valgrind.log; \
	tests/tsan >build-tsan.log 2>&1; s6=$$?; \
	    sed 's/^/[tsan] /' build-tsan.log; \
	tests/mutation/run >build-mutation.log 2>&1; s5=$$?; \
	    grep -E '^(ok|not ok) |^#   ' build-mutation.log | \
	    sed 's/^/[mutation] /'; \
	tests/summarize build-test.log build-asan.log build-fuzz.log \
	    build-valgrind.log build-tsan.log build-mutation.log; \
	[ $$s1 = 0 ] && [ $$s2 = 0 ] && [ $$s3 = 0 ] && [ $$s4 = 0 ] && \
	    [ $$s5 = 0 ] && [ $$s6 = 0 ]

asan:
	$(MAKE) test-one BUILD=build-asan CFLAGS="-O1 -g $(SAN)" CC=clang

install: $(BIN) bin/kubectl_complete-preempt
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/kubectl-preempt
	install -m 644 man/kubectl-preempt.1 \
	    $(DESTDIR)$(PREFIX)/share/man/man1/kubectl-preempt.1
	if [ -f completions/kubectl_complete-preempt ]; then \
	    install -m 755 completions/kubectl_complete-preempt \
	        $(DESTDIR)$(PREFIX)/bin/kubectl_complete-preempt; fi
	if [ -f completions/kubectl-preempt.bash ]; then \
	    install -d $(DESTDIR)$(PREFIX)/share/bash-completion/completions \
	        $(DESTDIR)$(PREFIX)/share/zsh/site-functions \
	        $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d && \
	    install -m 644 completions/kubectl-preempt.bash \
	        $(DESTDIR)$(PREFIX)/share/bash-completion/completions/kubectl-preempt && \
	    install -m 644 completions/_kubectl-preempt \
	        $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_kubectl-preempt && \
	    install -m 644 completions/kubectl-preempt.fish \
	        $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/kubectl-preempt.fish; \
	fi

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/kubectl-preempt \
	    $(DESTDIR)$(PREFIX)/bin/kubectl_complete-preempt \
	    $(DESTDIR)$(PREFIX)/share/man/man1/kubectl-preempt.1

check-style:
	@! grep -nE '\b(atoi|atol|sprintf|strcpy|strcat|strtok)\(' \
	    $(CORE_SRC) $(CMD_SRC) || (echo "banned function" && false)
	@! grep -n '//' $(CORE_SRC) $(CMD_SRC) | grep -v 'http' | \
	    grep -v '"[^"]*//' || (echo "// comment" && false)

VERSION = $(shell sed -n 's/^\#define KP_VERSION "\(.*\)"/\1/p' core/kp.h)
DIST    = kubectl-preempt-$(VERSION)

clean:
	rm -rf build build-asan build-fuzz bin dist build-dist build-test.log \
	    build-selfcheck build-asan-selfcheck \
	    build-asan.log build-fuzz.log build-valgrind.log \
	    build-tsan build-tsan.log build-mutation.log

include packaging/Makefile.inc
include bench/Makefile.inc
include tests/fuzz/Makefile.inc
