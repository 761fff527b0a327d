# What the CLI test scripts share (sourced): the failure count, check, and cz.
fails=0
check() { # check NAME COMMAND...: the command must succeed
    local name=$1
    shift
    if "$@"; then
        echo "ok   $name"
    else
        echo "FAIL $name"
        fails=$((fails + 1))
    fi
}
# cz ARGS...: runs $CUZK, stdout in $T/out, stderr in $T/err; the exit status in $rc.
cz() {
    "$CUZK" "$@" >"$T/out" 2>"$T/err"
    rc=$?
}
