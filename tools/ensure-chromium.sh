#!/usr/bin/env bash
# The browser tests need Debian's Chromium (and CJK fonts for ko/zh screenshots). Browser
# downloads cannot work on these machines, so install the distribution's package when missing.
set -euo pipefail
if [ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ] && fc-list 2>/dev/null | grep -qi "noto sans cjk"; then
  exit 0
fi
echo "Installing Debian's chromium and fonts-noto-cjk for the browser tests…"
SUDO=""
[ "$(id -u)" = "0" ] || SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium fonts-noto-cjk >/dev/null
