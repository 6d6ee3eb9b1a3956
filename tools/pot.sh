#!/bin/sh
# Write the catalogue template (default locales/tapis.pot) from the sources:
# every _(), N_(), P_() and C_() of src/, with the TRANSLATORS comments.
# `make pot` runs it; tools/po-missing.sh checks the template against it.
set -eu
cd "$(dirname "$0")/.."
out=${1:-locales/tapis.pot}
xgettext --from-code=UTF-8 -k_ -kN_ -kP_:1,2 -kC_:1c,2 -ki18n_tr:2 -ki18n_ntr:2,3 -ki18n_ptr:2c,3 -c'TRANSLATORS' --package-name=tapis \
         -o "$out" $(find src -name '*.c' | LC_ALL=C sort)
