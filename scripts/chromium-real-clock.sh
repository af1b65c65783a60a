#!/bin/sh
# Chromium outside libfaketime, for running the suite under Debian's faketime (docs/clock.md): under its
# LD_PRELOAD the headless shell crashes (Trace/breakpoint trap) and the whole browser crawls, so the browser
# keeps the real clock while Node and PostgreSQL run at the faked date.
unset LD_PRELOAD FAKETIME FAKETIME_SKIP_CMDS FAKETIME_ONLY_CMDS FAKETIME_DONT_FAKE_MONOTONIC
exec /usr/lib/chromium/chromium-headless-shell "$@"
