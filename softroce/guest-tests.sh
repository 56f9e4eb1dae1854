#!/usr/bin/env bash
# Runs inside the Soft-RoCE guest (softroce/image/init starts it once rxe0 is ACTIVE); never on the host.
#
# Environment (from target/softroce/guest.env, which softroce/run writes; paths are the host's, mounted at the same
# place in the guest):
#   JAVA_HOME                  the host's JDK 25
#   SOFTROCE_REPO              the repository (read-only)
#   SOFTROCE_OUT               a writable directory shared with the host (target/softroce/guest)
#   SOFTROCE_JUNIT_JAR         junit-platform-console-standalone
#   SOFTROCE_CORE_TEST_CP      file: rdma-reactive-core's test class path (one line, ':'-separated)
#   SOFTROCE_SAMPLES_CP        file: the samples module's runtime class path (may be absent)
#   SOFTROCE_SKIP_SAMPLE=1     skip the ping-pong sample over verbs
#   SOFTROCE_PERF_CP           the perf module's class path file (the two-node comparison; with SOFTROCE_PERF=1
#                              also the comparison on rxe0)
#   SOFTROCE_ONLY              a comma-separated list of the parts to run (perftest, smoke, junit, sample, spi,
#                              two-node); unset or empty runs them all
#
# Every check prints one line the host counts:
#   softroce-check: NAME PASS|FAIL|SKIP [counts=PASSED/FAILED] DETAIL
# A check without counts= counts as one; the JUnit check carries the launcher's own counts; SKIP is shown, not
# counted.
set -uo pipefail

JAVA=$JAVA_HOME/bin/java
# Under TCG compiling is what costs: C1 only and the serial collector start JVMs faster (SOFTROCE_GUEST_JVM_OPTS).
read -r -a TCG_FLAGS <<<"${SOFTROCE_GUEST_JVM_OPTS--XX:TieredStopAtLevel=1 -XX:+UseSerialGC}"
# A JVM that dies leaves its hs_err file where the host can read it after the guest is gone. The peer JVMs that the
# demos and tests start inherit these flags (test-support's ChildJvmLauncher), TCG_FLAGS and this one included.
JVM_FLAGS=(--enable-native-access=ALL-UNNAMED --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -Xmx512m
  "${TCG_FLAGS[@]}" "-XX:ErrorFile=$SOFTROCE_OUT/hs_err_pid%p.log")
failures=0

check() { # NAME PASS|FAIL DETAIL...
  local name=$1 result=$2
  shift 2
  echo "softroce-check: $name $result $*"
  [ "$result" = FAIL ] && failures=$((failures + 1))
  return 0
}
section() { echo; echo "softroce: ==== $* ($(cut -d' ' -f1 /proc/uptime) s since boot)"; }
wanted() { # PART: whether SOFTROCE_ONLY asks for it (everything when it is unset or empty)
  [ -z "${SOFTROCE_ONLY:-}" ] && return 0
  case ",$SOFTROCE_ONLY," in
    *",$1,"*) return 0 ;;
    *) echo "softroce: SOFTROCE_ONLY=$SOFTROCE_ONLY: not running $1"; return 1 ;;
  esac
}

# The IPv4 address of the netdev under rxe0: what RoCE v2 (GID index 1) and the verbs provider use.
netdev=$(rdma link show rxe0/1 | sed -n 's/.* netdev \([^ ]*\).*/\1/p')
RR_VERBS_HOST=$(ip -4 -o addr show dev "${netdev:-eth0}" | awk '{ split($4, a, "/"); print a[1]; exit }')
export RR_VERBS_HOST
echo "softroce: rxe0 on ${netdev:-?}, RR_VERBS_HOST=$RR_VERBS_HOST, $(nproc) vCPUs, $(free -m | awk '/Mem:/ { print $2 }') MB"
ulimit -l unlimited # no limit on registered memory (init sets it too)
# What rdma-core's udev rules do on an installed system (the guest has no udev): any user may open the verbs and
# connection-manager devices, so that VerbsLockedMemoryLimitTest can run a JVM as an unprivileged user under a real
# locked-memory limit.
chmod 0666 /dev/infiniband/uverbs* /dev/infiniband/rdma_cm 2>/dev/null
cd "$SOFTROCE_REPO" || exit 1

# A JVM killed in JIT-compiled JDK code (SIGILL once, SIGSEGV once, both in C1-compiled class-file code of the SPI
# ping-pong's pong JVM a few seconds after it started, before it reached a verbs device). Both times that JVM ran
# with the JVM's default flags, tiered up to C2, because the demo did not pass its own flags on; under qemu's
# multi-threaded TCG, code the JIT patches while another vCPU runs it is what such crashes point at. Every guest JVM
# now runs with TCG_FLAGS (peers inherit them); should one still die that way, its check runs once more and says so.
emulator_crash() {
  grep -q 'A fatal error has been detected by the Java Runtime Environment' "$1" \
    && grep -qE 'SIGILL|SIGSEGV' "$1" && grep -qE '^(  \[[a-z]+\] )?# J [0-9]+ c[12] .*java\.base@' "$1"
}

# ---------------------------------------------------------------------------------------------------- perftest
if wanted perftest; then
  section "perftest ib_send_lat on rxe0"
  iterations=2000
  port=18515
  # One server/client pair: sets status, typical, p99, p999. The server waits for one client; both are bounded.
  send_lat() { # SIZE
    local size=$1 out=/tmp/ib_send_lat-$1 server client_status server_status table
    port=$((port + 1))
    timeout 60 ib_send_lat -d rxe0 -x 1 -F -s "$size" -n $iterations -p $port >"$out.server" 2>&1 &
    server=$!
    # connect only once the server listens on its TCP port (its out-of-band exchange), or has died
    for _ in $(seq 300); do
      [ -n "$(ss -Hltn "sport = :$port")" ] || ! kill -0 $server 2>/dev/null && break
      sleep 0.1
    done
    timeout 60 ib_send_lat -d rxe0 -x 1 -F -s "$size" -n $iterations -p $port "$RR_VERBS_HOST" >"$out.client" 2>&1
    client_status=$?
    wait $server
    server_status=$?
    # the result table: the header line and the data line below it
    table=$(grep -E '^[[:space:]]*(#bytes|[0-9]+[[:space:]]+[0-9]+[[:space:]])' "$out.client")
    echo "$table" | sed 's/^/softroce-perftest: /'
    # perftest turns TSC cycles into microseconds with a clock rate it fits over a short sample; when the host is
    # busy the fit fails and every figure is inf/nan, though the traffic itself completed
    grep -iE 'warning|conflicting|correlation|mhz' "$out.client" | sed 's/^/softroce-perftest: [client] /'
    typical=$(echo "$table" | awk '$1 ~ /^[0-9]+$/ { print $5; exit }')
    p99=$(echo "$table" | awk '$1 ~ /^[0-9]+$/ { print $8; exit }')
    p999=$(echo "$table" | awk '$1 ~ /^[0-9]+$/ { print $9; exit }')
    status=0
    if [ $client_status -ne 0 ] || [ $server_status -ne 0 ] || [ -z "$typical" ]; then
      status=1
      echo "softroce: ib_send_lat -s $size failed (client exit $client_status, server exit $server_status):"
      sed 's/^/  [client] /' "$out.client"
      sed 's/^/  [server] /' "$out.server"
    fi
  }
  perftest_ok=1
  perftest_summary=""
  unusable=0
  for size in 32 4096; do
    send_lat $size
    case "$status:$typical" in
      0:*inf* | 0:*nan*)
        echo "softroce: ib_send_lat -s $size: clock fit failed, figures unusable; once more"
        send_lat $size ;;
    esac
    [ $status = 0 ] || perftest_ok=0
    case "$typical" in *inf* | *nan*) unusable=1 ;; esac
    perftest_summary="$perftest_summary ${size}B typical ${typical:-?} us, p99 ${p99:-?} us, p99.9 ${p999:-?} us;"
  done
  perftest_summary=${perftest_summary%;}
  if [ $unusable = 1 ]; then
    perftest_summary="$perftest_summary (traffic completed, but perftest's clock fit failed: inf/nan figures are unusable)"
  fi
  if [ $perftest_ok = 1 ]; then
    check perftest-ib_send_lat PASS "$iterations iterations each:$perftest_summary"
  else
    check perftest-ib_send_lat FAIL "$perftest_summary"
  fi
fi

# ---------------------------------------------------------------------------------------------------- VerbsSmoke
if wanted smoke; then
  section "VerbsSmoke (FFM -> libibverbs)"
  smoke=$(timeout 180 "$JAVA" --enable-native-access=ALL-UNNAMED "${TCG_FLAGS[@]}" softroce/VerbsSmoke.java rxe0 2>&1)
  smoke_status=$?
  echo "$smoke"
  if [ $smoke_status -eq 0 ]; then
    check verbs-smoke PASS "$(echo "$smoke" | grep '^VerbsSmoke: devices' | tail -n 1)"
  else
    check verbs-smoke FAIL "exit $smoke_status: $(echo "$smoke" | tail -n 1)"
  fi
fi

# ---------------------------------------------------------------------------------------------------- JUnit
if wanted junit; then
  section "JUnit: rdma-reactive-core tests tagged 'verbs'"
  test_classes=$SOFTROCE_REPO/rdma-reactive-core/target/test-classes
  if [ ! -r "$SOFTROCE_CORE_TEST_CP" ] || [ ! -d "$test_classes" ]; then
    check junit-verbs FAIL "no test class path ($SOFTROCE_CORE_TEST_CP) or no $test_classes"
  else
    junit_log=/tmp/junit.log
    # As under surefire: the module directory as working directory (read-only here: tests write under /tmp or
    # /dev/shm), rdma.idle=backoff; jqwik's database goes to /tmp. An emulated machine is many times slower, and on a
    # loaded host one of its threads can stand still for seconds: the tests' waits are stretched from 30 s to 120 s,
    # and the liveness timeout of connections whose test does not set its own from 5 s to 30 s.
    cd "$SOFTROCE_REPO/rdma-reactive-core"
    for attempt in 1 2; do
      timeout "${SOFTROCE_JUNIT_TIMEOUT:-900}" "$JAVA" "${JVM_FLAGS[@]}" -Drdma.idle=backoff \
        -Drr.test.boundSeconds=120 -Drr.test.livenessSeconds=30 \
        -cp "$SOFTROCE_JUNIT_JAR:$(cat "$SOFTROCE_CORE_TEST_CP")" \
        org.junit.platform.console.ConsoleLauncher execute --disable-banner --disable-ansi-colors --details=tree \
        ${SOFTROCE_JUNIT_SELECT:---scan-class-path $test_classes --include-tag verbs} \
        --config=jqwik.database=/tmp/jqwik-database --reports-dir "$SOFTROCE_OUT/junit" 2>&1 | tee "$junit_log"
      junit_status=${PIPESTATUS[0]}
      if [ $junit_status != 0 ] && [ $attempt = 1 ] && emulator_crash "$junit_log"; then
        echo "softroce: a JVM of the JUnit run died in JIT-compiled JDK code (see its hs_err file): running it again"
        continue
      fi
      break
    done
    cd "$SOFTROCE_REPO"
    found=$(sed -n 's/.*\[ *\([0-9][0-9]*\) tests found *\].*/\1/p' "$junit_log" | tail -n 1)
    ok=$(sed -n 's/.*\[ *\([0-9][0-9]*\) tests successful *\].*/\1/p' "$junit_log" | tail -n 1)
    bad=$(sed -n 's/.*\[ *\([0-9][0-9]*\) tests failed *\].*/\1/p' "$junit_log" | tail -n 1)
    aborted=$(sed -n 's/.*\[ *\([0-9][0-9]*\) tests aborted *\].*/\1/p' "$junit_log" | tail -n 1)
    skipped=$(sed -n 's/.*\[ *\([0-9][0-9]*\) tests skipped *\].*/\1/p' "$junit_log" | tail -n 1)
    echo "softroce-junit: found=${found:-?} successful=${ok:-?} failed=${bad:-?} aborted=${aborted:-?}" \
      "skipped=${skipped:-?} launcher-exit=$junit_status"
    not_run="${aborted:-0} aborted, ${skipped:-0} skipped"
    if [ -z "$ok" ] || [ -z "$bad" ]; then
      check junit-verbs FAIL "the launcher printed no summary (exit $junit_status$([ $junit_status = 124 ] && echo ', timed out'))"
    elif [ "${found:-0}" = 0 ]; then
      check junit-verbs FAIL "no verbs-tagged tests found (@Tag(\"verbs\") under rdma-reactive-core/src/test)"
    elif [ "$ok" = 0 ]; then
      # found but none succeeded: all aborted (a failed assumption) or skipped; in this guest that is a failure
      check junit-verbs FAIL "counts=0/$bad $found verbs-tagged tests found, none successful ($bad failed, $not_run)"
    elif [ "$bad" = 0 ] && [ $junit_status = 0 ]; then
      check junit-verbs PASS "counts=$ok/0 $ok tests successful ($not_run)"
    else
      check junit-verbs FAIL "counts=$ok/$bad $ok tests successful, $bad tests failed, $not_run (launcher exit $junit_status)"
    fi
  fi
fi

# ---------------------------------------------------------------------------------------------------- sample
if wanted sample; then
  section "samples PingPong over verbs"
  if [ "${SOFTROCE_SKIP_SAMPLE:-0}" = 1 ]; then
    check sample-pingpong-verbs SKIP "SOFTROCE_SKIP_SAMPLE=1 (not counted)"
  elif [ ! -r "${SOFTROCE_SAMPLES_CP:-}" ]; then
    check sample-pingpong-verbs SKIP "no samples class path ${SOFTROCE_SAMPLES_CP:-} (not counted)"
  else
    samples_cp=$(cat "$SOFTROCE_SAMPLES_CP")
    address=$RR_VERBS_HOST:7471
    pong_log=/tmp/pong.log
    # With --address the sample does not start its own pong: start one here, serving a single connection. Both sides
    # stretch their liveness timeout, as the JUnit tests do here: under emulation a JVM can stall for seconds (class
    # loading and compilation of the first call's code on two vCPUs busy with two yielding loops).
    timeout 240 "$JAVA" "${JVM_FLAGS[@]}" -cp "$samples_cp" io.rdmareactive.samples.PingPong \
      --role=pong --once --provider=verbs --address="$address" --liveness-seconds=30 >"$pong_log" 2>&1 &
    pong=$!
    waited=0
    while ! grep -q '^pong: listening at' "$pong_log" && kill -0 $pong 2>/dev/null && [ $waited -lt 600 ]; do
      sleep 0.1
      waited=$((waited + 1))
    done
    if grep -q '^pong: listening at' "$pong_log"; then
      ping_log=/tmp/ping.log
      timeout 240 "$JAVA" "${JVM_FLAGS[@]}" -cp "$samples_cp" io.rdmareactive.samples.PingPong \
        --role=ping --provider=verbs --address="$address" --round-trips=2000 --size=32 --liveness-seconds=30 2>&1 \
        | tee "$ping_log"
      ping_status=${PIPESTATUS[0]}
      wait $pong
      pong_status=$?
      sed 's/^/  [pong] /' "$pong_log"
      if [ $ping_status -eq 0 ]; then
        check sample-pingpong-verbs PASS "$(grep -E '^  p50|^throughput' "$ping_log" | tr -s ' ' | paste -sd ';')"
      else
        why=$(grep -m 1 -E 'FAILED|Exception|Error' "$ping_log" || tail -n 1 "$ping_log")
        check sample-pingpong-verbs FAIL "ping exit $ping_status, pong exit $pong_status: $why"
      fi
    else
      kill $pong 2>/dev/null
      wait $pong
      pong_status=$?
      sed 's/^/  [pong] /' "$pong_log"
      why=$(grep -m 1 -E 'Exception|Error' "$pong_log" || tail -n 1 "$pong_log")
      check sample-pingpong-verbs FAIL "the pong did not listen (exit $pong_status): $why"
    fi
  fi
fi

# ---------------------------------------------------------------------------------------------------- SPI ping-pong
# The provider alone (no protocol, no Reactor): RDMA WRITE WITH IMMEDIATE each way between two JVMs, the figure to
# hold beside ib_send_lat's (same device, same message size, same run).
if wanted spi; then
  section "SPI ping-pong over verbs (the provider alone)"
  if [ -r "$SOFTROCE_CORE_TEST_CP" ]; then
    spi_log=/tmp/spi-ping.log
    for attempt in 1 2; do
      timeout 240 "$JAVA" "${JVM_FLAGS[@]}" -cp "$(cat "$SOFTROCE_CORE_TEST_CP")" io.rdmareactive.spi.demo.SpiPingPong \
        --provider=verbs --address="$RR_VERBS_HOST:$((7480 + attempt))" --round-trips=2000 --size=32 2>&1 | tee "$spi_log"
      spi_status=${PIPESTATUS[0]}
      if [ $spi_status != 0 ] && [ $attempt = 1 ] && emulator_crash "$spi_log"; then
        echo "softroce: a JVM of the SPI ping-pong died in JIT-compiled JDK code (see its hs_err file): running it again"
        continue
      fi
      break
    done
    if [ $spi_status -eq 0 ]; then
      check spi-pingpong-verbs PASS "$(grep -E '^ *p50|^ *p99 |round trips/s' "$spi_log" | tr -s ' ' | paste -sd ';')"
    else
      check spi-pingpong-verbs FAIL "exit $spi_status: $(grep -m 1 -E 'Exception|Error|FAILED' "$spi_log" || tail -n 1 "$spi_log")"
    fi
  else
    check spi-pingpong-verbs FAIL "no class path $SOFTROCE_CORE_TEST_CP"
  fi
fi

# ---------------------------------------------------------------------------------------------------- perf (optional)
# The perf suite's comparison with the verbs transports (raw SPI and Flux API) and Aeron UDP in the same JVM, at a
# few sizes and short durations: asked for with SOFTROCE_PERF=1 on the host. Under TCG the figures say little about
# real hardware; what counts is that the suite runs on a real verbs device and writes its report.
if [ "${SOFTROCE_PERF:-0}" = 1 ]; then
  section "perf comparison over verbs"
  if [ ! -r "${SOFTROCE_PERF_CP:-}" ]; then
    check perf-compare-verbs FAIL "no perf class path ${SOFTROCE_PERF_CP:-}"
  else
    perf_log=/tmp/perf-compare.log
    timeout 900 "$JAVA" "${JVM_FLAGS[@]}" -Djava.awt.headless=true -cp "$(cat "$SOFTROCE_PERF_CP")" \
      io.rdmareactive.perf.compare.CompareCommand --transports=rr-verbs-raw,rr-verbs-flux,aeron-udp \
      --verbs-address="$RR_VERBS_HOST:7490" --workloads=ping-pong,throughput --ping-sizes=32,4096 --sizes=32,4096 \
      --streams=1 --warm-up=1s --duration=2s --fixed-rate=0 --output="$SOFTROCE_OUT/perf" 2>/dev/null | tee "$perf_log"
    perf_status=${PIPESTATUS[0]}
    if [ "$perf_status" = 0 ]; then
      check perf-compare-verbs PASS "results in $(tail -n 1 "$perf_log")"
    else
      check perf-compare-verbs FAIL "exit $perf_status: $(grep -m 1 -E 'not measured|Exception|Error' "$perf_log" || tail -n 1 "$perf_log")"
    fi
  fi
fi

# ---------------------------------------------------------------------------------------------------- two nodes
# Connections that cross a network link: two rxe devices on the two ends of a veth pair (softroce/two-node.sh).
if wanted two-node; then
  . "$SOFTROCE_REPO/softroce/two-node.sh"
fi

section "done: $failures check(s) failed"
[ $failures -eq 0 ]
