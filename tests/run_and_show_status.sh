#!/bin/sh
# Runs a command and prints its output followed by "exit status N", so a CTest
# PASS_REGULAR_EXPRESSION can check the message and the status together.
"$@" 2>&1
echo "exit status $?"
