# Sourced by softroce/guest-tests.sh inside the Soft-RoCE guest (it uses that script's check, section, JAVA,
# JVM_FLAGS and emulator_crash); never run on the host. See docs/softroce.md, "Two nodes".
#
# Two RDMA nodes joined by a network link, in one guest:
#
#   node A: rxe-a on veth-a, 10.77.0.1/24  <== veth link ==>  node B: rxe-b on veth-b, 10.77.0.2/24
#
# Both ends stay in the initial network namespace: Debian 12's kernel (6.1) cannot put an rxe device in another one
# (the probe below shows why, every run). Policy routing makes the link real for traffic between the two addresses:
# what this machine sends to 10.77.0.1 leaves through veth-b with source 10.77.0.2, what it sends to 10.77.0.2
# leaves through veth-a with source 10.77.0.1, and both ends accept packets that come from the other local address.
# rdma_cm resolves an address through the routing tables, so a connection to node A's address is made from rxe-b
# (node B) and arrives at rxe-a (node A), and every RoCE v2 packet of it crosses the veth pair. A process picks its
# node's device with -Drdma.verbs.device (the Reactor API) or DeviceOptions.deviceName (the SPI).
#
# Checks (each one softroce-check line): two-node-setup, two-node-pingpong-verbs, two-node-conformance-verbs and
# two-node-two-process-verbs (one count per test), two-node-all-reduce-2 and -4, two-node-compare-verbs,
# two-node-link-cut.

NODE_A=10.77.0.1
NODE_B=10.77.0.2
LINK_CUT_KEEPALIVE_MS=1000
LINK_CUT_LIVENESS_MS=10000
# how much later than the liveness timeout an error may come: the keepalive period, and an emulated machine that
# can stand still for seconds
LINK_CUT_SLACK_MS=5000

# The IPv4-mapped RoCE v2 GID of ADDRESS in DEVICE's GID table, as "index gid"; nothing if it has none. (The table
# has hundreds of entries, nearly all zero: one grep reads them, not a process per entry, which costs minutes under
# emulation.)
roce_v2_gid() { # DEVICE ADDRESS
  local port=/sys/class/infiniband/$1/ports/1 want file index
  want=$(printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' $(echo "$2" | tr '.' ' '))
  for file in $(grep -lx "$want" "$port"/gids/* 2>/dev/null); do
    index=${file##*/}
    if [ "$(cat "$port/gid_attrs/types/$index" 2>/dev/null)" = "RoCE v2" ]; then
      echo "$index $want"
      return 0
    fi
  done
  return 1
}

# The entries of DEVICE's GID table that are in use: index, GID, type, network device.
show_gids() { # DEVICE
  local port=/sys/class/infiniband/$1/ports/1 file index
  for file in $(grep -Lx '0000:0000:0000:0000:0000:0000:0000:0000' "$port"/gids/* 2>/dev/null); do
    index=${file##*/}
    echo "softroce: $1 GID[$index] $(cat "$file") $(cat "$port/gid_attrs/types/$index" 2>/dev/null)" \
      "on $(cat "$port/gid_attrs/ndevs/$index" 2>/dev/null)"
  done
}

# Packets a veth end has sent, from its statistics.
tx_packets() { cat "/sys/class/net/$1/statistics/tx_packets"; }

# Every two-node check fails with the same reason when the set-up did not work.
fail_all_two_node() { # REASON
  check two-node-setup FAIL "$1"
  for name in two-node-pingpong-verbs two-node-conformance-verbs two-node-two-process-verbs two-node-all-reduce-2 \
    two-node-all-reduce-4 two-node-compare-verbs two-node-link-cut; do
    check $name FAIL "no two-node set-up: $1"
  done
}

# ---------------------------------------------------------------------------------------------------- why not namespaces
section "two nodes: can an rxe device live in a network namespace of its own here?"
# rdma devices follow network namespaces only in "exclusive" mode, which can be set only while no namespace but the
# initial one exists. Then: an rxe device made from inside a namespace, and one moved there, with the kernel's own
# answers; and where rxe's UDP socket for RoCE v2 (port 4791, 12B7 in /proc/net/udp) is.
netns_verdict=""
if ! netns_error=$(rdma system set netns exclusive 2>&1); then
  netns_verdict="rdma system set netns exclusive failed: $netns_error"
else
  ip netns add rr-probe
  ip link add veth-probe type veth peer name veth-probe-ns
  ip link set veth-probe-ns netns rr-probe
  ip -n rr-probe link set veth-probe-ns up
  ip -n rr-probe addr add 10.76.0.2/24 dev veth-probe-ns
  made=$(ip netns exec rr-probe rdma link add rxe-probe type rxe netdev veth-probe-ns 2>&1 && echo made)
  inside=$(ip netns exec rr-probe rdma dev show 2>&1 | awk '{ print $2 }' | tr -d ':' | paste -sd ' ')
  outside=$(rdma dev show 2>&1 | awk '{ print $2 }' | tr -d ':' | paste -sd ' ')
  moved=$(rdma dev set rxe-probe netns rr-probe 2>&1 && echo moved)
  udp_root=$(awk 'NR > 1 && $2 ~ /:12B7$/ { n++ } END { print n + 0 }' /proc/net/udp)
  udp_ns=$(ip netns exec rr-probe awk 'NR > 1 && $2 ~ /:12B7$/ { n++ } END { print n + 0 }' /proc/net/udp)
  echo "softroce: probe: 'rdma link add rxe-probe ... netdev veth-probe-ns' inside namespace rr-probe: ${made:-failed}"
  echo "softroce: probe: rdma devices seen inside rr-probe: '${inside}'; in the initial namespace: '${outside}'"
  echo "softroce: probe: 'rdma dev set rxe-probe netns rr-probe': ${moved}"
  echo "softroce: probe: UDP sockets on port 4791: $udp_root in the initial namespace, $udp_ns in rr-probe"
  rdma link delete rxe-probe 2>/dev/null
  ip netns delete rr-probe
  ip link delete veth-probe 2>/dev/null
  if [ "$moved" = moved ]; then
    netns_verdict="this kernel ($(uname -r)) moved an rxe device into a namespace; the set-up below still uses the initial namespace"
  else
    netns_verdict="kernel $(uname -r): an rxe device made from inside a namespace stays in the initial one, moving it fails ($moved: rxe has no disassociate_ucontext), and rxe's RoCE v2 UDP socket exists only in the initial namespace ($udp_root there, $udp_ns in the probe)"
  fi
fi
echo "softroce: two nodes without namespaces: $netns_verdict"

# ---------------------------------------------------------------------------------------------------- set-up
section "two nodes: rxe-a on veth-a ($NODE_A) <-> rxe-b on veth-b ($NODE_B)"
two_node_problem=""
setup_step() { # DESCRIPTION COMMAND...: runs it, keeping the first failure
  local what=$1 output
  shift
  [ -z "$two_node_problem" ] || return 1
  if ! output=$("$@" 2>&1); then
    two_node_problem="$what failed: $* said: $output"
    return 1
  fi
}
setup_step "the veth pair" ip link add veth-a type veth peer name veth-b
setup_step "node A's address" ip addr add $NODE_A/24 dev veth-a
setup_step "node B's address" ip addr add $NODE_B/24 dev veth-b
# Packets from the other end carry a local source address: accept them (accept_local) and do not drop them as
# martians or by reverse-path filtering. The effective rp_filter is the larger of "all" and the device's.
for conf in all veth-a veth-b; do
  setup_step "the sysctls of $conf" sysctl -qw net.ipv4.conf.$conf.accept_local=1 net.ipv4.conf.$conf.rp_filter=0
done
setup_step "veth-a up" ip link set veth-a up
setup_step "veth-b up" ip link set veth-b up
# The local table is looked up first by default, and it would deliver 10.77.0.x to this machine over lo: look it up
# after two rules that send, for packets this machine makes (iif lo), each address out of the other node's end.
# Packets arriving on a veth end do not match them and are delivered locally by the local table.
setup_step "moving the local table's rule" ip rule add pref 1000 lookup local
setup_step "removing its old rule" ip rule del pref 0 lookup local
setup_step "the route to node A" ip route add $NODE_A dev veth-b src $NODE_B table 101
setup_step "the route to node B" ip route add $NODE_B dev veth-a src $NODE_A table 102
setup_step "the rule for node A" ip rule add pref 100 to $NODE_A iif lo lookup 101
setup_step "the rule for node B" ip rule add pref 101 to $NODE_B iif lo lookup 102
setup_step "rxe-a" rdma link add rxe-a type rxe netdev veth-a
setup_step "rxe-b" rdma link add rxe-b type rxe netdev veth-b
if [ -z "$two_node_problem" ]; then
  for device in rxe-a rxe-b; do
    tries=0
    until rdma link show $device/1 2>/dev/null | grep -q 'state ACTIVE'; do
      tries=$((tries + 1))
      if [ $tries -gt 100 ]; then
        two_node_problem="$device port 1 did not become ACTIVE: $(rdma link show $device/1 2>&1)"
        break
      fi
      sleep 0.1
    done
  done
fi
if [ -z "$two_node_problem" ]; then
  rdma link show
  ip rule show
  route_a=$(ip route get $NODE_A | head -n 1)
  route_b=$(ip route get $NODE_B | head -n 1)
  echo "softroce: route to node A: $route_a"
  echo "softroce: route to node B: $route_b"
  # The GID rdma_cm picks for each side: the IPv4-mapped address of its interface, RoCE v2 (UDP port 4791).
  # The address appears in the GID table shortly after the device; give it a few seconds.
  for _ in $(seq 50); do
    gid_a=$(roce_v2_gid rxe-a $NODE_A) && gid_b=$(roce_v2_gid rxe-b $NODE_B) && break
    sleep 0.1
  done
  if [ -z "${gid_a:-}" ] || [ -z "${gid_b:-}" ]; then
    two_node_problem="no RoCE v2 GID of the veth addresses: rxe-a '${gid_a:-none}', rxe-b '${gid_b:-none}'"
  else
    show_gids rxe-a
    show_gids rxe-b
  fi
  case "$route_a" in *"dev veth-b"*"src $NODE_B"*) ;; *) two_node_problem="the route to node A does not leave through veth-b: $route_a" ;; esac
  case "$route_b" in *"dev veth-a"*"src $NODE_A"*) ;; *) two_node_problem="the route to node B does not leave through veth-a: $route_b" ;; esac
fi

if [ -n "$two_node_problem" ]; then
  fail_all_two_node "$two_node_problem"
else
  check two-node-setup PASS "rxe-a on veth-a $NODE_A (GID[${gid_a% *}] ::ffff:$NODE_A RoCE v2) <-> rxe-b on veth-b" \
    "$NODE_B (GID[${gid_b% *}] ::ffff:$NODE_B RoCE v2); to node A via veth-b, to node B via veth-a"

  # -------------------------------------------------------------------------------------------------- ping-pong
  section "two nodes: samples PingPong, pong on node A (rxe-a), ping from node B (rxe-b)"
  if [ ! -r "${SOFTROCE_SAMPLES_CP:-}" ]; then
    check two-node-pingpong-verbs FAIL "no samples class path ${SOFTROCE_SAMPLES_CP:-}"
  else
    samples_cp=$(cat "$SOFTROCE_SAMPLES_CP")
    round_trips=500
    address=$NODE_A:7501
    pong_log=/tmp/two-node-pong.log
    ping_log=/tmp/two-node-ping.log
    sent_a=$(tx_packets veth-a)
    sent_b=$(tx_packets veth-b)
    timeout 240 "$JAVA" "${JVM_FLAGS[@]}" -Drdma.verbs.device=rxe-a -cp "$samples_cp" io.rdmareactive.samples.PingPong \
      --role=pong --once --provider=verbs --address="$address" --liveness-seconds=30 --startup-seconds=120 \
      >"$pong_log" 2>&1 &
    pong=$!
    waited=0
    while ! grep -q '^pong: listening at' "$pong_log" && kill -0 $pong 2>/dev/null && [ $waited -lt 600 ]; do
      sleep 0.1
      waited=$((waited + 1))
    done
    if grep -q '^pong: listening at' "$pong_log"; then
      timeout 240 "$JAVA" "${JVM_FLAGS[@]}" -Drdma.verbs.device=rxe-b -cp "$samples_cp" \
        io.rdmareactive.samples.PingPong --role=ping --provider=verbs --address="$address" \
        --round-trips=$round_trips --size=32 --liveness-seconds=30 --startup-seconds=120 2>&1 | tee "$ping_log"
      ping_status=${PIPESTATUS[0]}
      # a pong whose ping failed before its handshake completed waits for a connection that never comes
      [ $ping_status = 0 ] || kill $pong 2>/dev/null
      wait $pong
      pong_status=$?
      sed 's/^/  [pong] /' "$pong_log"
      crossed_a=$(($(tx_packets veth-a) - sent_a))
      crossed_b=$(($(tx_packets veth-b) - sent_b))
      echo "softroce: packets sent during the ping-pong: veth-b (node B) $crossed_b, veth-a (node A) $crossed_a"
      if [ $ping_status -ne 0 ]; then
        why=$(grep -m 1 -E 'FAILED|Exception|Error' "$ping_log" || tail -n 1 "$ping_log")
        check two-node-pingpong-verbs FAIL "ping exit $ping_status, pong exit $pong_status: $why"
      elif [ $crossed_a -lt $round_trips ] || [ $crossed_b -lt $round_trips ]; then
        check two-node-pingpong-verbs FAIL "$round_trips round trips, but only $crossed_b packets left veth-b and" \
          "$crossed_a left veth-a: the traffic did not cross the link"
      else
        check two-node-pingpong-verbs PASS "$round_trips round trips across the link ($crossed_b packets node B -> A," \
          "$crossed_a A -> B):$(grep -E '^  p50|^throughput' "$ping_log" | tr -s ' ' | paste -sd ';')"
      fi
    else
      kill $pong 2>/dev/null
      wait $pong
      pong_status=$?
      sed 's/^/  [pong] /' "$pong_log"
      why=$(grep -m 1 -E 'Exception|Error' "$pong_log" || tail -n 1 "$pong_log")
      check two-node-pingpong-verbs FAIL "the pong did not listen on node A (exit $pong_status): $why"
    fi
  fi

  # -------------------------------------------------------------------------------------------------- JUnit
  # One JUnit class tagged verbs-two-node in a launcher of its own: one count per test, and whether its traffic
  # left node B.
  two_node_junit() { # CHECK CLASS LOG DESCRIPTION
    local name=$1 class=$2 log=$3 what=$4 status attempt sent crossed found ok bad not_run
    sent=$(tx_packets veth-b)
    cd "$SOFTROCE_REPO/rdma-reactive-core"
    for attempt in 1 2; do
      RR_TWO_NODE_HOST=$NODE_A RR_TWO_NODE_SERVER_DEVICE=rxe-a RR_TWO_NODE_CLIENT_HOST=$NODE_B \
        RR_TWO_NODE_CLIENT_DEVICE=rxe-b \
        timeout "${SOFTROCE_JUNIT_TIMEOUT:-900}" "$JAVA" "${JVM_FLAGS[@]}" -Drdma.idle=backoff \
        -Drr.test.boundSeconds=120 -Drr.test.livenessSeconds=30 \
        -cp "$SOFTROCE_JUNIT_JAR:$(cat "$SOFTROCE_CORE_TEST_CP")" \
        org.junit.platform.console.ConsoleLauncher execute --disable-banner --disable-ansi-colors --details=tree \
        --select-class "$class" --include-tag verbs-two-node \
        --config=jqwik.database=/tmp/jqwik-database --reports-dir "$SOFTROCE_OUT/junit-$name" 2>&1 | tee "$log"
      status=${PIPESTATUS[0]}
      if [ $status != 0 ] && [ $attempt = 1 ] && emulator_crash "$log"; then
        echo "softroce: a JVM of $name died in JIT-compiled JDK code (see its hs_err file): running it again"
        continue
      fi
      break
    done
    cd "$SOFTROCE_REPO"
    crossed=$(($(tx_packets veth-b) - sent))
    summary() { sed -n "s/.*\[ *\([0-9][0-9]*\) tests $1 *\].*/\1/p" "$log" | tail -n 1; }
    found=$(summary found)
    ok=$(summary successful)
    bad=$(summary failed)
    not_run="$(summary aborted) aborted, $(summary skipped) skipped"
    echo "softroce-junit: $name found=${found:-?} successful=${ok:-?} failed=${bad:-?} ($not_run)" \
      "launcher-exit=$status; veth-b sent $crossed packets"
    if [ -z "$ok" ] || [ -z "$bad" ]; then
      check "$name" FAIL "the launcher printed no summary (exit $status$([ $status = 124 ] && echo ', timed out'))"
    elif [ "$ok" = 0 ]; then
      check "$name" FAIL "counts=0/$bad ${found:-0} tests found, none successful ($bad failed, $not_run)"
    elif [ "$bad" = 0 ] && [ $status = 0 ]; then
      check "$name" PASS "counts=$ok/0 $ok $what ($not_run; $crossed packets left node B)"
    else
      check "$name" FAIL "counts=$ok/$bad $ok tests successful, $bad failed, $not_run (launcher exit $status)"
    fi
  }

  section "two nodes: the verbs conformance suite, listeners on node A (rxe-a), connections from node B (rxe-b)"
  two_node_junit two-node-conformance-verbs io.rdmareactive.provider.verbs.VerbsTwoNodeConformanceTest \
    /tmp/two-node-conformance.log "tests successful across the link"

  section "two nodes: two processes (a peer killed mid-stream, a peer stopped, checksummed messages), one per node"
  two_node_junit two-node-two-process-verbs io.rdmareactive.VerbsTwoNodeTwoProcessTest \
    /tmp/two-node-two-process.log "tests successful, each process on its own node"

  # -------------------------------------------------------------------------------------------------- all-reduce
  # The samples' AllReduce with its ranks split across the nodes: rank 0 (this program, node A) starts the others;
  # even ranks run on rxe-a at node A's address, odd ones on rxe-b at node B's, so every hop of the ring crosses the
  # link. Every element of every size is checked on every rank; the figures are an emulator's, not a fabric's.
  # Four JVMs on two emulated vCPUs can leave a rank unscheduled past the 5 s liveness timeout (seen once, with the
  # host busy): the ranks tolerate 30 s of silence here.
  two_node_all_reduce() { # PROCESSES
    local processes=$1 name=two-node-all-reduce-$1 log=/tmp/two-node-all-reduce-$1.log addresses="" rank status sent
    if [ ! -r "${SOFTROCE_SAMPLES_CP:-}" ]; then
      check "$name" FAIL "no samples class path ${SOFTROCE_SAMPLES_CP:-}"
      return
    fi
    for rank in $(seq 0 $((processes - 1))); do
      if [ $((rank % 2)) = 0 ]; then addresses="$addresses,$NODE_A:$((7600 + 10 * processes + rank))"
      else addresses="$addresses,$NODE_B:$((7600 + 10 * processes + rank))"; fi
    done
    sent=$(tx_packets veth-b)
    timeout 420 "$JAVA" "${JVM_FLAGS[@]}" -cp "$(cat "$SOFTROCE_SAMPLES_CP")" io.rdmareactive.samples.AllReduce \
      --provider=verbs --processes="$processes" --addresses="${addresses#,}" --devices=rxe-a,rxe-b \
      --min-bytes=16 --max-bytes=1M --step-factor=4 --iterations=3 --warmup-iterations=1 \
      --jit-warmup-iterations=20 --slice-bytes=64K --idle=backoff --liveness-seconds=30 2>&1 | tee "$log"
    status=${PIPESTATUS[0]}
    crossed=$(($(tx_packets veth-b) - sent))
    if [ $status = 0 ] && grep -qx 'all-reduce: every element on every rank was right' "$log"; then
      check "$name" PASS "$processes ranks, ranks at ${addresses#,}; every element right at every size from 16 B to" \
        "1 MiB; 1 MiB row:$(awk -v n="$processes" '$1 == 1048576 { printf " time %s us, busbw %.1f MB/s", $5,
        $1 / $5 * 2 * (n - 1) / n }' "$log")" \
        "($crossed packets left node B)"
    else
      check "$name" FAIL "exit $status$([ $status = 124 ] && echo ', timed out'):" \
        "$(grep -m 1 -E 'FAILED|WRONG|Exception' "$log" || tail -n 1 "$log")"
    fi
  }
  section "two nodes: AllReduce, 2 processes, rank 0 on node A and rank 1 on node B"
  two_node_all_reduce 2
  section "two nodes: AllReduce, 4 processes, ranks 0 and 2 on node A, 1 and 3 on node B"
  two_node_all_reduce 4

  # -------------------------------------------------------------------------------------------------- comparison
  # The perf suite's verbs rows across the link: servers on node A (rxe-a), clients on node B (rxe-b), the
  # all-reduce's ranks alternating between the nodes (docs/perf.md, "Verbs across two nodes"). Short points: under
  # TCG the figures are the emulator's; what counts is that every workload ran across the link and was checked.
  section "two nodes: the comparison's verbs rows, servers on node A, clients on node B"
  if [ ! -r "${SOFTROCE_PERF_CP:-}" ]; then
    check two-node-compare-verbs FAIL "no perf class path ${SOFTROCE_PERF_CP:-}"
  else
    compare_log=/tmp/two-node-compare.log
    sent_b=$(tx_packets veth-b)
    timeout 600 "$JAVA" "${JVM_FLAGS[@]}" -Djava.awt.headless=true -cp "$(cat "$SOFTROCE_PERF_CP")" \
      io.rdmareactive.perf.compare.CompareCommand --transports=rr-verbs-raw,rr-verbs-flux \
      --verbs-address=$NODE_A:7700 --verbs-server-device=rxe-a --verbs-client-device=rxe-b \
      --verbs-client-address=$NODE_B --workloads=ping-pong,throughput,incast,all-reduce --ping-sizes=32 \
      --sizes=32,4096 --streams=1 --incast-senders=2 --allreduce-ranks=2 --allreduce-sizes=8,65536,1048576 \
      --warm-up=1s --duration=2s --fixed-rate=0 --idle=backoff --output="$SOFTROCE_OUT/perf-two-node" 2>&1 \
      | tee "$compare_log"
    compare_status=${PIPESTATUS[0]}
    crossed_b=$(($(tx_packets veth-b) - sent_b))
    if [ "$compare_status" = 0 ] && [ "$crossed_b" -gt 1000 ]; then
      check two-node-compare-verbs PASS "ping-pong, throughput, incast and all-reduce over rr-verbs-raw and" \
        "rr-verbs-flux across the link ($crossed_b packets left node B); results in $(tail -n 1 "$compare_log")"
    else
      check two-node-compare-verbs FAIL "exit $compare_status, $crossed_b packets left node B:" \
        "$(grep -m 1 -E 'not measured|Exception|Error' "$compare_log" || tail -n 1 "$compare_log")"
    fi
  fi

  # -------------------------------------------------------------------------------------------------- link cut
  # A stream from node A to node B, then node B's end of the link goes down (ip link set veth-b down; veth-a loses
  # its carrier with it): nothing reaches either side any more, and each must end the connection with an error
  # within its liveness timeout (plus the keepalive period and some slack for the emulator).
  section "two nodes: a stream from node A to node B, then the link is cut"
  cp_core=$(cat "$SOFTROCE_CORE_TEST_CP")
  server_log=/tmp/two-node-stream-server.log
  client_log=/tmp/two-node-stream-client.log
  limits="$LINK_CUT_KEEPALIVE_MS $LINK_CUT_LIVENESS_MS"
  # A first connection can end before its stream runs: under emulation the server's first accept (its class
  # loading) has taken longer than the liveness timeout, and the client then rightly gives up on a silent peer.
  # Then it runs once more, on a new port, and says so with both sides' times; the link is cut only once.
  for attempt in 1 2; do
    address=$NODE_A:$((7509 + attempt))
    timeout 300 "$JAVA" "${JVM_FLAGS[@]}" -Drdma.verbs.device=rxe-a -cp "$cp_core" io.rdmareactive.TwoNodePeer \
      serve "$address" $limits >"$server_log" 2>&1 &
    server=$!
    client=""
    waited=0
    while ! grep -q '^LISTENING' "$server_log" && kill -0 $server 2>/dev/null && [ $waited -lt 1200 ]; do
      sleep 0.1
      waited=$((waited + 1))
    done
    cut_ms=""
    if grep -q '^LISTENING' "$server_log"; then
      timeout 300 "$JAVA" "${JVM_FLAGS[@]}" -Drdma.verbs.device=rxe-b -cp "$cp_core" io.rdmareactive.TwoNodePeer \
        receive "$address" $limits >"$client_log" 2>&1 &
      client=$!
      waited=0
      while ! grep -q '^RECEIVING' "$client_log" && kill -0 $client 2>/dev/null && [ $waited -lt 1200 ]; do
        sleep 0.1
        waited=$((waited + 1))
      done
      if grep -q '^RECEIVING' "$client_log" && ! grep -q '^ENDED' "$client_log"; then
        cut_ms=$(date +%s%3N)
        ip link set veth-b down
        echo "softroce: link cut at $cut_ms ms (ip link set veth-b down): $(ip -br link show veth-a | tr -s ' ')"
      fi
    fi
    if [ -z "$cut_ms" ] && [ $attempt = 1 ] && grep -q '^ENDED [0-9]* 0 ' "$client_log" 2>/dev/null; then
      wait $client
      for _ in $(seq 300); do kill -0 $server 2>/dev/null || break; sleep 0.1; done
      kill $server 2>/dev/null
      wait $server
      echo "softroce: the stream never ran on the first connection: node A $(grep -h -E '^(CONNECTED|ENDED)' \
        "$server_log" | cut -c1-120 | paste -sd ';'); node B $(grep -h -E '^(CONNECTED|ENDED)' "$client_log" \
        | cut -c1-120 | paste -sd ';'): running it once more"
      continue
    fi
    break
  done
  if [ -z "$cut_ms" ]; then # the stream never ran: nothing will end these
    kill $server $client 2>/dev/null
  fi
  # both sides end on their own once the link is down: wait for them, bounded by their own timeout
  wait $server
  server_status=$?
  client_status=-1
  if [ -n "$client" ]; then
    wait $client
    client_status=$?
  fi
  sed 's/^/  [node A, serving] /' "$server_log"
  [ -n "$client" ] && sed 's/^/  [node B, receiving] /' "$client_log"
  bound_ms=$((LINK_CUT_LIVENESS_MS + LINK_CUT_SLACK_MS))
  ended_after() { # LOG: milliseconds from the cut to the ENDED line, or nothing
    local ended
    ended=$(awk '$1 == "ENDED" { print $2; exit }' "$1")
    [ -n "$ended" ] && echo $((ended - cut_ms))
  }
  if [ -z "$cut_ms" ]; then
    why=$(grep -h -m 1 -E 'FAILED|Exception' "$server_log" "$client_log" 2>/dev/null | head -n 1)
    check two-node-link-cut FAIL "the stream never ran, so the link was not cut (server exit $server_status," \
      "client exit $client_status): ${why:-see the lines above}"
  else
    server_ms=$(ended_after "$server_log")
    client_ms=$(ended_after "$client_log")
    server_error=$(awk '$1 == "ENDED" { $1 = $2 = $3 = ""; sub(/^ +/, ""); print; exit }' "$server_log")
    client_error=$(awk '$1 == "ENDED" { $1 = $2 = $3 = ""; sub(/^ +/, ""); print; exit }' "$client_log")
    timing="node B (receiving) reported its error after ${client_ms:-?} ms, node A (serving) after ${server_ms:-?} ms"
    timing="$timing (liveness timeout $LINK_CUT_LIVENESS_MS ms, bound $bound_ms ms)"
    if [ -z "$server_ms" ] || [ -z "$client_ms" ]; then
      check two-node-link-cut FAIL "$timing: a side did not report the end of its connection (server exit" \
        "$server_status, client exit $client_status)"
    elif [ $server_status != 0 ] || [ $client_status != 0 ]; then
      check two-node-link-cut FAIL "$timing, but a side did not end with an error (server exit $server_status," \
        "client exit $client_status): node A: $server_error; node B: $client_error"
    elif [ "$server_ms" -gt $bound_ms ] || [ "$client_ms" -gt $bound_ms ]; then
      check two-node-link-cut FAIL "$timing: too late; node A: $server_error; node B: $client_error"
    else
      check two-node-link-cut PASS "$timing; node B: $client_error; node A: $server_error"
    fi
  fi
fi
