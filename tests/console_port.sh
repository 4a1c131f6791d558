# Sourced by the console tests: console_port STDERR PID waits (up to 10 s) until the
# run whose standard error is STDERR names its operator console's port, and prints it;
# if it never does, prints that error, kills PID and exits 1.
console_port() {
  for _ in $(seq 1 100); do
    port=$(sed -n 's/.*operator console on 127.0.0.1:\([0-9]*\).*/\1/p' "$1")
    [ -n "$port" ] && { echo "$port"; return 0; }
    sleep 0.1
  done
  echo "the run named no console port:" >&2
  cat "$1" >&2
  kill "$2"
  exit 1
}
